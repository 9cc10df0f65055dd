// Package warc writes, indexes and reads the WARC 1.1 (ISO 28500) file of
// an AIP, through the Norwegian National Library's gowarc.
//
// A Writer makes one WARC file in memory, each record gzipped on its own
// (klauspost/compress at level 1, gzipLevel: inside a crawl about half
// the CPU of its level 3, which already took a third of the standard
// library's, go test ./warc -bench EntryWARC) so that a replay tool can
// seek to any record: a warcinfo record naming
// the software, the organisation and the crawl, then for each HTTP
// exchange a request and a response record (a 304 answer as received,
// without payload, when the harvest knows no capture it confirms), the
// request WARC-Concurrent-To its response; revisit records of profile identical-payload-digest for a
// fetch whose payload another record holds, a 304 that confirms a known
// capture included (Revisit: WARC-Refers-To, -Target-URI and -Date name
// it; no revisit record lacks them); resource records for what the harvest
// made from a page (the rendered DOM, the screenshot), named by URI only;
// and a page's metadata record (Metadata: outlink lines, as Heritrix
// writes them), WARC-Concurrent-To the page's response. WARC-Concurrent-To
// joins only records of one capture of one target URI (WARC 1.1 §5.7).
// Every record carries
// WARC-Block-Digest and, where it has one, WARC-Payload-Digest, both
// "sha256:" and lowercase hex (the digests of the bag's manifest).
//
// Content-Encoding: the harvest decodes gzip, deflate and br bodies as they
// arrive, and the archive keeps the decoded bytes (they are the objects/
// files METS and MARC describe). So that the response record stays true to
// its payload, a response that came content-encoded is written with its
// Content-Encoding and Content-Length headers renamed
// X-Archive-Orig-Content-Encoding and X-Archive-Orig-Content-Length (the
// convention of pywb and warcprox for rewritten headers) and a
// Content-Length of the decoded payload; every other header is as received
// (Go's HTTP client removes Transfer-Encoding once it has decoded chunking,
// and canonicalises header names; headers are written sorted by name).
// Secrets never reach the WARC: blogharvest.Exchange already holds
// Authorization, Cookie and Set-Cookie values redacted.
//
// The Writer also returns the CDXJ index of its response and revisit
// records (Index): one line per capture, "<SURT> <14-digit timestamp>
// <JSON>" with url, mime, status, digest, length, offset and filename, as
// pywb and ReplayWeb.page read it. Read and Verify read a WARC back with
// gowarc and check every digest. Scan streams a WARC file record by record
// without holding any block in memory (digests checked on the way, records
// not wanted skipped unread, wanted ones capped in size), for readers of
// files they do not trust to be small; Verify is Read streamed so (check).
//
// Every reader (Read, ReadAt, Scan, Verify) inflates the gzip members
// itself and hands gowarc each member through a guard (guard.go) that
// bounds a record's WARC header, and an application/http block's HTTP
// header, at MaxHeader: gowarc reads a header line whole, whatever its
// length. A record over the bound fails with ErrHeaderTooLarge naming its
// offset, and the readers go on with the next gzip member.
//
// record.go writes the records byte for byte as gowarc v1.6.0's record
// builder and Marshaler would (writeOwn: the header fields in gowarc's
// order, Content-Length, the block and payload digests), with the checks
// of gowarc's strict validation that could refuse one of them made first
// (the target URI parsed by whatwg-url, which gowarc only checks and never
// rewrites: the percent-encoding of a hostile URL is NormalizeURL's; the
// IP address, the date, the ids, a warc-fields block's syntax); a record
// it does not reproduce for certain (a revisit, a field or block gowarc
// might refuse) is built by gowarc as before (writeGowarc), and
// serialised by writer.go's marshalRecord (byte for byte as gowarc's
// Marshaler, without its per-record copy buffer). gowarc's builder had
// parsed every record id, its own and the ones it names, with whatwg-url:
// a third of an Entry AIP's allocations. TestOwnRecordsAsGowarc and
// TestOwnRecordsOfFilesAsGowarc write records both ways and compare the
// files, ids, indexes and refusals. CaptureSum is Capture with the
// payload's SHA-256 known (the packager's manifest digest, aip): writeOwn
// writes it as the WARC-Payload-Digest and hashes the payload once, for
// the block digest (TestCaptureSumAsCapture: the same file as Capture).
//
// A Writer builds its file in memory: NewWriterTo takes the buffer, so
// that a caller writing one file after another (aip, a bag each) hands
// each the buffer the last one grew instead of growing one from nothing;
// the gzip members are reused across records and Writers (writer.go:
// gzips, and keptMembers, which no collection empties).
//
// Where to change what: writing in writer.go (records; record.go the
// records written without gowarc's builder, and what sends one to it),
// revisit.go (the
// revisit of a matching payload) and cdxj.go (the index); reading in
// read.go (Read, ReadAt: blocks in memory), scan.go (Scan, Verify:
// streamed) and guard.go (the member loop and the header bounds every
// reader goes through).
package warc

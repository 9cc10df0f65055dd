// Package aip writes and checks Archival Information Packages.
//
// An AIP is a BagIt 1.0 bag (RFC 8493) laid out as
//
//	<archive>/<blog-id>/blog/v<N>/
//	<archive>/<blog-id>/entries/<yyyy>/<entry-key>/v<N>/
//	<archive>/<blog-id>/requisites/v<N>/   the blog's page requisites, once per payload (requisites.go)
//
// where yyyy is the UTC year of the entry's creation date (or "undated") when
// the entry is first written (its later versions go to the folder its key
// has under any year, or, for a post that moved, to the folder of the alias
// that names its archived URL: EntryDirIn; one post is one entry; a
// Writer under the archive lock looks the folders up in an index of the
// blog's entry folders it builds once and keeps as it writes,
// entryindex.go, instead of reading every year folder per new entry;
// Writer.EntryDir gives a reader that folder the same way) and
// entry-key is blogharvest.EntryKey of its canonical URL: no part of a path
// comes raw from the web. Each bag holds
//
//	bagit.txt
//	bag-info.txt              Source-Organization, Bagging-Date, Bag-Software-Agent,
//	                          External-Identifier (the permalink), Bag-Group-Identifier
//	                          (the blog id), Internal-Sender-Identifier, Content-Digest,
//	                          Payload-Oxum
//	manifest-sha256.txt, manifest-sha512.txt
//	tagmanifest-sha256.txt, tagmanifest-sha512.txt
//	data/METS.xml             METS 1.12.1 of the profile doc/mets-profile.md (Profile): a
//	                          MARCXML dmdSec per record (the Blog, or the Entry and each
//	                          Comment); an amdSec per file (PREMIS 3 object with a urn:uuid
//	                          identifier and its PRONOM format, a capture event for bytes a
//	                          server sent or a creation event for files the software made,
//	                          a format identification event) and one for the package
//	                          (relationships, rights, packaging events, agents); fileSec
//	                          groups original, rendered, media and metadata; a logical
//	                          structMap Entry › Comment nested as the comments answer each
//	                          other and a physical one (folders and files) that
//	                          Archivematica's metsrw reads
//	data/objects/<role>/<name> the captured files, names sanitised to [a-z0-9._-]
//	data/objects/state/state.json Blog AIPs: what the crawl left for the next update that
//	                          no capture holds (blogharvest.RoleState: the comment APIs
//	                          watched, the comment shapes learned, the widget loaders:
//	                          harvest.WatchFrom); not part of the content digest
//	data/objects/warc/<entry-key or "blog">.warc.gz
//	                          WARC 1.1 (package warc): warcinfo, then the request and
//	                          response records of every HTTP exchange that produced a
//	                          captured file (redirect hops included), resource records for
//	                          the rendered DOM and screenshot (urn:dom:, urn:screenshot:
//	                          and the page's URL), the page's metadata record (outlinks to
//	                          its requisites, WARC-Concurrent-To the page's response), the
//	                          revisit records of requisite re-fetches it records (doc/warc.md);
//	                          each captured file's PREMIS object names
//	                          its record (significantProperties WARC-Record-ID) and holds
//	                          the same bytes as the record's payload
//	data/logs/capture.log     URL, HTTP status, capture time and sha256 per file
//	data/logs/index.cdxj      the CDXJ index of the WARC's responses, for replay (pywb)
//	data/logs/fields.tsv      field provenance, when a record says how it got its fields:
//	                          a header line "record	kind	field	method", then per record
//	                          (Blog, or Entry then comments) and field in name order its
//	                          MARC 001, kind (blog, post, page, comment), the field (a
//	                          MARC attribute name of DESIGN §6) and the blogharvest.Method
//	                          (feed, rule, structured, heuristic, density, http, config,
//	                          computed); not part of the content digest
//	data/logs/ledger.tsv      Blog AIPs: the crawl ledger (a blogharvest.RoleLedger file),
//	                          a header line "url	fate	detail	via	comments", then one line per URL
//	                          the crawl met, sorted by URL: its canonical URL; its fate
//	                          (entry, listing, redirect, stub, duplicate, out-of-scope,
//	                          robots, over-budget, failed, skipped); the detail (the entry
//	                          key, the redirect's or stub's target — for a post or a feed
//	                          that moved, followed by how it was found —, the URL it
//	                          duplicates, the error or the reason); how the crawl met it
//	                          first (feed, sitemap, link, home, redirect, canonical, stub,
//	                          comments, archived: an archived URL asked for after a move);
//	                          for a post whose archived comments fall short of what the
//	                          blog states, the shortfall (stated, archived, sources tried)
//
// Formats are identified with siegfried and the PRONOM signature file
// compiled into the binary (nothing is read from disk or the network); it
// loads once per process, at the first identification. Three cases skip
// siegfried's scan and give its answer all the same (formats.go,
// formatshort.go): the files the packager writes (first of each kind
// scanned), content and name identified before in the process, and HTML5
// pages that begin with PRONOM fmt/471's first signature (checked against
// siegfried on the first pages of a process and one in 64 after, off at
// the first disagreement).
//
// A Writer validates the records (Blog.Validate, Entry.Validate), the MARC
// records (marc.Lint) and the METS document's IDs and references
// (mets.Document.Check) of every package before anything touches the disk:
// the parts of a METS document that come from input. What the typed
// writers build is validated against the schemas by the tests, not per
// package (Writer.ValidateEvery 0, the default; validation.go says which
// check covers what, and TestInputChecksCatchWhatSchemasWould proves it;
// Check validates every document against the schemas). It then builds
// the bag under <archive>/.tmp, makes it durable at once (one syncfs of the
// file system on Linux, elsewhere an fsync per file and folder) and renames
// the bag into place, so a crash leaves either no AIP or a complete one; Sweep
// clears .tmp at startup.
//
// One process writes into an archive at a time. LockArchive takes an
// exclusive flock on <archive>/.lock (LockFile) and writes its PID there; a
// second writer fails at once with a *LockedError naming that PID. The
// kernel releases the lock when its holder ends, even by kill -9. Sweep and
// a Writer work only under the lock, and right before the rename a Writer
// checks that it still holds the lock and that the temp bag is still whole
// (every file it wrote, with the size it wrote, tag files byte for byte,
// nothing added); otherwise the write fails, transiently, and nothing is
// published.
//
// A new version v<N+1> is written only when the
// content digest (the record's fields and its media, not capture times nor
// bagging dates) differs from the newest version's; an existing version is
// never modified. The digest is made of the fields digest.go names one by
// one (a field added to a record type is outside it until named there;
// TestDigestFields asks for the choice); a version written under the
// earlier whole-record JSON digest (a Content-Digest without the "v2:"
// prefix) is compared with that digest of the capture, so such an archive
// updates without new versions (TestDigestV1ArchiveUpdates).
//
// Nothing in this package follows a symbolic link below an archive root
// (nofollow.go): OpenFile, ReadFile, ReadDir and LatestVersionIn open an
// existing path in one openat2(2) that refuses any link on the way
// (RESOLVE_NO_SYMLINKS, RESOLVE_BENEATH; beneath_linux.go) and otherwise
// (a link met, a folder to make, no openat2) every folder relative to the
// one above it with O_NOFOLLOW, which names the link (a missing folder to
// make: below the deepest folder on the way that exists, itself opened in
// one openat2); under the archive lock these look-ups start from the root
// folder the lock holds open (rootfd.go) instead of opening the root by
// its path each time. The Writer builds a bag through its temp folder
// opened once so (stagedir.go: each folder made once with mkdirat relative
// to the folder above, opened only when a folder is made in it; each file
// created with openat in its open folder, or with openat2 of
// "folder/name" resolving no link relative to the folder above; the
// wholeness re-check read afresh the same way, entries' types from
// getdents64, tag files read back), publishes through parents opened that
// way (renameat2 RENAME_NOREPLACE: an existing version is refused by the
// rename itself) and reads reused media so, and
// ArchivedMedia reads an earlier version so (through Local); a link fails
// with a *SymlinkError naming it (permanent for a write). Other packages
// reading an archive (report) read it through a Store. ArchivedMedia streams the
// version's WARC (warc.Scan): memory stays bounded whatever it holds.
// Enclosing and Within tell a command whether a path it would write lies in
// an archive or a bag.
// Folders and files are made 0755 and 0644 under the umask, or with the
// exact Modes a Writer or Local is given (modes.go); the temp folder a bag
// is built in is made with the folder mode, so the published bag keeps it.
// Every bag published is then announced in the archive's publication log,
// one create-only JSON object per bag under .publications/, written
// through the Store (publog.go says why objects and not an appended
// file); Publications reads it, Unannounced and Announce close the gap a
// crash between publication and announcement leaves.
// Beside the bags, .state/<blog-id>/ keeps the newest state a `crawl
// -out` left for the blog's next update that no Blog AIP holds (the
// comment threads watched: a settled update writes no Blog AIP), one
// create-only object written through the Store (blogstate.go:
// PutBlogState, LatestBlogState); Check and the tally skip it.
//
// Storage goes through Store (store.go), the one interface every reader
// and writer of an archive uses: io/fs reading of published bags, and
// Stage/Put/Publish, which makes a whole bag visible at once or not at all.
// Local is the folder described above; package aip/s3store keeps an archive
// in an S3-compatible object store, publishing each bag by one marker
// object written last with If-None-Match (doc/storage.md). A Writer with
// Store set writes there; CheckStore checks an archive through any Store.
// The readers take a Store too: ArchivedMedia, ArchivedCaptures and
// ArchivedRequisites (media reuse on update), LatestBlog, TallyArchive,
// LatestVersionOf; Location names a store's object in messages. The lock
// functions are the folder's alone.
//
// A group commit of Entry AIPs is a Batch (batch.go, from Writer.NewBatch):
// its WriteEntry stages a bag (Result.Pending), its flush makes the staged
// bags durable with one sync, publishes and announces each and reports
// each (Published); the folder's publish without its own syncs is
// publishSynced (bag.go), the syncs syncBags, syncRecords and syncFolders
// (syncbag_*.go); a folder's records are staged unsynced
// (Local.stageRecord, publog.go), made durable by the sync after the
// bags' renames, renamed into place and synced once more. The daemon
// writes its crawls' entries through one.
//
// Archived bytes are read only through a Store. A file the readers load
// (ArchivedMedia and the others) carries blogharvest.File.Stored, its
// store and object name, and no Path: whoever reads it (harvest's
// archived comment feeds, requisites and feed captures; the Writer
// reusing it in a new version) calls File.Open or File.Content, which
// read through the store (a folder without following links, S3 by GET),
// so one reader serves both stores; from a store other than a folder the
// verified bytes come as Body too, so that writing them again costs no
// second GET. File.Path stays in the root type for the other direction
// only: a large file a caller hands the Writer from its own disk (the
// Writer opens it; File.Open does not). Keeping one File type with a
// store reference, rather than a second type for loaded files, leaves
// every reader of Entry.Files unchanged.
//
// Page requisites (blogharvest.RoleRequisite files) are not stored in the
// Blog or Entry AIP: the Writer first makes sure the blog's requisites
// package holds each one (a new requisites version with those it lacks,
// and the fetches that brought them), then writes into the AIP's WARC the
// page's metadata record (an outlink line per requisite) and a revisit
// record only for a fetch of its own whose payload was stored already, and
// names the requisites in its METS (requisites.go). Every fetch is
// recorded once in the archive; WARC-Concurrent-To joins only records of
// one capture of one URI.
// ArchivedRequisites reads the verified requisites back for an update to
// reuse or revalidate (harvest.Options.ArchivedRequisites).
//
// A capture an update reused from an earlier version (File.Reused: media,
// comment feeds) is not copied into the new version's WARC: the bag keeps
// its own copy of the file, its PREMIS object names the record, and the
// METS requires the version whose WARC holds it (File.ReusedIn,
// pkg.reusedIn); ArchivedMedia follows the record back through the
// earlier versions (verifiedFiles), and report.WriteWACZ brings those
// versions' WARCs along.
//
// A package's memory does not grow with its thread beyond the records
// themselves: the comments' MARC records are made, linted and written one
// at a time as the METS is written section by section
// (mets.Document.DmdSource, MarshalTo), a METS over 4 MiB goes through a
// temporary file (spillAbove, assemble.go) and is validated in parts
// (schemas.ValidateReader); Check streams the METS twice (the schema
// validation, then its sections one by one: checkmets.go) and every WARC
// (warc.Verify), holding neither whole.
//
// Check verifies bags and whole archives, reporting every problem as a typed
// error, a missing METS document or tag manifest and any symbolic link (never
// followed) included, and bags of an archive that claim one identifier
// (DuplicateError: one Internal-Sender-Identifier twice, one entry's
// versions in two folders); CheckBag does the plain BagIt part for any bag.
// CheckTally also counts what it verified, and TallyArchive counts without
// checking, by the one definition check, demo and report share (Tally,
// TallyDefinition: payload = every file under data/ of every bag version).
// CheckShare is the same check of a share of an archive's bags (ShareOf: a
// bag's share is FNV-1a of its path modulo the number of shares, so that
// audits reading the shares in turn read every bag; CheckTally and
// CheckStore are CheckShare of every bag), reporting each bag's problems
// with its name. The checker reads a bag as an fs.FS (checkbag.go: the
// bag's folder is "."): a folder's bag through folderFS (os.DirFS opened
// as nofollow.go opens, links listed, never followed), a bag of any other
// store through the store itself (fs.Sub: an S3 bag's objects listed from
// its marker, each opened by one GET), so CheckStore makes no temporary
// copy (TestCheckStoreMakesNoCopy), and the METS is streamed by two opens
// rather than a seek.
//
// Fixity audits are recorded in the archive (audit.go): one folder per
// audit, <archive>/.audit/a<seq>/, holding premis.xml (a PREMIS 3 document:
// the fixity check event with its outcome and a note per problem, the
// archive and each bag with a problem as objects, the software as agent),
// audit.json (AuditRecord) and bags.txt.gz (every bag read), published through the Store as a bag is, so it
// is whole or absent on a folder and on S3 alike. One record per audit,
// not per blog: an audit is one event over the whole share, and a bag,
// never changed once published, cannot take it; a record outside the bags
// keeps a read from making new versions. The dot keeps the folder from
// any blog id and out of the readers' way; Check finds no bag in it.
//
// The tests of whatever writes through the Writer run over both stores
// (backends_test.go: forEachBackend, testArchive), S3 on a real server
// started on loopback (internal/s3test); tests of the folder's own layer
// (links, flock, .tmp, ENOSPC) say in one line why they stay local.
package aip

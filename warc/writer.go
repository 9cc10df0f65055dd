package warc

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"fmt"
	"github.com/klauspost/compress/gzip"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/google/uuid"
	gw "github.com/nlnwa/gowarc"
)

// Profiles and media types of the records written.
const (
	typeRequest  = "application/http;msgtype=request"
	typeResponse = "application/http;msgtype=response"
	origPrefix   = "X-Archive-Orig-"
)

// Info is what the warcinfo record says of the WARC.
type Info struct {
	Filename     string // the file's name in the bag, relative to data/; the CDXJ filename
	Software     string // name and version of the software
	Organization string // who made the capture (operator)
	Crawl        string // what was crawled, e.g. "blog sample, entry https://…"
	// IDSeed, if set, makes record ids name-based: the n-th record's is
	// urn:uuid: and the SHA-1 (version 5) UUID of "<IDSeed>#warc-<n>" in
	// the URL namespace, so a package's WARC is reproducible. It must be
	// unique to the WARC, such as the package's OBJID. If empty, ids are
	// random.
	IDSeed string
}

// Writer builds one WARC file in memory. Create it with NewWriter; it is
// not safe for concurrent use.
type Writer struct {
	info   Info
	infoID string
	n      int           // records written
	buf    *bytes.Buffer // the file: the caller's (NewWriterTo) or the Writer's own
	index  []string
	uris   uriChecked // target URIs whatwg-url accepted (record.go)
	built  int        // records built by gowarc's builder (writeGowarc), for tests
	// bodyDigest is the WARC-Payload-Digest of the last record written
	// when its payload was its block's parts after the first (an HTTP
	// record whose first part is the header: record.go), "" otherwise.
	bodyDigest string
	// payloadSum is the SHA-256 (lowercase hex) of the payload of the
	// record being written, the last part of its block after the HTTP
	// header, as its caller knows it (CaptureSum); "" when unknown.
	// writeOwn takes it for the WARC-Payload-Digest instead of hashing
	// the payload a second time beside the block digest.
	payloadSum string
}

// optionsMu serialises the making of gowarc builders and readers: each
// calls uuid.EnableRandPool, an unsynchronised write to a variable of
// github.com/google/uuid that uuid.New reads, a data race between
// concurrent AIP writes. Nothing in this module calls uuid.New or
// uuid.NewRandom; record ids come from our own id function.
var optionsMu sync.Mutex

// newBuilder returns gw.NewRecordBuilder(t, opts...) under optionsMu.
func newBuilder(t gw.RecordType, opts ...gw.WarcRecordOption) gw.WarcRecordBuilder {
	optionsMu.Lock()
	defer optionsMu.Unlock()
	return gw.NewRecordBuilder(t, opts...)
}

// gzips holds gzip writers (each allocates most of a megabyte) for reuse
// across records and Writers, each with a buffer in front: gowarc writes
// headers in small pieces.
var gzips = sync.Pool{New: func() any {
	z, _ := gzip.NewWriterLevel(io.Discard, gzipLevel) // a valid level: no error
	return &member{z: z, bw: bufio.NewWriterSize(z, 32<<10)}
}}

// keptMembers holds a few members outside gzips, which a collection does
// not empty: a crawl writes a bag every few requests, and the pool lost
// its writers to the collections between them, a new writer (its
// encoder's tables and window) for most bags (crawl -memprofile of
// mitsuyoshi: flate.NewWriter a sixth of the bytes a WARC allocated).
// Two: the writers of a crawl write one bag at a time, or two.
var keptMembers = make(chan *member, 2)

// getMember returns a member from keptMembers, or else from gzips.
func getMember() *member {
	select {
	case m := <-keptMembers:
		return m
	default:
		return gzips.Get().(*member)
	}
}

// putMember puts m back in keptMembers, or in gzips when it is full,
// pointed at io.Discard first: a kept member would otherwise hold the
// last file it wrote until its next use (a reset is cheap at level 1: an
// offset moved).
func putMember(m *member) {
	m.z.Reset(io.Discard)
	select {
	case keptMembers <- m:
	default:
		gzips.Put(m)
	}
}

// gzipLevel is the deflate level of the records: klauspost's level 1.
// Measured inside a whole crawl (blogharvest crawl of the corpus blog
// lahso, 1 291 records, 28.6 MB before compression; -cpuprofile, the
// samples under klauspost/compress/flate, two runs each): level 3 spent
// 0.44-0.48 s and wrote 8.72 MB, level 2 0.34-0.36 s and 8.93 MB, level 1
// 0.25-0.28 s and 9.16 MB. Between the records of a crawl the encoder's
// hash table is no longer in the processor's cache, and level 1's is the
// smallest: alone on the same pages (a benchmark compressing them one
// after another) the three differ by a fifth, in a crawl level 1 halves
// the WARC's deflate time, a twentieth of the crawl's CPU, for 5 % more
// WARC bytes (0.6 % of the whole archive). The default level (5) took
// 1.13-1.36 s on 600 of those pages.
const gzipLevel = 1

// member writes one gzip member.
type member struct {
	z  *gzip.Writer
	bw *bufio.Writer
}

// NewWriter returns a Writer whose file starts with the warcinfo record
// of info.
func NewWriter(info Info, now time.Time) (*Writer, error) {
	return NewWriterTo(new(bytes.Buffer), info, now)
}

// NewWriterTo is NewWriter writing the file into buf, which should be
// empty: the records are appended to it, and Bytes returns its bytes. A
// caller that writes many files one after another can hand each the
// buffer the last one grew (aip keeps them in a pool until its package is
// written), where a Writer's own buffer grew by doubling from nothing for
// every file.
func NewWriterTo(buf *bytes.Buffer, info Info, now time.Time) (*Writer, error) {
	w := &Writer{info: info, buf: buf}
	fields := &gw.WarcFields{}
	fields.Add("software", info.Software)
	fields.Add("format", "WARC File Format 1.1")
	fields.Add("conformsTo", "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/")
	if info.Organization != "" {
		fields.Add("operator", info.Organization)
	}
	fields.Add("description", info.Crawl)
	var block bytes.Buffer
	if _, err := fields.Write(&block); err != nil {
		return nil, err
	}
	id, _, err := w.write(gw.Warcinfo, []header{
		{gw.WarcDate, stamp(now)}, {gw.WarcFilename, baseName(info.Filename)},
		{gw.ContentType, gw.ApplicationWarcFields},
	}, block.Bytes())
	w.infoID = id
	return w, err
}

// header is one WARC header field.
type header struct{ name, value string }

// Capture writes the exchanges that produced one file, redirect hops
// first: for each a request record (when the request is known) and a
// response record. A 304 Not Modified is written as it was received, a
// response record with its status line and headers and no payload:
// Capture knows no record holding what it confirms, and a revisit record
// names its original (WARC-Refers-To). A fetch whose original is known
// is written by Revisit (the harvest turns a 304 whose original it holds
// into the original's response confirmed, doc/warc.md). payload is the last
// exchange's payload (the file's content). It returns the WARC-Record-ID of
// the last response or revisit record, without its angle brackets
// ("urn:uuid:…"), as every id the Writer returns. The request record is
// WARC-Concurrent-To its response: one capture event of one target URI
// (WARC 1.1 §5.7); no record names another URI's capture so.
func (w *Writer) Capture(xs []blogharvest.Exchange, payload []byte) (string, error) {
	return w.CaptureSum(xs, payload, "")
}

// CaptureSum is Capture with the payload's SHA-256 (lowercase hex, as
// blogharvest.File.Sum gives it) already known: the last response
// record's WARC-Payload-Digest is made of sum, its payload hashed once
// (for the block digest) instead of twice. sum must be payload's: the
// digest is written as given. "" hashes the payload, as Capture.
func (w *Writer) CaptureSum(xs []blogharvest.Exchange, payload []byte, sum string) (string, error) {
	var last string
	for i, x := range xs {
		body := x.Body
		if i == len(xs)-1 {
			body = payload
			w.payloadSum = sum
		}
		id, err := w.exchange(x, body)
		w.payloadSum = ""
		if err != nil {
			return "", fmt.Errorf("warc: %s: %w", x.URL, err)
		}
		last = id
	}
	return last, nil
}

// exchange writes one exchange's response (or revisit) record and its
// request record.
func (w *Writer) exchange(x blogharvest.Exchange, body []byte) (string, error) {
	x.URL = blogharvest.NormalizeURL(x.URL) // a valid WARC-Target-URI; the index line says the same
	date := x.Sent
	if date.IsZero() {
		date = x.Received
	}
	hs := responseHeaders(x, date)
	if x.Truncated {
		hs = append(hs, header{gw.WarcTruncated, "length"})
	}
	typ := gw.Response
	if x.Status == http.StatusNotModified { // the answer as received: no payload (see Capture)
		body = nil
		w.payloadSum = ""
	}
	offset := int64(w.buf.Len())
	id, n, err := w.write(typ, hs, responseHead(x, len(body)), body)
	if err != nil {
		return "", err
	}
	w.addIndex(x, typ, date, body, w.bodyDigest, offset, n)
	if err := w.request(x, date, id); err != nil {
		return "", err
	}
	return id, nil
}

// request writes the request record of x, sent at date, WARC-Concurrent-To
// its response (or revisit) record id, when x has a method (a request
// the harvest sent; none otherwise).
func (w *Writer) request(x blogharvest.Exchange, date time.Time, id string) error {
	if x.Method == "" {
		return nil
	}
	rq := []header{{gw.WarcTargetURI, x.URL}, {gw.WarcDate, stamp(date)}, {gw.ContentType, typeRequest}, {gw.WarcConcurrentTo, bracket(id)}}
	_, _, err := w.write(gw.Request, rq, requestBlock(x))
	return err
}

// responseHeaders are the WARC headers of the response (or revisit)
// record of x: target, date, type, address.
func responseHeaders(x blogharvest.Exchange, date time.Time) []header {
	hs := []header{{gw.WarcTargetURI, x.URL}, {gw.WarcDate, stamp(date)}, {gw.ContentType, typeResponse}}
	if x.RemoteIP != "" {
		hs = append(hs, header{gw.WarcIPAddress, x.RemoteIP})
	}
	return hs
}

// Resource writes a resource record: content the harvest made from a
// capture, such as a rendered DOM under the URI "urn:dom:<page URL>". It
// names no other record (WARC-Concurrent-To joins records of one target
// URI; WARC-Refers-To is not defined for resource records): the URI says
// which page it shows. It returns its WARC-Record-ID.
func (w *Writer) Resource(uri, mediaType string, date time.Time, body []byte) (string, error) {
	hs := []header{{gw.WarcTargetURI, uri}, {gw.WarcDate, stamp(date)}, {gw.ContentType, orOctets(mediaType)}}
	id, _, err := w.write(gw.Resource, hs, body)
	if err != nil {
		return "", fmt.Errorf("warc: resource %s: %w", uri, err)
	}
	return id, nil
}

// Link is one line of a page's metadata record: a URL the page needs
// and how, as Heritrix writes its outlinks ("outlink: <URL> <hop>
// <context>"): hop "E" (an embed), context "=EMBED_MISC" when the
// element is not told.
type Link struct {
	URL     string
	Hop     string // "E": embed, "L": link
	Context string // such as "link/@href"; "=EMBED_MISC" when empty
}

// Metadata writes the metadata record of the capture of uri whose response
// record is concurrentTo ("urn:uuid:…"), dated date: an
// application/warc-fields block with one "outlink:" line per link, in
// order. It is WARC-Concurrent-To that response (the same capture event
// of the same target URI) and returns its WARC-Record-ID.
func (w *Writer) Metadata(uri string, date time.Time, concurrentTo string, links []Link) (string, error) {
	uri = blogharvest.NormalizeURL(uri)
	var block bytes.Buffer // written here: gowarc's WarcFields would capitalise the field name
	for _, l := range links {
		hop, ctx := orDefault(l.Hop, "E"), orDefault(l.Context, "=EMBED_MISC")
		fmt.Fprintf(&block, "outlink: %s %s %s\r\n", strings.ReplaceAll(oneLine(blogharvest.NormalizeURL(l.URL)), " ", "%20"),
			oneLine(hop), oneLine(ctx))
	}
	hs := []header{{gw.WarcTargetURI, uri}, {gw.WarcDate, stamp(date)}, {gw.ContentType, gw.ApplicationWarcFields}}
	if concurrentTo != "" {
		hs = append(hs, header{gw.WarcConcurrentTo, bracket(concurrentTo)})
	}
	id, _, err := w.write(gw.Metadata, hs, block.Bytes())
	if err != nil {
		return "", fmt.Errorf("warc: metadata %s: %w", uri, err)
	}
	return id, nil
}

// Bytes returns the WARC file so far.
func (w *Writer) Bytes() []byte { return w.buf.Bytes() }

// Index returns the CDXJ index of the response and revisit records,
// sorted as replay tools expect.
func (w *Writer) Index() []byte {
	lines := slices.Clone(w.index)
	slices.Sort(lines)
	return []byte(strings.Join(lines, ""))
}

// write makes one record (record id, Content-Length and the sha256
// digests: record.go, or gowarc's builder) and appends it to the file as
// its own gzip member. It returns the record id and the member's length.
func (w *Writer) write(t gw.RecordType, hs []header, block ...[]byte) (string, int64, error) {
	return w.writeAs(t, hs, nil, block...)
}

// writeAs is write with the built record first passed through conv, when
// conv is not nil (a response made a revisit, revisit.go). The record's
// block is the parts of block one after the other (a response's HTTP
// header, then its payload, not copied together first).
func (w *Writer) writeAs(t gw.RecordType, hs []header, conv func(gw.WarcRecord) (gw.WarcRecord, error), block ...[]byte) (string, int64, error) {
	w.n++
	w.bodyDigest = ""
	if conv == nil && !viaGowarc {
		if id, n, ok, err := w.writeOwn(t, hs, block); ok {
			return id, n, err
		}
	}
	return w.writeGowarc(t, hs, conv, block...)
}

// recordID returns the id of the w.n-th record, "urn:uuid:…" (see
// Info.IDSeed).
func (w *Writer) recordID() (string, error) {
	if w.info.IDSeed == "" {
		id, err := uuid.NewRandomFromReader(rand.Reader) // not uuid.New: see optionsMu
		return "urn:uuid:" + id.String(), err
	}
	name := w.info.IDSeed + "#warc-" + strconv.Itoa(w.n)
	return "urn:uuid:" + uuid.NewSHA1(uuid.NameSpaceURL, []byte(name)).String(), nil
}

// writeGowarc is writeAs through gowarc's record builder: every record
// did so before record.go, which now writes those whose building it
// reproduces; a revisit (conv) and any record writeOwn leaves are built
// here.
func (w *Writer) writeGowarc(t gw.RecordType, hs []header, conv func(gw.WarcRecord) (gw.WarcRecord, error), block ...[]byte) (string, int64, error) {
	opts := []gw.WarcRecordOption{gw.WithDefaultDigestAlgorithm("sha256"), gw.WithDefaultDigestEncoding(gw.Base16),
		gw.WithStrictValidation(), gw.WithRecordIdFunc(w.recordID)}
	w.built++
	b := newBuilder(t, opts...)
	defer b.Close()
	for _, h := range hs {
		b.AddWarcHeader(h.name, h.value)
	}
	if w.infoID != "" {
		b.AddWarcHeader(gw.WarcWarcinfoID, bracket(w.infoID))
	}
	for _, part := range block {
		if _, err := b.Write(part); err != nil {
			return "", 0, err
		}
	}
	rec, _, err := b.Build()
	if err != nil {
		return "", 0, err
	}
	defer rec.Close()
	if conv != nil {
		if rec, err = conv(rec); err != nil {
			return "", 0, err
		}
	}
	start := w.buf.Len()
	m := getMember()
	defer putMember(m)
	m.z.Reset(w.buf)
	m.bw.Reset(m.z)
	if err := marshal(m.bw, rec); err != nil {
		return "", 0, err
	}
	if err := m.bw.Flush(); err != nil {
		return "", 0, err
	}
	if err := m.z.Close(); err != nil {
		return "", 0, err
	}
	return unbracket(rec.RecordId()), int64(w.buf.Len() - start), nil
}

// marshal is marshalRecord; a test puts gowarc's Marshaler in its place
// to compare the two.
var marshal = marshalRecord

// marshalRecord writes rec to bw as gowarc's Marshaler (v1.6.0,
// defaultMarshaler.writeRecord) does, byte for byte: the version line, the
// header fields, a blank line, the block, two CRLFs. It differs in how the
// block is copied: gowarc's io.Copy asks the block's io.MultiReader to
// WriteTo, which allocates a 32 KB buffer per record (zeroed; a fifth of
// what writing an Entry AIP allocated, aip's BenchmarkWriteEntry) and then
// never uses it, since bw is an io.ReaderFrom; bw.ReadFrom reads the block
// into bw's own buffer. The deflate stream behind bw is the same whatever the
// sizes of the writes (klauspost's compressor encodes whole windows), so
// the member's bytes are too (TestMarshalRecordAsGowarc).
func marshalRecord(bw *bufio.Writer, rec gw.WarcRecord) error {
	if _, err := fmt.Fprintf(bw, "%v\r\n", rec.Version()); err != nil {
		return err
	}
	if _, err := rec.WarcHeader().Write(bw); err != nil {
		return err
	}
	if _, err := bw.WriteString("\r\n"); err != nil {
		return err
	}
	r, err := rec.Block().RawBytes()
	if err != nil {
		return err
	}
	if _, err := bw.ReadFrom(r); err != nil {
		return err
	}
	_, err = bw.WriteString("\r\n\r\n")
	return err
}

// responseHead returns the HTTP response header as archived before a
// payload of n bytes: status line, headers (see the package comment on
// Content-Encoding), the blank line.
func responseHead(x blogharvest.Exchange, n int) []byte {
	var b bytes.Buffer
	b.Grow(1024)
	reason := x.Reason
	if reason == "" {
		reason = strconv.Itoa(x.Status) + " " + http.StatusText(x.Status)
	}
	fmt.Fprintf(&b, "%s %s\r\n", orDefault(x.Proto, "HTTP/1.1"), oneLine(reason))
	writeHeader(&b, archivedHeader(x.ResponseHeader, n, x.Status == http.StatusNotModified))
	return b.Bytes()
}

// archivedHeader returns the response header h as the WARC keeps it for a
// payload of n bytes: when the body came content-encoded, Content-Encoding
// and Content-Length are renamed with the X-Archive-Orig- prefix and
// Content-Length is n. A revisit keeps h as received.
func archivedHeader(h map[string][]string, n int, revisit bool) http.Header {
	if revisit || http.Header(h).Get("Content-Encoding") == "" {
		return h // kept as received: only read (writeHeader), so not copied
	}
	out := http.Header(h).Clone()
	for _, k := range []string{"Content-Encoding", "Content-Length"} {
		if v, ok := out[k]; ok {
			out[origPrefix+k] = v
			delete(out, k)
		}
	}
	out.Set("Content-Length", strconv.Itoa(n))
	return out
}

// requestBlock returns the HTTP request as sent (secrets redacted).
func requestBlock(x blogharvest.Exchange) []byte {
	var b bytes.Buffer
	target := x.URL
	if u, err := url.Parse(x.URL); err == nil {
		target = u.RequestURI()
	}
	fmt.Fprintf(&b, "%s %s %s\r\n", x.Method, target, orDefault(x.RequestProto, "HTTP/1.1"))
	writeHeader(&b, x.RequestHeader)
	return b.Bytes()
}

// writeHeader writes h sorted by name, then the empty line.
func writeHeader(b *bytes.Buffer, h map[string][]string) {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		for _, v := range h[k] { // as fmt's "%s: %s\r\n", without its work
			b.WriteString(oneLine(k))
			b.WriteString(": ")
			b.WriteString(oneLine(v))
			b.WriteString("\r\n")
		}
	}
	b.WriteString("\r\n")
}

// stamp formats t as a WARC-Date, UTC to the second; the zero time as the
// Unix epoch (gowarc refuses a record without a date).
func stamp(t time.Time) string {
	if t.IsZero() {
		t = time.Unix(0, 0)
	}
	return t.UTC().Format(time.RFC3339)
}

// oneLine returns s with each CR and LF replaced by a space: s itself
// when it holds none (every header field of every response passes here;
// a Replacer was built for each).
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return lineBreaks.Replace(s)
}

// lineBreaks is oneLine's Replacer, built once.
var lineBreaks = strings.NewReplacer("\r", " ", "\n", " ")

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func orOctets(mt string) string { return orDefault(mt, "application/octet-stream") }

// unbracket returns a record id without the angle brackets of WARC
// headers, "urn:uuid:…".
func unbracket(id string) string { return strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">") }

// bracket returns a record id as WARC headers hold it, "<urn:uuid:…>".
func bracket(id string) string {
	if strings.HasPrefix(id, "<") {
		return id
	}
	return "<" + id + ">"
}

func baseName(p string) string { return p[strings.LastIndex(p, "/")+1:] }

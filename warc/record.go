package warc

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	gw "github.com/nlnwa/gowarc"
	"github.com/nlnwa/whatwg-url/url"
)

// This file writes a record without gowarc's builder, giving the bytes
// gowarc v1.6.0's NewRecordBuilder + Build + Marshal give with the
// options writeGowarc passes (strict validation, sha256 in base 16), for
// the records whose building it fully reproduces; any other record, and
// any whose fields gowarc's strict validation could refuse, goes through
// gowarc (writeGowarc), which then writes or refuses it as before.
//
// What gowarc's Build does with such a record, and what is done here in
// its place (recordbuilder.go, headerfielddef.go, record.go, httpblock.go
// of gowarc v1.6.0):
//   - the header fields in the order given: WARC-Type (NewRecordBuilder),
//     the caller's fields, WARC-Warcinfo-ID, then WARC-Record-ID (Build's
//     SetId), Content-Length (validate's SetInt64), WARC-Block-Digest and
//     WARC-Payload-Digest (ValidateDigest's Set, when missing), each
//     written "Name: Value\r\n" (WarcFields.Write); the values unchanged
//     (its validation functions return the value they are given);
//   - the block digest over the whole block; the payload digest over what
//     follows the HTTP header for an application/http block of a
//     response, resource or request record (the header ends with the
//     first line shorter than 3 bytes, headerBytes), the whole block for
//     any other resource record, none for an application/warc-fields
//     block or another record type;
//   - its strict validation, which could refuse a record: the target URI
//     parsed by whatwg-url (url.Parse), the IP address by net.ParseIP, the
//     date as RFC 3339, record ids as "<" + URI + ">", fields legal for the
//     record type and not repeated, Content-Type present with a block, an
//     HTTP block of at least 4 bytes whose header ends. Where a check is
//     not made here for certain, the record goes to gowarc.
//
// The record ids this package makes ("urn:uuid:" and a UUID) always parse
// as URLs (scheme "urn", an opaque path of hexadecimal digits and
// hyphens), so they are not parsed again; gowarc parsed each of them, a
// record's own, the warcinfo's and the concurrent one's, with whatwg-url,
// most of the allocations of writing a record (aip's BenchmarkWriteEntry,
// -memprofile). TestOwnRecordsAsGowarc writes records both ways and
// compares the files byte for byte.

// viaGowarc, when set (by tests only), sends every record through gowarc's
// builder.
var viaGowarc = false

// uriChecked remembers the last target URIs whatwg-url accepted: a
// request record follows its response with the same URI, and a page's
// metadata record names the page again after its resources.
type uriChecked struct {
	recent [4]string
	next   int
}

// ok reports whether gowarc's strict validation accepts s as a
// WARC-Target-URI (whatwg-url parses it).
func (c *uriChecked) ok(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range c.recent {
		if r == s {
			return true
		}
	}
	if _, err := url.Parse(s); err != nil {
		return false
	}
	c.recent[c.next] = s
	c.next = (c.next + 1) % len(c.recent)
	return true
}

// digests holds the two SHA-256 hashes of a record, for reuse.
type digests struct {
	block, payload hash.Hash
	sum            [sha256.Size]byte
	hex            [len("sha256:") + 2*sha256.Size]byte
}

var digestPool = sync.Pool{New: func() any { return &digests{block: sha256.New(), payload: sha256.New()} }}

// format returns h's digest as gowarc formats it: "sha256:" and
// lower-case hexadecimal.
func (d *digests) format(h hash.Hash) string {
	s := h.Sum(d.sum[:0])
	copy(d.hex[:], "sha256:")
	hex.Encode(d.hex[len("sha256:"):], s)
	return string(d.hex[:])
}

// writeOwn writes the record gowarc would build of t, hs and block, as
// its own gzip member, and returns its id and the member's length; ok is
// false, with nothing written, when the record is one gowarc must build
// (see the top of this file).
func (w *Writer) writeOwn(t gw.RecordType, hs []header, block [][]byte) (id string, n int64, ok bool, err error) {
	if !w.ownable(t, hs, block) {
		return "", 0, false, nil
	}
	size := 0
	for _, p := range block {
		size += len(p)
	}
	ct := strings.ToLower(headerValue(hs, gw.ContentType))
	httpBlock := t&(gw.Response|gw.Resource|gw.Request) != 0 && strings.HasPrefix(ct, gw.ApplicationHttp)
	fieldsBlock := !httpBlock && strings.HasPrefix(ct, gw.ApplicationWarcFields)
	if fieldsBlock && !fieldsParse(block) { // gowarc parses it, and may refuse it
		return "", 0, false, nil
	}
	headEnd := 0 // where the payload starts, for an HTTP block
	if httpBlock {
		end, found := httpHeaderEnd(block)
		if size < 4 || !found { // gowarc: "not a http block", missingEndOfHeaders
			return "", 0, false, nil
		}
		headEnd = end
	}
	id, err = w.recordID()
	if err != nil {
		return "", 0, true, err
	}
	d := digestPool.Get().(*digests)
	defer digestPool.Put(d)
	d.block.Reset()
	d.payload.Reset()
	// known: the payload is the block's second and last part, its SHA-256
	// given (w.payloadSum): hashed for the block digest alone
	known := httpBlock && w.payloadSum != "" && len(block) == 2 && headEnd == len(block[0])
	off := 0
	for _, p := range block {
		d.block.Write(p)
		if httpBlock && !known && off+len(p) > headEnd {
			from := max(headEnd-off, 0)
			d.payload.Write(p[from:])
		}
		off += len(p)
	}
	blockDigest := d.format(d.block)
	payloadDigest := ""
	switch {
	case known:
		payloadDigest = "sha256:" + w.payloadSum
		w.bodyDigest = payloadDigest
	case httpBlock:
		payloadDigest = d.format(d.payload)
		if headEnd == len(block[0]) { // the payload is the parts after the header: its digest is the index line's
			w.bodyDigest = payloadDigest
		}
	case t == gw.Resource && !fieldsBlock:
		payloadDigest = blockDigest
	}

	start := w.buf.Len()
	m := getMember()
	defer putMember(m)
	m.z.Reset(w.buf)
	m.bw.Reset(m.z)
	bw := m.bw
	bw.WriteString("WARC/1.1\r\n")
	field(bw, gw.WarcType, t.String())
	for _, h := range hs {
		field(bw, h.name, h.value)
	}
	if w.infoID != "" {
		field(bw, gw.WarcWarcinfoID, bracket(w.infoID))
	}
	field(bw, gw.WarcRecordID, bracket(id))
	field(bw, gw.ContentLength, strconv.Itoa(size))
	field(bw, gw.WarcBlockDigest, blockDigest)
	if payloadDigest != "" {
		field(bw, gw.WarcPayloadDigest, payloadDigest)
	}
	bw.WriteString("\r\n")
	for _, p := range block {
		bw.Write(p)
	}
	bw.WriteString("\r\n\r\n")
	if err := bw.Flush(); err != nil {
		return "", 0, true, err
	}
	if err := m.z.Close(); err != nil {
		return "", 0, true, err
	}
	return id, int64(w.buf.Len() - start), true, nil
}

// field writes one header field as WarcFields.Write does.
func field(bw *bufio.Writer, name, value string) {
	bw.WriteString(name)
	bw.WriteString(": ")
	bw.WriteString(value)
	bw.WriteString("\r\n")
}

// ownable reports whether writeOwn builds the record of t, hs and block
// as gowarc would, and whether gowarc's strict validation would accept
// it: the record types and fields this package writes, each valid.
func (w *Writer) ownable(t gw.RecordType, hs []header, block [][]byte) bool {
	switch t {
	case gw.Warcinfo, gw.Response, gw.Resource, gw.Request, gw.Metadata:
	default:
		return false
	}
	var seen uint8
	for _, h := range hs {
		var bit uint8
		switch h.name {
		case gw.WarcTargetURI:
			bit = 1
			if !w.uris.ok(h.value) {
				return false
			}
		case gw.WarcDate:
			bit = 2
			if _, err := time.Parse(time.RFC3339, h.value); err != nil {
				return false
			}
		case gw.ContentType:
			bit = 4
		case gw.WarcIPAddress:
			bit = 8
			if t == gw.Warcinfo || net.ParseIP(h.value) == nil {
				return false
			}
		case gw.WarcTruncated:
			bit = 16
		case gw.WarcConcurrentTo:
			bit = 32
			if t == gw.Warcinfo || !ownID(h.value) {
				return false
			}
		case gw.WarcFilename:
			bit = 64
			if t != gw.Warcinfo {
				return false
			}
		default:
			return false
		}
		if seen&bit != 0 { // a field repeated: none of these may be, but WARC-Concurrent-To; left to gowarc
			return false
		}
		seen |= bit
	}
	if seen&2 == 0 { // WARC-Date is required
		return false
	}
	if seen&4 == 0 {
		for _, p := range block {
			if len(p) > 0 { // a block without Content-Type
				return false
			}
		}
	}
	if w.infoID != "" && (t == gw.Warcinfo || !ownID(bracket(w.infoID))) {
		return false
	}
	return true
}

// ownID reports whether s is "<urn:uuid:…>" with only hexadecimal digits
// and hyphens after the prefix: an id whatwg-url always parses.
func ownID(s string) bool {
	const prefix = "<urn:uuid:"
	if !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, ">") || len(s) <= len(prefix)+1 {
		return false
	}
	for _, c := range s[len(prefix) : len(s)-1] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' || c == '-') {
			return false
		}
	}
	return true
}

// headerValue returns the value of the field name in hs, "" if none.
func headerValue(hs []header, name string) string {
	for _, h := range hs {
		if h.name == name {
			return h.value
		}
	}
	return ""
}

// fieldsParse reports whether gowarc's strict parse of an
// application/warc-fields block (warcfieldsparser.go) surely accepts
// block: lines each ending with CRLF, none empty or continued (starting
// with a space or tab), each with a colon, no other CR, and no "=?"
// (where it would decode RFC 2047 encoded words, which can fail). The
// metadata records' "outlink:" lines and the warcinfo's fields are such.
func fieldsParse(block [][]byte) bool {
	var b []byte
	if len(block) == 1 { // as writeOwn's callers give a warc-fields block
		b = block[0]
	} else {
		b = bytes.Join(block, nil)
	}
	if bytes.Contains(b, []byte("=?")) {
		return false
	}
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return false // no final CRLF
		}
		line := b[:i]
		if len(line) < 2 || line[0] == ' ' || line[0] == '\t' || line[len(line)-1] != '\r' ||
			bytes.IndexByte(line, '\r') != len(line)-1 || bytes.IndexByte(line, ':') < 0 {
			return false
		}
		b = b[i+1:]
	}
	return true
}

// httpHeaderEnd returns the offset in the concatenation of block where
// gowarc's headerBytes ends an HTTP header: after the first line (ending
// with '\n') shorter than 3 bytes; found is false when no such line ends
// before the block does.
func httpHeaderEnd(block [][]byte) (end int, found bool) {
	off, lineLen := 0, 0
	for _, p := range block {
		for i, c := range p {
			lineLen++
			if c == '\n' {
				if lineLen < 3 {
					return off + i + 1, true
				}
				lineLen = 0
			}
		}
		off += len(p)
	}
	return off, false
}

package warc

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	gw "github.com/nlnwa/gowarc"
)

// Record is one record read back from a WARC.
type Record struct {
	Type         string // "warcinfo", "request", "response", "resource", "revisit", …
	ID           string // WARC-Record-ID without its angle brackets, "urn:uuid:…"
	TargetURI    string
	Date         time.Time
	Offset       int64       // of the record's gzip member in the file
	ConcurrentTo string      // WARC-Concurrent-To, if any
	RefersTo     string      // WARC-Refers-To without its angle brackets, if any (a revisit's original)
	Status       int         // the HTTP status of a response or revisit
	Header       http.Header // the HTTP headers of a response or revisit
	// Payload is a response's HTTP body or a resource's or metadata
	// record's block; nil for the other types.
	Payload       []byte
	PayloadSHA256 string // lowercase hex of Payload
	Size          int64  // the block's Content-Length (set by Scan)
	// RefersToURI and RefersToDate are a revisit record's
	// WARC-Refers-To-Target-URI and WARC-Refers-To-Date; PayloadDigest its
	// WARC-Payload-Digest (the original's payload).
	RefersToURI, RefersToDate, PayloadDigest string
}

// ErrDigest marks a record whose block or payload does not match its
// WARC-Block-Digest or WARC-Payload-Digest.
var ErrDigest = errors.New("digest mismatch")

// Read parses every record of the WARC file data with gowarc and verifies
// every WARC-Block-Digest and WARC-Payload-Digest (sha256 in hex). It
// returns the records read and every problem met, each naming the
// record's offset: a record whose digests do not match is returned all the
// same, with an error that errors.Is ErrDigest; reading stops only where
// the file cannot be parsed any further.
func Read(data []byte) ([]Record, error) {
	r, err := newReader(data)
	if err != nil {
		return nil, fmt.Errorf("warc: %w", err)
	}
	defer r.Close()
	var out []Record
	var errs []error
	for {
		rec, off, v, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, errors.Join(errs...)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("warc: record at offset %d: %w", off, err))
			if r.resumes() { // a header too large: that record is skipped
				continue
			}
			return out, errors.Join(errs...)
		}
		got, err := readRecord(rec, off)
		rec.Close()
		if err == nil && v != nil && !v.Valid() { // what gowarc found beyond the digests
			err = errors.Join(fmt.Errorf("gowarc: %s", strings.Join(strings.Fields(v.String()), " ")), err)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("warc: record %s at offset %d: %w", got.ID, off, err))
		}
		if got.Payload != nil || got.Type != "response" && got.Type != "resource" {
			out = append(out, got)
		}
	}
}

// newReader returns a reader of data (headers bounded: guard.go) that
// reports what it finds wrong and repairs nothing.
func newReader(data []byte) (*fileReader, error) {
	return newFileReader(bytes.NewReader(data),
		gw.WithSyntaxErrorPolicy(gw.ErrFail), gw.WithSpecViolationPolicy(gw.ErrWarn),
		gw.WithFixDigest(false), gw.WithFixContentLength(false), gw.WithFixSyntaxErrors(false)), nil
}

// ReadAt reads the one record whose gzip member starts at offset in the
// WARC file data, as a replay tool does with a CDXJ line's offset, and
// verifies its digests.
func ReadAt(data []byte, offset int64) (Record, error) {
	if offset < 0 || offset >= int64(len(data)) {
		return Record{}, fmt.Errorf("warc: offset %d outside the file's %d bytes", offset, len(data))
	}
	r, err := newReader(data[offset:])
	if err != nil {
		return Record{}, fmt.Errorf("warc: %w", err)
	}
	defer r.Close()
	rec, _, _, err := r.Next()
	if err != nil {
		return Record{}, fmt.Errorf("warc: record at offset %d: %w", offset, err)
	}
	defer rec.Close()
	got, err := readRecord(rec, offset)
	if err != nil {
		return got, fmt.Errorf("warc: record %s at offset %d: %w", got.ID, offset, err)
	}
	return got, nil
}

// readRecord reads one record and checks its digests.
func readRecord(rec gw.WarcRecord, off int64) (Record, error) {
	h := rec.WarcHeader()
	out := Record{Type: rec.Type().String(), ID: unbracket(rec.RecordId()), TargetURI: h.Get(gw.WarcTargetURI),
		Offset: off, ConcurrentTo: unbracket(h.Get(gw.WarcConcurrentTo)), RefersTo: unbracket(h.Get(gw.WarcRefersTo))}
	if rec.Type() == gw.Revisit {
		out.RefersToURI, out.RefersToDate = h.Get(gw.WarcRefersToTargetURI), h.Get(gw.WarcRefersToDate)
		out.PayloadDigest = h.Get(gw.WarcPayloadDigest)
	}
	out.Date, _ = rec.Date()
	blk := rec.Block()
	if err := blk.Cache(); err != nil {
		return out, err
	}
	raw, err := readAll(blk.RawBytes())
	if err != nil {
		return out, err
	}
	blockErr := checkDigest("WARC-Block-Digest", h.Get(gw.WarcBlockDigest), raw)
	switch b := blk.(type) {
	case gw.HttpResponseBlock:
		out.Status, out.Header = b.HttpStatusCode(), b.HttpHeader().Clone()
		if out.Payload, err = readAll(b.PayloadBytes()); err != nil {
			return out, err
		}
		if err := checkDigest("WARC-Payload-Digest", h.Get(gw.WarcPayloadDigest), out.Payload); err != nil {
			blockErr = errors.Join(blockErr, err)
		}
	default:
		if rec.Type() == gw.Resource || rec.Type() == gw.Metadata {
			out.Payload = raw
		}
	}
	if out.Payload != nil {
		sum := sha256.Sum256(out.Payload)
		out.PayloadSHA256 = hex.EncodeToString(sum[:])
	}
	return out, blockErr
}

// checkDigest compares a "sha256:<hex>" digest field with data's; an
// empty field is not checked, another algorithm or encoding is an error.
func checkDigest(field, want string, data []byte) error {
	if want == "" {
		return nil
	}
	alg, val, _ := strings.Cut(want, ":")
	if !strings.EqualFold(alg, "sha256") || len(val) != 64 {
		return fmt.Errorf("%s %q: want sha256 in hex", field, want)
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); !strings.EqualFold(got, val) {
		return fmt.Errorf("%s %s, content has sha256:%s: %w", field, want, got, ErrDigest)
	}
	return nil
}

func readAll(r io.Reader, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(r)
	if b == nil && err == nil {
		b = []byte{}
	}
	return b, err
}

package warc

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"

	gw "github.com/nlnwa/gowarc"
)

// MaxHTTPHeader bounds the HTTP status line and headers of a record that
// Scan reads.
const MaxHTTPHeader = 1 << 20

// ErrStop, returned by Scan's fn, ends the scan without an error.
var ErrStop = errors.New("warc: stop scanning")

// ErrTooLarge marks a wanted record whose block exceeds Scan's max.
var ErrTooLarge = errors.New("record too large")

// Scan reads the WARC file r record by record with gowarc and never holds
// a record's block in memory, so memory stays bounded whatever the file
// holds (a small gzip can inflate to gigabytes). want is called with each
// record's WARC header fields (Type, ID, TargetURI, Date, Offset,
// ConcurrentTo, RefersTo, and Size, the block's declared length); a record it does
// not want is skipped unread (inflated and discarded). A wanted record
// whose Size exceeds max is skipped and its error (ErrTooLarge) joined to
// the result. Any other wanted record is streamed through its digests
// (WARC-Block-Digest, and WARC-Payload-Digest for an HTTP response) and
// passed to fn with, for an HTTP response, its Status and Header (at most
// MaxHTTPHeader bytes) and PayloadSHA256; Payload stays nil. A record
// whose digests do not match is not passed; its error (errors.Is
// ErrDigest) is joined to the result. fn returning ErrStop ends the scan
// cleanly; any other error of fn ends it with that error.
func Scan(r io.Reader, max int64, want func(Record) bool, fn func(Record) error) error {
	return scan(newStreamReader(r, gw.WithSpecViolationPolicy(gw.ErrIgnore)), max, want, fn)
}

// Verify streams the WARC file r as Scan does with every record wanted
// and none too large, and also reports what gowarc finds wrong with a
// record beyond its digests, as Read does: it is Read for files of any
// size (check). Each record passed to fn has, besides Scan's fields, the
// PayloadSHA256 of a resource record (its block) and the RefersToURI,
// RefersToDate and PayloadDigest of a revisit.
func Verify(r io.Reader, fn func(Record) error) error {
	return scan(newStreamReader(r, gw.WithSpecViolationPolicy(gw.ErrWarn)), math.MaxInt64, func(Record) bool { return true }, fn)
}

// scan is Scan and Verify over rd.
func scan(rd *fileReader, max int64, want func(Record) bool, fn func(Record) error) error {
	defer rd.Close()
	var errs []error
	for {
		rec, off, v, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return errors.Join(errs...)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("warc: record at offset %d: %w", off, err))
			if rd.resumes() {
				continue
			}
			return errors.Join(errs...)
		}
		h := rec.WarcHeader()
		head := Record{Type: rec.Type().String(), ID: unbracket(rec.RecordId()), TargetURI: h.Get(gw.WarcTargetURI),
			Offset: off, ConcurrentTo: unbracket(h.Get(gw.WarcConcurrentTo)), RefersTo: unbracket(h.Get(gw.WarcRefersTo))}
		head.Date, _ = rec.Date()
		head.Size, _ = strconv.ParseInt(h.Get(gw.ContentLength), 10, 64)
		if rec.Type() == gw.Revisit {
			head.RefersToURI, head.RefersToDate = h.Get(gw.WarcRefersToTargetURI), h.Get(gw.WarcRefersToDate)
			head.PayloadDigest = h.Get(gw.WarcPayloadDigest)
		}
		if !want(head) {
			continue // Next discards the block
		}
		if head.Size > max {
			errs = append(errs, fmt.Errorf("warc: record %s at offset %d: %d bytes, more than %d: %w", head.ID, off,
				head.Size, max, ErrTooLarge))
			continue
		}
		got, err := streamRecord(rec, head)
		if err == nil && v != nil && !v.Valid() { // what gowarc found beyond the digests (Verify)
			err = fmt.Errorf("gowarc: %s", strings.Join(strings.Fields(v.String()), " "))
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("warc: record %s at offset %d: %w", head.ID, off, err))
			continue
		}
		if err := fn(got); errors.Is(err, ErrStop) {
			return errors.Join(errs...)
		} else if err != nil {
			return err
		}
	}
}

// newStreamReader returns a reader of r (headers bounded: guard.go) that
// leaves every block unparsed and unread until asked (no caching, no
// digest check of its own: streamRecord checks the digests).
// spec is the policy for what the WARC standard forbids beyond syntax:
// ignored (Scan) or reported (Verify).
func newStreamReader(r io.Reader, spec gw.WarcRecordOption) *fileReader {
	return newFileReader(r,
		gw.WithSyntaxErrorPolicy(gw.ErrFail), spec, gw.WithSkipParseBlock(),
		gw.WithFixDigest(false), gw.WithFixContentLength(false), gw.WithFixSyntaxErrors(false))
}

// streamRecord reads the block of rec once, hashing it, and for an HTTP
// response (Content-Type application/http) its status, headers and the
// payload's sha256.
func streamRecord(rec gw.WarcRecord, head Record) (Record, error) {
	raw, err := rec.Block().RawBytes()
	if err != nil {
		return head, err
	}
	h := rec.WarcHeader()
	blockSum := sha256.New()
	body := io.TeeReader(raw, blockSum)
	var payloadSum hash.Hash
	if strings.HasPrefix(strings.ToLower(h.Get(gw.ContentType)), "application/http") && head.Type == "response" {
		lim := &io.LimitedReader{R: body, N: MaxHTTPHeader}
		br := bufio.NewReader(lim)
		if head.Status, head.Header, err = readHTTPHead(br); err != nil {
			return head, fmt.Errorf("HTTP header: %w", err)
		}
		lim.N = math.MaxInt64
		payloadSum = sha256.New()
		if _, err := io.Copy(payloadSum, br); err != nil {
			return head, err
		}
	} else if _, err := io.Copy(io.Discard, body); err != nil {
		return head, err
	}
	if head.Type == "resource" { // the block is the payload
		head.PayloadSHA256 = hex.EncodeToString(blockSum.Sum(nil))
	}
	err = checkSum("WARC-Block-Digest", h.Get(gw.WarcBlockDigest), blockSum)
	if payloadSum != nil {
		head.PayloadSHA256 = hex.EncodeToString(payloadSum.Sum(nil))
		err = errors.Join(err, checkSum("WARC-Payload-Digest", h.Get(gw.WarcPayloadDigest), payloadSum))
	}
	return head, err
}

// readHTTPHead reads an HTTP response's status line and headers.
func readHTTPHead(br *bufio.Reader) (int, http.Header, error) {
	tp := textproto.NewReader(br)
	line, err := tp.ReadLine()
	if err != nil {
		return 0, nil, err
	}
	f := strings.Fields(line)
	if len(f) < 2 || !strings.HasPrefix(f[0], "HTTP/") {
		return 0, nil, fmt.Errorf("status line %q", line)
	}
	status, err := strconv.Atoi(f[1])
	if err != nil {
		return 0, nil, fmt.Errorf("status line %q", line)
	}
	mh, err := tp.ReadMIMEHeader()
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, nil, err
	}
	return status, http.Header(mh), nil
}

// checkSum compares a "sha256:<hex>" digest field with a hash's sum.
func checkSum(field, want string, h hash.Hash) error {
	if want == "" {
		return nil
	}
	alg, val, _ := strings.Cut(want, ":")
	if !strings.EqualFold(alg, "sha256") || len(val) != 64 {
		return fmt.Errorf("%s %q: want sha256 in hex", field, want)
	}
	if got := hex.EncodeToString(h.Sum(nil)); !strings.EqualFold(got, val) {
		return fmt.Errorf("%s %s, content has sha256:%s: %w", field, want, got, ErrDigest)
	}
	return nil
}

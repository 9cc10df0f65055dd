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
// ConcurrentTo, and Size, the block's declared length); a record it does
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
	rd, err := newStreamReader(r)
	if err != nil {
		return fmt.Errorf("warc: %w", err)
	}
	defer rd.Close()
	var errs []error
	for {
		rec, off, _, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return errors.Join(errs...)
		}
		if err != nil {
			return errors.Join(append(errs, fmt.Errorf("warc: record at offset %d: %w", off, err))...)
		}
		h := rec.WarcHeader()
		head := Record{Type: rec.Type().String(), ID: unbracket(rec.RecordId()), TargetURI: h.Get(gw.WarcTargetURI),
			Offset: off, ConcurrentTo: unbracket(h.Get(gw.WarcConcurrentTo))}
		head.Date, _ = rec.Date()
		head.Size, _ = strconv.ParseInt(h.Get(gw.ContentLength), 10, 64)
		if !want(head) {
			continue // Next discards the block
		}
		if head.Size > max {
			errs = append(errs, fmt.Errorf("warc: record %s at offset %d: %d bytes, more than %d: %w", head.ID, off,
				head.Size, max, ErrTooLarge))
			continue
		}
		got, err := streamRecord(rec, head)
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

// newStreamReader returns a gowarc reader of r that leaves every block
// unparsed and unread until asked (no caching, no digest check of its
// own: streamRecord checks the digests).
func newStreamReader(r io.Reader) (*gw.WarcFileReader, error) {
	optionsMu.Lock() // see writer.go
	defer optionsMu.Unlock()
	return gw.NewWarcFileReaderFromStream(r, 0,
		gw.WithSyntaxErrorPolicy(gw.ErrFail), gw.WithSpecViolationPolicy(gw.ErrIgnore), gw.WithSkipParseBlock(),
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

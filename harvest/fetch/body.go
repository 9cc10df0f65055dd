package fetch

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/blogharvest/blogharvest"
)

// acceptEncoding is what the client offers; it decodes these itself so the
// size cap applies to the decoded bytes.
const acceptEncoding = "gzip, deflate, br"

// readBody reads r, decoded per the Content-Encoding list enc, keeping at
// most max decoded bytes. A longer body is a *TooLargeError. size is the
// body's announced length (Content-Length), -1 when unknown.
func readBody(r io.Reader, enc, u string, max, size int64) ([]byte, error) {
	r, err := decoder(&capReader{r: r, left: max}, enc) // the encoded form is capped too
	if errors.Is(err, errRawTooLarge) {
		return nil, blogharvest.Permanent(&TooLargeError{URL: u, Limit: max})
	}
	if err != nil {
		return nil, blogharvest.Permanent(fmt.Errorf("fetch %s: %w", u, err))
	}
	if !identity(enc) || size > max {
		size = -1 // the announced length is not that of the decoded body, or it is over the cap
	}
	b, err := readAll(io.LimitReader(r, max+1), size)
	if int64(len(b)) > max || errors.Is(err, errRawTooLarge) {
		return nil, blogharvest.Permanent(&TooLargeError{URL: u, Limit: max})
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}

// bodyBuffers are the buffers readAll reads bodies into.
var bodyBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer is the largest buffer readAll keeps for the next body.
const maxPooledBuffer = 4 << 20

// maxPresized is the largest announced length readAll trusts to size the
// body before reading it (a server may announce more than it sends); a
// longer one is trusted once that many bytes have come.
const maxPresized = 1 << 20

// readAll is io.ReadAll that allocates the body once: at its announced
// size (size >= 0; past maxPresized only once the first maxPresized bytes
// have come, readSized), else by growing a pooled buffer and copying the
// body out at its size, instead of growing a new slice for every body.
func readAll(r io.Reader, size int64) ([]byte, error) {
	if size >= 0 {
		return readSized(r, size)
	}
	buf := bodyBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	_, err := buf.ReadFrom(r)
	b := append(make([]byte, 0, buf.Len()), buf.Bytes()...)
	if buf.Cap() <= maxPooledBuffer {
		bodyBuffers.Put(buf)
	}
	return b, err
}

// readSized reads r into a slice with room for size bytes and the end of
// the body, growing it only if the body is longer. An announced size over
// maxPresized is trusted once the body has sent that much: the slice
// starts at maxPresized and grows once, to the announced size, when it is
// full (a 2.5 MB feed was read into a buffer grown by doubling from
// nothing, zeroed at each step, then copied out).
func readSized(r io.Reader, size int64) ([]byte, error) {
	b := make([]byte, 0, min(size, maxPresized)+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			if int64(cap(b)) < size+1 {
				b = append(make([]byte, 0, size+1), b...)
			} else {
				b = append(b, 0)[:len(b)]
			}
		}
	}
}

// identity reports whether the Content-Encoding list enc leaves the body
// as it is.
func identity(enc string) bool {
	for enc != "" {
		var c string
		c, enc, _ = strings.Cut(enc, ",")
		if c = strings.TrimSpace(c); c != "" && !strings.EqualFold(c, "identity") {
			return false
		}
	}
	return true
}

// decoder wraps r in decoders for the comma-separated codings of enc, last
// applied first.
func decoder(r io.Reader, enc string) (io.Reader, error) {
	codings := strings.Split(enc, ",")
	for i := len(codings) - 1; i >= 0; i-- {
		var err error
		if r, err = decodeOne(r, strings.ToLower(strings.TrimSpace(codings[i]))); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func decodeOne(r io.Reader, coding string) (io.Reader, error) {
	switch coding {
	case "", "identity":
		return r, nil
	case "gzip", "x-gzip":
		z, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("gzip body: %w", err)
		}
		return z, nil
	case "deflate":
		return inflate(r)
	case "br":
		return brotli.NewReader(r), nil
	}
	return nil, fmt.Errorf("unsupported content-encoding %q", coding)
}

// inflate reads "deflate", which servers send either zlib-wrapped (as the
// RFC says) or raw.
func inflate(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	head, _ := br.Peek(2)
	if len(head) == 2 && head[0]&0x0f == 8 && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 {
		z, err := zlib.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("deflate body: %w", err)
		}
		return z, nil
	}
	return flate.NewReader(br), nil
}

// idleReader cancels a request when no byte arrives for idle.
type idleReader struct {
	r     io.Reader
	idle  time.Duration
	timer *time.Timer
}

// Read reads from the body, restarting the idle timer around each read.
func (ir *idleReader) Read(p []byte) (int, error) {
	ir.timer.Reset(ir.idle)
	n, err := ir.r.Read(p)
	if n > 0 {
		ir.timer.Reset(ir.idle)
	}
	return n, err
}

// rateReader fails a body that arrives slower than min bytes per second,
// averaged over each window (the first ends one window after the start).
type rateReader struct {
	r      io.Reader
	url    string
	min    int64
	window time.Duration
	start  time.Time // of the current window
	n      int64     // bytes read in it
}

func newRateReader(r io.Reader, u string, min int64, window time.Duration) *rateReader {
	return &rateReader{r: r, url: u, min: min, window: window, start: time.Now()}
}

// Read reads from the body and checks the rate whenever a window is over.
func (rr *rateReader) Read(p []byte) (int, error) {
	n, err := rr.r.Read(p)
	rr.n += int64(n)
	if el := time.Since(rr.start); el >= rr.window && err == nil {
		if float64(rr.n) < float64(rr.min)*el.Seconds() {
			return n, blogharvest.Transient(&SlowTransferError{URL: rr.url, Bytes: rr.n, Window: el, MinRate: rr.min})
		}
		rr.start, rr.n = time.Now(), 0
	}
	return n, err
}

// errRawTooLarge ends a body whose encoded form exceeds the cap.
var errRawTooLarge = errors.New("encoded body too large")

// capReader fails with errRawTooLarge once more than left bytes are read.
type capReader struct {
	r    io.Reader
	left int64
}

// Read reads from the underlying body, failing past the cap.
func (c *capReader) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, errRawTooLarge
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return n, errRawTooLarge
	}
	return n, err
}

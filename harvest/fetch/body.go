package fetch

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/blogharvest/blogharvest"
)

// acceptEncoding is what the client offers; it decodes these itself so the
// size cap applies to the decoded bytes.
const acceptEncoding = "gzip, deflate, br"

// readBody reads r, decoded per the Content-Encoding list enc, keeping at
// most max decoded bytes. A longer body is a *TooLargeError.
func readBody(r io.Reader, enc, u string, max int64) ([]byte, error) {
	r = io.LimitReader(r, max+1) // the encoded form is capped too
	r, err := decoder(r, enc)
	if err != nil {
		return nil, blogharvest.Permanent(fmt.Errorf("fetch %s: %w", u, err))
	}
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if int64(len(b)) > max {
		return nil, blogharvest.Permanent(&TooLargeError{URL: u, Limit: max})
	}
	if err != nil {
		return nil, err
	}
	return b, nil
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

func (ir *idleReader) Read(p []byte) (int, error) {
	ir.timer.Reset(ir.idle)
	n, err := ir.r.Read(p)
	if n > 0 {
		ir.timer.Reset(ir.idle)
	}
	return n, err
}

// errIdle marks the cancellation cause of an idle read.
var errIdle = errors.New("idle read")

package warc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
	gw "github.com/nlnwa/gowarc"
)

// MaxHeader bounds what every reader of this package (Read, ReadAt, Scan)
// reads of a record before its block: the WARC header (version line and
// fields, up to the blank line), and for a block of Content-Type
// application/http the HTTP status line and headers at its start. It is
// above what a crawl can write (Go's HTTP client refuses response headers
// over 10 MiB) and keeps a reader's memory bounded whatever a WARC holds:
// gowarc reads header lines whole, so a 1 GiB line in a 1 MB gzip member
// took gigabytes.
const MaxHeader = 16 << 20

// ErrHeaderTooLarge marks a record whose WARC or HTTP header exceeds
// MaxHeader; the error names the record's offset.
var ErrHeaderTooLarge = errors.New("header too large")

// fileReader reads a WARC file record by record with gowarc, but
// inflates the gzip members itself and hands gowarc each member's bytes
// through a guard that bounds the headers (MaxHeader): gowarc's own
// reader reads a header line of any length into memory.
type fileReader struct {
	cnt       *countingReader
	src       *bufio.Reader // over cnt
	gz        *gzip.Reader
	u         gw.Unmarshaler
	member    *bufio.Reader // the inflated member (or the plain file) through g
	g         *guard
	memberOff int64 // offset of the member in the file
	plain     bool  // the file is not gzipped: offsets are the guard's
	cur       gw.WarcRecord
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// newFileReader returns a reader of the WARC file r whose records gowarc
// parses with opts.
func newFileReader(r io.Reader, opts ...gw.WarcRecordOption) *fileReader {
	optionsMu.Lock() // see writer.go
	defer optionsMu.Unlock()
	cnt := &countingReader{r: r}
	return &fileReader{cnt: cnt, src: bufio.NewReaderSize(cnt, 64<<10), u: gw.NewUnmarshaler(opts...)}
}

// Next returns the next record and its offset (of its gzip member, or of
// its first byte in a file not gzipped), closing the one before; io.EOF at
// the end of the file.
func (f *fileReader) Next() (gw.WarcRecord, int64, *gw.Validation, error) {
	if f.cur != nil {
		err := f.cur.Close()
		f.cur = nil
		if err != nil && !f.resumes() {
			return nil, f.offset(), nil, err
		}
	}
	if f.resumes() { // the rest of the member inflated unread
		f.g, f.member = nil, nil
		if _, err := io.Copy(io.Discard, f.gz); err != nil {
			return nil, f.memberOff, nil, err
		}
	}
	for {
		if f.member != nil {
			if _, err := f.member.Peek(1); err == nil {
				off := f.offset()
				rec, _, v, err := f.u.Unmarshal(f.member)
				if err != nil {
					return nil, off, v, f.g.why(err)
				}
				f.cur = rec
				return rec, off, v, nil
			} else if !errors.Is(err, io.EOF) {
				return nil, f.memberOff, nil, f.g.why(err)
			}
			f.member = nil
		}
		off := f.cnt.n - int64(f.src.Buffered())
		magic, err := f.src.Peek(2)
		if len(magic) == 0 && errors.Is(err, io.EOF) {
			return nil, off, nil, io.EOF
		}
		f.memberOff = off
		if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
			if f.gz == nil {
				f.gz, err = gzip.NewReader(f.src)
			} else {
				err = f.gz.Reset(f.src)
			}
			if err != nil {
				return nil, off, nil, err
			}
			f.gz.Multistream(false)
			f.g = &guard{r: f.gz}
		} else {
			f.plain = true
			f.g = &guard{r: f.src, pos: off}
		}
		f.member = bufio.NewReaderSize(f.g, 64<<10)
	}
}

// resumes reports whether the reader goes on after an error reading a
// record: when the guard stopped it (a header too large) inside a gzip
// member, the next call to Next inflates the rest of the member unread
// and goes on with the next one. In a file not gzipped there is no
// telling where the next record starts.
func (f *fileReader) resumes() bool { return !f.plain && f.g != nil && f.g.err != nil }

// offset returns the offset of the record about to be read in the
// current member.
func (f *fileReader) offset() int64 {
	if f.plain && len(f.g.starts) > 0 {
		off := f.g.starts[0]
		f.g.starts = f.g.starts[1:]
		return off
	}
	return f.memberOff
}

// Close closes the record being read.
func (f *fileReader) Close() error {
	if f.cur != nil {
		err := f.cur.Close()
		f.cur = nil
		return err
	}
	return nil
}

// guard states.
const (
	inWARCHeader = iota
	inHTTPHeader
	inBlock
)

// guard passes a stream of WARC records through unchanged, following
// where each record's WARC header, HTTP header and block are, and fails
// once a header is longer than MaxHeader or a record does not start with
// "WARC/".
type guard struct {
	r      io.Reader
	pos    int64 // bytes passed so far (from the file's start when plain)
	state  int
	n      int    // bytes of the current header so far
	inLine bool   // the current header line has a byte other than CR
	line   []byte // the WARC header's current line, up to maxFieldLine bytes
	length int64  // the WARC header's Content-Length so far
	http   bool   // its Content-Type is application/http
	left   int64  // bytes of the block still to come
	starts []int64
	err    error
}

// Read implements io.Reader.
func (g *guard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.r.Read(p)
	for i := 0; i < n; {
		if g.state == inBlock {
			k := int(min(g.left, int64(n-i)))
			i += k
			g.left -= int64(k)
			g.pos += int64(k)
			if g.left == 0 {
				g.state, g.n = inWARCHeader, 0
			}
			continue
		}
		if gerr := g.header(p[i]); gerr != nil {
			g.err = gerr
			return i, gerr
		}
		i++
		g.pos++
	}
	return n, err
}

// header follows one byte of a WARC or HTTP header.
func (g *guard) header(c byte) error {
	if g.state == inWARCHeader {
		if g.n == 0 && (c == '\r' || c == '\n') { // the end of the record before
			return nil
		}
		if g.n == 0 {
			g.starts = append(g.starts, g.pos)
			g.line, g.length, g.http = g.line[:0], 0, false
		}
		if g.n < len("WARC/") && c != "WARC/"[g.n] {
			return fmt.Errorf("no WARC record here (%q)", append(g.line, c))
		}
		if len(g.line) < maxFieldLine {
			g.line = append(g.line, c)
		}
		if c == '\n' {
			g.field()
		}
	} else if g.left--; g.left == 0 { // the block ends inside the HTTP header
		g.state, g.n = inWARCHeader, 0
		return nil
	}
	if g.n++; g.n > MaxHeader {
		what := "WARC"
		if g.state == inHTTPHeader {
			what = "HTTP"
		}
		return fmt.Errorf("%s header longer than %d bytes: %w", what, MaxHeader, ErrHeaderTooLarge)
	}
	switch {
	case c == '\n' && !g.inLine:
		g.endHeader()
	case c == '\n':
		g.inLine = false
	case c != '\r':
		g.inLine = true
	}
	return nil
}

// endHeader moves past a header's blank line: from the WARC header to the
// HTTP header of an application/http block or to the block, from the HTTP
// header to the rest of the block.
func (g *guard) endHeader() {
	g.n = 0
	if g.state == inHTTPHeader {
		g.state = inBlock
		return
	}
	g.left = max(g.length, 0)
	switch {
	case g.left == 0:
		g.state = inWARCHeader
	case g.http:
		g.state = inHTTPHeader
	default:
		g.state = inBlock
	}
}

// maxFieldLine is as much of a WARC header line as the guard keeps: the
// fields it reads (Content-Length, Content-Type) are short.
const maxFieldLine = 4 << 10

// field reads the WARC header line just ended, if it is Content-Length
// or Content-Type.
func (g *guard) field() {
	name, value, _ := strings.Cut(string(g.line), ":")
	value = strings.TrimSpace(value)
	switch {
	case strings.EqualFold(name, "Content-Length"):
		g.length, _ = strconv.ParseInt(value, 10, 64)
	case strings.EqualFold(name, "Content-Type"):
		g.http = strings.HasPrefix(strings.ToLower(value), "application/http")
	}
	g.line = g.line[:0]
}

// why returns err, or the guard's own error when gowarc failed on it.
func (g *guard) why(err error) error {
	if g.err != nil && !errors.Is(err, g.err) {
		return g.err
	}
	return err
}

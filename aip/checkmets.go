package aip

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"io"

	"github.com/beevik/etree"
	"github.com/blogharvest/blogharvest/mets"
)

// eachSection streams the METS document r and calls fn with each section
// of its root (metsHdr, dmdSec, amdSec, fileSec, …) parsed on its own, as
// the one child of a copy of the root's start tag (so that its namespace
// prefixes resolve): memory is bounded by the largest section, not the
// document (a METS of 10 000 comments is 10 000 dmdSecs). The structMaps,
// which check reads nothing of beyond the schema validation, are skipped
// unparsed. r is read once, front to back (an S3 object: one GET): the
// bytes of the section being read are kept as the decoder takes them
// (recorder), not read again at an offset.
func eachSection(r io.Reader, fn func(sec *etree.Element)) error {
	rec := &recorder{r: bufio.NewReaderSize(r, 64<<10)}
	dec := xml.NewDecoder(rec)
	var rootStart []byte
	var rootEnd string
	for {
		off := dec.InputOffset()
		rec.forget(off)
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		t, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if rootStart == nil {
			rootStart = bytes.Clone(rec.bytes(off, dec.InputOffset()))
			name := bytes.TrimPrefix(rootStart, []byte("<"))
			if i := bytes.IndexAny(name, " \t\r\n/>"); i >= 0 {
				name = name[:i]
			}
			rootEnd = "</" + string(name) + ">"
			continue
		}
		if err := dec.Skip(); err != nil {
			return err
		}
		if t.Name.Space == mets.NSMETS && t.Name.Local == "structMap" {
			continue
		}
		raw := rec.bytes(off, dec.InputOffset())
		doc := etree.NewDocument()
		if err := doc.ReadFromBytes(append(append(append([]byte(nil), rootStart...), raw...), rootEnd...)); err != nil {
			return err
		}
		if kids := doc.Root().ChildElements(); len(kids) == 1 {
			fn(kids[0])
		}
	}
}

// recorder is the decoder's io.ByteReader (so the decoder reads through
// it byte by byte, its InputOffset counting the bytes read here) that
// keeps the bytes read since the offset last forgotten.
type recorder struct {
	r    *bufio.Reader
	buf  []byte
	base int64 // the offset of buf[0]
}

// ReadByte reads and keeps one byte.
func (c *recorder) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.buf = append(c.buf, b)
	}
	return b, err
}

// Read reads and keeps p's bytes (the decoder uses ReadByte).
func (c *recorder) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.buf = append(c.buf, p[:n]...)
	return n, err
}

// forget drops the bytes before offset off.
func (c *recorder) forget(off int64) {
	if d := off - c.base; d > 0 && d <= int64(len(c.buf)) {
		c.buf = append(c.buf[:0], c.buf[d:]...)
		c.base = off
	}
}

// bytes returns the bytes kept from offset from to offset to (valid until
// the next forget).
func (c *recorder) bytes(from, to int64) []byte {
	return c.buf[from-c.base : to-c.base]
}

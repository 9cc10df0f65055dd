package aip

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/beevik/etree"
	"github.com/blogharvest/blogharvest/mets"
)

// eachSection streams the METS document f and calls fn with each section
// of its root (metsHdr, dmdSec, amdSec, fileSec, …) parsed on its own, as
// the one child of a copy of the root's start tag (so that its namespace
// prefixes resolve): memory is bounded by the largest section, not the
// document (a METS of 10 000 comments is 10 000 dmdSecs). The structMaps,
// which check reads nothing of beyond the schema validation, are skipped
// unparsed.
func eachSection(f *os.File, fn func(sec *etree.Element)) error {
	dec := xml.NewDecoder(bufio.NewReaderSize(f, 64<<10))
	var rootStart []byte
	var rootEnd string
	for {
		off := dec.InputOffset()
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
			if rootStart, err = readAt(f, off, dec.InputOffset()); err != nil {
				return err
			}
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
		raw, err := readAt(f, off, dec.InputOffset())
		if err != nil {
			return err
		}
		doc := etree.NewDocument()
		if err := doc.ReadFromBytes(append(append(append([]byte(nil), rootStart...), raw...), rootEnd...)); err != nil {
			return err
		}
		if kids := doc.Root().ChildElements(); len(kids) == 1 {
			fn(kids[0])
		}
	}
}

// readAt returns the bytes of f from offset from to offset to.
func readAt(f *os.File, from, to int64) ([]byte, error) {
	buf := make([]byte, to-from)
	if _, err := f.ReadAt(buf, from); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	return buf, nil
}

package aip

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"path"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/blogharvest/blogharvest/internal/siegfried"
	"github.com/blogharvest/blogharvest/internal/siegfried/pkg/pronom"
	"github.com/blogharvest/blogharvest/internal/siegfried/pkg/static"
)

// format is what siegfried made of a payload file: a PRONOM identification.
type format struct {
	puid    string // e.g. "fmt/96"; empty when siegfried knows no format
	name    string // PRONOM format name, e.g. "Hypertext Markup Language"
	version string // PRONOM format version; may be empty
	basis   string // why siegfried chose it, or why it found nothing
}

// identifier is siegfried with the PRONOM signature file compiled into the
// binary (pkg/static): nothing is read from disk or the network. It is
// loaded at the first identification, once per process.
var identifier struct {
	once sync.Once
	sf   *siegfried.Siegfried
}

// SiegfriedVersion is the siegfried library the formats are identified
// with, named in the format identification events.
const SiegfriedVersion = "siegfried 1.11.2 (PRONOM signatures compiled in)"

// signatures names the signature files siegfried identifies with, e.g.
// "PRONOM: DROID_SignatureFile_V120.xml; container-signature-20240715.xml",
// or "" when identification is off or the signatures did not load.
func signatures() string {
	if identifyOff || identifier.sf == nil {
		return ""
	}
	var s string
	for _, id := range identifier.sf.Identifiers() {
		s = joinSep(s, id[0]+": "+id[1], "; ")
	}
	return s
}

// identifyOff turns identification off, for tests whose children cannot
// afford loading the signatures (see export_test.go).
var identifyOff bool

// identify returns the PRONOM format of the item's content. name (the
// file's name) lets siegfried use its extension when no signature decides.
// An empty file has no format; an error means the identification failed
// (the file is archived all the same, with a failed event).
func (it *item) identify() (format, error) {
	if identifyOff {
		return format{basis: "format identification turned off"}, nil
	}
	if it.size == 0 {
		return format{basis: "empty file"}, nil
	}
	if it.generated {
		return it.identifyGenerated()
	}
	if f, ok := it.lookupKnown(); ok {
		return f, nil
	}
	var f format
	var err error
	if off := it.html5Candidate(); off >= 0 {
		f, err = it.identifyHTML5(off)
	} else {
		f, err = it.siegfried()
	}
	if err == nil {
		it.remember(f)
	}
	return f, err
}

// generated holds, by file name extension, the identification of the
// files the packager writes itself (capture.log, fields.tsv, the WARC and
// its CDXJ index): their format is certain, fixed by the code that writes
// them, and siegfried decides it by extension and leading bytes only (e.g.
// "x-fmt/266 GZIP Format; extension match gz; byte match at 0, 3"), so the
// first file of each kind is identified and the others take its result
// without another scan (a WARC file is as large as everything it holds).
var generated struct {
	mu sync.Mutex
	m  map[string]format
}

// identifyGenerated identifies a file the packager wrote.
func (it *item) identifyGenerated() (format, error) {
	key := path.Ext(it.rel)
	generated.mu.Lock()
	f, ok := generated.m[key]
	generated.mu.Unlock()
	if ok {
		return f, nil
	}
	f, err := it.siegfried()
	if err != nil {
		return f, err
	}
	generated.mu.Lock()
	defer generated.mu.Unlock()
	if generated.m == nil {
		generated.m = map[string]format{}
	}
	generated.m[key] = f
	return f, nil
}

// siegfriedScans counts the files siegfried scanned, for tests.
var siegfriedScans atomic.Int64

// siegfried identifies the item's content with siegfried.
func (it *item) siegfried() (format, error) {
	siegfriedScans.Add(1)
	identifier.once.Do(func() { identifier.sf = static.New() })
	if identifier.sf == nil {
		return format{}, fmt.Errorf("siegfried: the compiled-in signature file does not load")
	}
	r, err := it.open()
	if err != nil {
		return format{}, err
	}
	defer r.Close()
	f, err := identifyReader(r, path.Base(it.rel))
	if err != nil {
		return format{}, fmt.Errorf("siegfried: %s: %w", it.rel, err)
	}
	if f.puid == gzipPUID && path.Dir(it.rel) == warcDir && strings.HasSuffix(it.rel, ".warc.gz") {
		return it.identifyWARC(f)
	}
	return f, nil
}

// open returns the item's content for reading: its file, or its bytes.
func (it *item) open() (io.ReadCloser, error) {
	if it.src != "" {
		return it.openSrc()
	}
	return io.NopCloser(bytes.NewReader(it.body)), nil
}

// identifyReader returns siegfried's PRONOM identification of r, a file
// called name.
func identifyReader(r io.Reader, name string) (format, error) {
	ids, err := identifier.sf.Identify(r, name, "")
	if err != nil {
		return format{}, err
	}
	for _, id := range ids {
		if p, ok := id.(pronom.Identification); ok {
			return pronomFormat(p), nil
		}
	}
	return format{basis: "no PRONOM identification"}, nil
}

// PRONOM identifiers of the package's WARC files: gzip, the container
// siegfried sees; WARC as PRONOM registers it (and DROID identifies it).
const (
	gzipPUID = "x-fmt/266"
	warcPUID = "fmt/1355"
)

// identifyWARC identifies the package's WARC file (gzip per record, which
// siegfried alone calls GZIP Format, outer) by its first record: when
// siegfried identifies the decompressed record as WARC, the file is the
// WARC format fmt/1355, the basis saying how it was found. Anything else
// keeps outer.
func (it *item) identifyWARC(outer format) (format, error) {
	r, err := it.open()
	if err != nil {
		return format{}, err
	}
	defer r.Close()
	zr, err := gzip.NewReader(r)
	if err != nil {
		return outer, nil
	}
	zr.Multistream(false) // the first record
	first, err := io.ReadAll(io.LimitReader(zr, 1<<20))
	if err != nil {
		return outer, nil
	}
	inner, err := identifyReader(bytes.NewReader(first), strings.TrimSuffix(path.Base(it.rel), ".gz"))
	if err != nil || inner.name != "WARC" {
		return outer, nil
	}
	return format{puid: warcPUID, name: "WARC", version: inner.version,
		basis: fmt.Sprintf("gzip container (%s: %s) of WARC records; its first record identified as WARC %s (%s: %s)",
			outer.puid, outer.basis, inner.version, inner.puid, inner.basis)}, nil
}

// pronomFormat turns a siegfried PRONOM identification into a format.
func pronomFormat(p pronom.Identification) format {
	f := format{name: p.Name, version: p.Version}
	if p.Known() {
		f.puid = p.ID
	}
	for _, b := range p.Basis {
		f.basis = joinSep(f.basis, b, "; ")
	}
	if p.Warning != "" {
		f.basis = joinSep(f.basis, "warning: "+p.Warning, "; ")
	}
	return f
}

func joinSep(a, b, sep string) string {
	if a == "" {
		return b
	}
	return a + sep + b
}

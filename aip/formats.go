package aip

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"sync"

	"github.com/richardlehane/siegfried"
	"github.com/richardlehane/siegfried/pkg/pronom"
	"github.com/richardlehane/siegfried/pkg/static"
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
	return it.siegfried()
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

// siegfried identifies the item's content with siegfried.
func (it *item) siegfried() (format, error) {
	identifier.once.Do(func() { identifier.sf = static.New() })
	if identifier.sf == nil {
		return format{}, fmt.Errorf("siegfried: the compiled-in signature file does not load")
	}
	var r io.Reader = bytes.NewReader(it.body)
	if it.src != "" {
		f, err := os.Open(it.src)
		if err != nil {
			return format{}, err
		}
		defer f.Close()
		r = f
	}
	ids, err := identifier.sf.Identify(r, path.Base(it.rel), "")
	if err != nil {
		return format{}, fmt.Errorf("siegfried: %s: %w", it.rel, err)
	}
	for _, id := range ids {
		if p, ok := id.(pronom.Identification); ok {
			return pronomFormat(p), nil
		}
	}
	return format{basis: "no PRONOM identification"}, nil
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

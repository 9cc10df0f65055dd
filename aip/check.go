package aip

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/beevik/etree"
	"github.com/blogharvest/blogharvest/marc"
	"github.com/blogharvest/blogharvest/mets"
	"github.com/blogharvest/blogharvest/schemas"
)

// Check verifies a bag, or every bag below a folder (a whole archive), and
// returns every problem found; nil means all is well. Each bag gets the
// BagIt checks of CheckBag; a bag holding data/METS.xml is an AIP and also
// gets its METS validated against the schemas, its MARC records linted, and
// every METS file reference resolved and compared (size, SHA-256) with the
// payload. In an archive, a v<N> folder that is not a bag is a problem; the
// .tmp folder is skipped. Problems are typed: *ChecksumError, *MissingError,
// *ExtraError, *OxumError, *FormatError, *SchemaError, *LintError,
// *FileRefError, *NotBagError.
func Check(path string) []error {
	info, err := os.Stat(path)
	if err != nil {
		return []error{fmt.Errorf("check: %w", err)}
	}
	if !info.IsDir() {
		return []error{&NotBagError{Path: path}}
	}
	if isBag(path) {
		return checkAIP(path)
	}
	var errs []error
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			errs = append(errs, err)
			return nil
		case !d.IsDir():
			return nil
		case d.Name() == TmpDir && p != path:
			return filepath.SkipDir
		case isBag(p):
			errs = append(errs, checkAIP(p)...)
			return filepath.SkipDir
		}
		if _, ok := versionNumber(d.Name()); ok {
			errs = append(errs, &NotBagError{Path: p})
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	return errs
}

// isBag reports whether dir holds a bagit.txt or, for a bag that lost it,
// a payload manifest.
func isBag(dir string) bool {
	if _, err := os.Lstat(filepath.Join(dir, bagitTxt)); err == nil {
		return true
	}
	m, _ := filepath.Glob(filepath.Join(dir, "manifest-*.txt"))
	return len(m) > 0
}

// checkAIP checks dir as a bag and, when it holds data/METS.xml, as an AIP.
func checkAIP(dir string) []error {
	b, ok := checkBag(dir)
	if !ok {
		return b.errs
	}
	metsPath := filepath.Join(dir, "data", metsName)
	data, err := os.ReadFile(metsPath)
	if errors.Is(err, fs.ErrNotExist) {
		return b.errs
	}
	if err != nil {
		return append(b.errs, &FormatError{Path: metsPath, Reason: err.Error()})
	}
	for _, p := range schemas.Validate(data) {
		b.errs = append(b.errs, &SchemaError{Path: metsPath, Problem: p})
	}
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(data); err != nil {
		return b.errs // already reported by the schema check
	}
	b.checkFileRefs(metsPath, doc)
	b.lintRecords(metsPath, doc)
	return b.errs
}

// checkFileRefs resolves every mets:file against the payload, and reports
// payload files (METS.xml aside) that no mets:file describes.
func (b *bag) checkFileRefs(metsPath string, doc *etree.Document) {
	described := map[string]bool{"data/" + metsName: true}
	for _, f := range doc.FindElements("//file") {
		if f.NamespaceURI() != mets.NSMETS {
			continue
		}
		id := f.SelectAttrValue("ID", "")
		loc := f.SelectElement("FLocat")
		if loc == nil {
			b.refFail(metsPath, id, "", "no FLocat")
			continue
		}
		href := loc.SelectAttrValue("xlink:href", "")
		if rel, err := safePath(href); err == nil {
			described["data/"+rel] = true
		}
		b.checkFileRef(metsPath, id, f, href)
	}
	for _, p := range sortedKeys(b.payload) {
		if !described[p] {
			b.refFail(metsPath, "", p, "payload file not described in the METS fileSec")
		}
	}
}

// checkFileRef checks one file's href, size and checksum.
func (b *bag) checkFileRef(metsPath, id string, f *etree.Element, href string) {
	rel, err := safePath(href)
	if err != nil {
		b.refFail(metsPath, id, href, err.Error())
		return
	}
	p := "data/" + rel
	size, ok := b.payload[p]
	if !ok {
		b.refFail(metsPath, id, href, "no such file in the payload")
		return
	}
	if s := f.SelectAttrValue("SIZE", ""); s != "" && s != strconv.FormatInt(size, 10) {
		b.refFail(metsPath, id, href, fmt.Sprintf("SIZE %s, file has %d bytes", s, size))
	}
	want := f.SelectAttrValue("CHECKSUM", "")
	if want == "" || f.SelectAttrValue("CHECKSUMTYPE", "") != "SHA-256" {
		return
	}
	got := b.sums[p]["sha256"]
	if got == "" {
		got = b.hashFile(p, []string{"sha256"})["sha256"]
	}
	if got != want {
		b.refFail(metsPath, id, href, fmt.Sprintf("CHECKSUM %s, file has SHA-256 %s", want, got))
	}
}

func (b *bag) refFail(metsPath, id, href, reason string) {
	b.errs = append(b.errs, &FileRefError{Path: metsPath, FileID: id, Href: href, Reason: reason})
}

// lintRecords lints every MARC record of the document's dmdSecs.
func (b *bag) lintRecords(metsPath string, doc *etree.Document) {
	for _, sec := range doc.FindElements("//dmdSec") {
		wrap := sec.SelectElement("mdWrap")
		if wrap == nil || wrap.SelectAttrValue("MDTYPE", "") != "MARC" || wrap.SelectElement("xmlData") == nil {
			continue
		}
		id := sec.SelectAttrValue("ID", "")
		for _, rec := range wrap.SelectElement("xmlData").ChildElements() {
			b.lintRecord(metsPath, id, rec)
		}
	}
}

// lintRecord parses one embedded MARCXML record and lints it.
func (b *bag) lintRecord(metsPath, id string, rec *etree.Element) {
	d := etree.NewDocument()
	el := rec.Copy()
	if el.Space != "" {
		el.CreateAttr("xmlns:"+el.Space, rec.NamespaceURI())
	}
	d.SetRoot(el)
	data, err := d.WriteToBytes()
	if err == nil {
		var r *marc.Record
		if r, err = marc.ParseMARCXML(data); err == nil {
			for _, p := range marc.Lint(r) {
				b.errs = append(b.errs, &LintError{Path: metsPath, DmdID: id, Problem: p})
			}
			return
		}
	}
	b.errs = append(b.errs, &FormatError{Path: metsPath, Reason: fmt.Sprintf("dmdSec %s: %v", id, err)})
}

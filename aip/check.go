package aip

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/beevik/etree"
	"github.com/blogharvest/blogharvest/marc"
	"github.com/blogharvest/blogharvest/mets"
	"github.com/blogharvest/blogharvest/schemas"
)

// Check verifies a bag, or every bag below a folder (a whole archive), and
// returns every problem found; nil means all is well. Each bag gets the
// BagIt checks of CheckBag. Every bag of an archive is an AIP, and so is a
// bag given alone that looks like one (a v<N> folder, or one holding
// data/METS.xml or a Content-Digest): an AIP must hold data/METS.xml,
// bag-info.txt, manifest-sha256.txt and tagmanifest-sha256.txt, each tag
// manifest must list every other tag file, its METS is validated against the
// schemas, its MARC records linted, and every METS file reference resolved
// and compared (size, SHA-256) with the payload. In an archive, a v<N>
// folder that is not a bag is a problem; the .tmp folder is skipped.
// Symbolic links are never followed: one given as path, in an archive or in
// a bag is a problem. Problems are typed: *ChecksumError, *MissingError,
// *ExtraError, *OxumError, *FormatError, *SchemaError, *LintError,
// *FileRefError, *NotBagError, *SymlinkError, and *DuplicateError for
// bags of an archive that claim one identifier (two bags with one
// Internal-Sender-Identifier, one entry's versions in two folders).
func Check(path string) []error {
	_, errs := CheckTally(path, nil)
	return errs
}

// CheckTally is Check that also counts what it verified: the bags, their
// versions and their payload files and bytes (Tally). bag, if not nil, is
// called after each bag checked with its folder and the count so far.
func CheckTally(path string, bag func(dir string, t Tally)) (Tally, []error) {
	var t Tally
	info, err := os.Lstat(path)
	switch {
	case err != nil:
		return t, []error{fmt.Errorf("check: %w", err)}
	case info.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(path)
		return t, []error{&SymlinkError{Path: path, Target: target}}
	case !info.IsDir():
		return t, []error{&NotBagError{Path: path}}
	case isBag(folderFS(path)):
		return t, checkAIP(folderFS(path), folderAt(path), looksLikeAIP(path, folderFS(path)), func(payload map[string]int64) {
			t.add(path, payload)
			if bag != nil {
				bag(path, t)
			}
		})
	}
	// An archive: every bag below it, in place.
	var errs []error
	t, rest := checkLocalShare(context.Background(), path, ".", nil, func(b BagCheck, t Tally) {
		errs = append(errs, b.Problems...)
		if bag != nil {
			bag(filepath.Join(path, filepath.FromSlash(b.Name)), t)
		}
	})
	return t, append(errs, rest...)
}

// isBag reports whether the folder fsys holds a bagit.txt or, for a bag
// that lost it, a payload manifest.
func isBag(fsys fs.FS) bool {
	if _, err := fs.Stat(fsys, bagitTxt); err == nil {
		return true
	}
	m, _ := fs.Glob(fsys, "manifest-*.txt")
	return len(m) > 0
}

// looksLikeAIP reports whether a bag given alone, the folder dir read as
// fsys, is one of ours: a v<N> folder, or a bag with data/METS.xml or a
// Content-Digest in bag-info.txt.
func looksLikeAIP(dir string, fsys fs.FS) bool {
	if _, ok := versionNumber(filepath.Base(dir)); ok {
		return true
	}
	if _, err := fs.Stat(fsys, "data/"+metsName); err == nil {
		return true
	}
	d, err := readContentDigestFS(fsys, ".")
	return err == nil && d != ""
}

// aipTagFiles are the tag files every AIP holds (DESIGN §7).
var aipTagFiles = []string{bagInfoTxt, "manifest-sha256.txt", "tagmanifest-sha256.txt"}

// checkAIP checks the bag fsys (its names located by at) as a bag and,
// when it is an AIP, as an AIP; done is told of the payload it found.
func checkAIP(fsys fs.FS, at func(string) string, isAIP bool, done func(payload map[string]int64)) []error {
	b, ok := checkBag(fsys, at)
	defer func() { done(b.payload) }()
	if !ok || !isAIP {
		return b.errs
	}
	b.checkAIPTags()
	metsPath := at("data/" + metsName)
	f, err := b.open("data/" + metsName)
	if errors.Is(err, fs.ErrNotExist) {
		if !b.links["data/"+metsName] {
			b.errs = append(b.errs, &MissingError{Path: metsPath, Manifest: "the AIP layout"})
		}
		return b.errs
	}
	if err != nil {
		return append(b.errs, &FormatError{Path: metsPath, Reason: err.Error()})
	}
	// Streamed twice, never held whole: the schema validation (in parts
	// when large) and the sections one by one.
	problems := schemas.ValidateReader(f)
	f.Close()
	for _, p := range problems {
		b.errs = append(b.errs, &SchemaError{Path: metsPath, Problem: p})
	}
	if f, err = b.open("data/" + metsName); err != nil {
		return append(b.errs, &FormatError{Path: metsPath, Reason: err.Error()})
	}
	defer f.Close()
	var fileSecs []*etree.Element
	warcIDs := map[string]string{} // amdSec ID → the WARC-Record-ID its PREMIS object names
	err = eachSection(f, func(sec *etree.Element) {
		if sec.NamespaceURI() != mets.NSMETS {
			return
		}
		switch sec.Tag {
		case "dmdSec":
			b.lintSection(metsPath, sec)
		case "amdSec":
			if id := warcIDIn(sec); id != "" {
				warcIDs[sec.SelectAttrValue("ID", "")] = id
			}
		case "fileSec":
			fileSecs = append(fileSecs, sec)
		}
	})
	if err != nil && len(problems) == 0 {
		b.errs = append(b.errs, &FormatError{Path: metsPath, Reason: err.Error()})
	}
	if err != nil {
		return b.errs // not well-formed: reported by the schema check
	}
	b.checkFileRefs(metsPath, fileSecs)
	b.checkWARC(fileSecs, warcIDs)
	return b.errs
}

// checkAIPTags reports the tag files an AIP lacks, and tag files a tag
// manifest does not list.
func (b *bag) checkAIPTags() {
	for _, name := range aipTagFiles {
		if _, err := fs.Stat(b.fsys, name); errors.Is(err, fs.ErrNotExist) {
			b.errs = append(b.errs, &MissingError{Path: b.at(name), Manifest: "the AIP layout"})
		}
	}
	tags := []string{bagitTxt, bagInfoTxt}
	for m := range b.listed {
		if strings.HasPrefix(m, "manifest-") {
			tags = append(tags, m)
		}
	}
	for _, tm := range sortedKeys(b.listed) {
		if !strings.HasPrefix(tm, "tagmanifest-") {
			continue
		}
		for _, name := range tags {
			if _, ok := b.listed[tm][name]; !ok {
				b.fail(tm, 0, fmt.Sprintf("does not list the tag file %s", name))
			}
		}
	}
}

// checkFileRefs resolves every mets:file of the fileSecs against the
// payload, and reports payload files (METS.xml aside) that no mets:file
// describes.
func (b *bag) checkFileRefs(metsPath string, fileSecs []*etree.Element) {
	described := map[string]bool{"data/" + metsName: true}
	for _, f := range metsFiles(fileSecs) {
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

// lintSection lints the MARC records of a dmdSec.
func (b *bag) lintSection(metsPath string, sec *etree.Element) {
	wrap := sec.SelectElement("mdWrap")
	if wrap == nil || wrap.SelectAttrValue("MDTYPE", "") != "MARC" || wrap.SelectElement("xmlData") == nil {
		return
	}
	id := sec.SelectAttrValue("ID", "")
	for _, rec := range wrap.SelectElement("xmlData").ChildElements() {
		b.lintRecord(metsPath, id, rec)
	}
}

// metsFiles returns the mets:file elements of the fileSecs.
func metsFiles(fileSecs []*etree.Element) []*etree.Element {
	var out []*etree.Element
	for _, sec := range fileSecs {
		for _, f := range sec.FindElements(".//file") {
			if f.NamespaceURI() == mets.NSMETS {
				out = append(out, f)
			}
		}
	}
	return out
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

package aip_test

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/aip"
)

// TestCheckStoreMakesNoCopy checks an S3 archive's bags in place, through
// the store as an fs.FS: while CheckStore runs (counted after each bag)
// nothing is made under TMPDIR, where it copied each bag before (issue
// 41), and a flipped byte of a payload object is still found, named by
// its s3:// location. S3 only: a folder's bags were always read in place.
func TestCheckStoreMakesNoCopy(t *testing.T) {
	a := openArchive(t, "s3")
	res, err := a.W.WriteEntry(a.ctx, fixtureEntry())
	must(t, err)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	made := func() int {
		n := -1 // tmp itself
		filepath.WalkDir(tmp, func(string, fs.DirEntry, error) error { n++; return nil })
		return n
	}
	check := func() (aip.Tally, []error, int) {
		bags, most := 0, 0
		tally, errs := aip.CheckStore(a.ctx, a.St, func(string, aip.Tally) { bags, most = bags+1, max(most, made()) })
		if bags == 0 {
			t.Fatal("CheckStore checked no bag")
		}
		return tally, errs, max(most, made())
	}
	tally, errs, n := check()
	if len(errs) > 0 || tally.EntryVersions != 1 || tally.Files == 0 {
		t.Fatalf("sound archive: tally %+v, problems %v", tally, errs)
	}
	if n != 0 {
		t.Errorf("CheckStore made %d files or folders under TMPDIR; want none", n)
	}

	const mets = "data/METS.xml"
	a.edit(t, res.Dir, func(folder string) { flipFile(t, filepath.Join(folder, mets)) })
	_, errs, n = check()
	if n != 0 {
		t.Errorf("CheckStore of a tampered bag made %d files or folders under TMPDIR; want none", n)
	}
	found := false
	for _, err := range errs {
		var ce *aip.ChecksumError
		if errors.As(err, &ce) && ce.Path == res.Dir+"/"+mets && strings.HasPrefix(ce.Path, "s3://") {
			found = true
		}
	}
	if !found {
		t.Errorf("flipped %s: problems %v; want a ChecksumError at %s/%s", mets, errs, res.Dir, mets)
	}
}

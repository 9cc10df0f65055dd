package aip_test

import (
	"context"
	"path"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
)

// TestFieldsLog: an AIP keeps how each field of its records was obtained
// in data/logs/fields.tsv, listed in the METS; a change of method alone
// (or a record without any) makes no new version.
func TestFieldsLog(t *testing.T) {
	forEachBackend(t, testFieldsLog)
}

func testFieldsLog(t *testing.T, a *testArchive) {
	w, ctx := a.W, context.Background()
	r1, err := w.WriteEntry(ctx, fixtureEntry())
	if err != nil {
		t.Fatal(err)
	}
	data, err := a.read(r1.Dir, "data/logs/fields.tsv")
	if err != nil {
		t.Fatal(err)
	}
	entry := "garden/" + path.Base(path.Dir(a.name(r1.Dir)))
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	want := []string{aip.FieldsHeader,
		entry + "\tpost\tauthor\tfeed",
		entry + "\tpost\tdate_created\tstructured",
		entry + "\tpost\tfull_content\theuristic",
		entry + "\tpost\ttitle\trule"}
	if len(lines) != 7 || strings.Join(lines[:5], "\n") != strings.Join(want, "\n") {
		t.Fatalf("fields.tsv:\n%s\nwant it to start with\n%s\nand hold two comment lines", data, strings.Join(want, "\n"))
	}
	for _, l := range lines[5:] {
		if c := strings.Split(l, "\t"); len(c) != 4 || !strings.HasPrefix(c[0], entry+"/c-") || c[1] != "comment" {
			t.Errorf("comment line %q", l)
		}
	}
	mets, _ := a.read(r1.Dir, "data/METS.xml")
	if !strings.Contains(string(mets), `xlink:href="logs/fields.tsv"`) {
		t.Error("METS does not list logs/fields.tsv")
	}

	changed := fixtureEntry() // other methods, one field fewer: same content
	changed.Provenance.Set("title", blogharvest.MethodFeed)
	delete(changed.Provenance, "author")
	changed.Comments[0].Provenance = nil
	if r, err := w.WriteEntry(ctx, changed); err != nil || r.Written || r.Dir != r1.Dir {
		t.Errorf("a change of methods only: %+v, %v; want nothing written", r, err)
	}
	none := fixtureEntry()
	none.URL += "none/"
	none.Provenance, none.Comments = nil, nil
	r, err := w.WriteEntry(ctx, none)
	if err != nil {
		t.Fatal(err)
	}
	if a.exists(a.name(r.Dir) + "/data/logs/fields.tsv") {
		t.Error("a record without provenance has a fields.tsv")
	}
	for _, err := range a.check() {
		t.Error(err)
	}
}

package aip_test

import (
	"context"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
)

// TestBlogLedger writes a Blog record with a crawl ledger: it lands at
// data/logs/ledger.tsv, in the manifests and METS, and a ledger alone
// (another crawl of an unchanged blog) makes no new version.
func TestBlogLedger(t *testing.T) {
	forEachBackend(t, testBlogLedger)
}

func testBlogLedger(t *testing.T, a *testArchive) {
	w, ctx := a.W, context.Background()
	withLedger := func(body string) *blogharvest.Blog {
		b := fixtureBlog()
		f := blogharvest.File{Role: blogharvest.RoleLedger, MediaType: "text/tab-separated-values; charset=utf-8",
			Body: []byte(body), Captured: b.Captured}
		f.Sum()
		b.Files = append(b.Files, f)
		return b
	}
	const first = "url\tfate\tdetail\tvia\nhttps://blog.example/a/\tentry\ta-1234\tfeed\n"
	r1, err := w.WriteBlog(ctx, withLedger(first))
	if err != nil || !r1.Written {
		t.Fatalf("WriteBlog: %+v, %v", r1, err)
	}
	got, err := a.read(r1.Dir, "data/logs/ledger.tsv")
	if err != nil || string(got) != first {
		t.Fatalf("data/logs/ledger.tsv: %q, %v", got, err)
	}
	manifest, _ := a.read(r1.Dir, "manifest-sha256.txt")
	mets, _ := a.read(r1.Dir, "data/METS.xml")
	if !strings.Contains(string(manifest), "data/logs/ledger.tsv") || !strings.Contains(string(mets), "logs/ledger.tsv") {
		t.Error("the ledger is missing from the manifest or METS")
	}
	r2, err := w.WriteBlog(ctx, withLedger(first+"https://blog.example/b/\tstub\thttps://blog.example/a/\tlink\n"))
	if err != nil || r2.Written || r2.Version != 1 {
		t.Errorf("a new ledger alone: %+v, %v; want no new version", r2, err)
	}
	const completed = first + "https://blog.example/c/\tentry\tc-1234\tfeed\n"
	r3, err := w.WriteBlogAgain(ctx, withLedger(completed))
	if err != nil || !r3.Written || r3.Version != 2 {
		t.Fatalf("WriteBlogAgain of the same blog: %+v, %v; want version 2 written", r3, err)
	}
	if got, err := a.read(r3.Dir, "data/logs/ledger.tsv"); err != nil || string(got) != completed {
		t.Errorf("version 2's ledger: %q, %v; want the new one", got, err)
	}
	for _, err := range a.check() {
		t.Error(err)
	}
}

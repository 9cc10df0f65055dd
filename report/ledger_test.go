package report_test

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/report"
)

// TestCollectLedgerAgreesWithEntries is finding 3 of issue 37: the Blog
// AIP of an interrupted crawl lists posts over budget that the crawl
// completing it archived without a new Blog AIP; the report said "48
// entries" and "over-budget 10" on one page. Collect counts such a URL as
// an entry (ArchivedLater says how many, by the ledger's fate) and keeps
// a shortfall the archive does not hold.
func TestCollectLedgerAgreesWithEntries(t *testing.T) {
	root := t.TempDir()
	w := &aip.Writer{Root: root, Software: "blogharvest test"}
	defer w.Close()
	ctx := context.Background()
	post := func(n int) string { return fmt.Sprintf("https://b.example/p%d", n) }
	ledger := "url\tfate\tdetail\tvia\tcomments\n" + post(1) + "\tentry\t\tfeed\t\n" +
		post(2) + "\tover-budget\tcrawl stopped: context canceled\tfeed\t\n" + post(3) + "\tover-budget\tcrawl stopped: context canceled\tfeed\t\n"
	captured := time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC)
	f := blogharvest.File{Role: blogharvest.RoleLedger, MediaType: "text/tab-separated-values; charset=utf-8", Body: []byte(ledger), Captured: captured}
	f.Sum()
	b := &blogharvest.Blog{ID: "b", URL: "https://b.example/", Title: "B", Captured: captured, Files: []blogharvest.File{f}}
	if _, err := w.WriteBlog(ctx, b); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2} { // p2 archived by the crawl that completed; p3 never
		e := &blogharvest.Entry{BlogID: "b", Kind: blogharvest.KindPost, URL: post(n), Title: fmt.Sprint("Post ", n),
			Content: "<p>the quick brown fox jumps over the lazy dog and the cat</p>", ContentFormat: "text/html",
			Created: time.Date(2024, 1, n, 0, 0, 0, 0, time.UTC)}
		if _, err := w.WriteEntry(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	target, err := report.ResolveIn(&aip.Local{Root: root}, "b")
	if err != nil {
		t.Fatal(err)
	}
	s, err := report.Collect(ctx, target, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"entry": 2, "over-budget": 1}; !reflect.DeepEqual(s.Fates, want) || s.Entries != 2 {
		t.Errorf("fates %v with %d entries; want %v", s.Fates, s.Entries, want)
	}
	if want := map[string]int{"over-budget": 1}; !reflect.DeepEqual(s.ArchivedLater, want) {
		t.Errorf("archived later %v, want %v", s.ArchivedLater, want)
	}
	var page bytes.Buffer
	if err := s.WriteHTML(&page, captured, "test"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), `id="archived-later"`) {
		t.Error("the report does not say that the ledger's over-budget URL was archived later")
	}
}

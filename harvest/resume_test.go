package harvest_test

import (
	"maps"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest"
)

// TestStateFromKeepsAtomTwinDates: a WordPress RSS feed without
// modification dates and its Atom twin (/feed/atom/) that has them. The
// State rebuilt from the Blog record's captures (what the Blog AIP holds)
// has the items' signatures the crawl itself left, dated by the twin: an
// update that starts from the archive asks the twin as the daemon's would.
func TestStateFromKeepsAtomTwinDates(t *testing.T) {
	b := newTinyBlog(20)
	b.generator = "https://wordpress.org/?v=6.4.2"
	b.atomTwin = true
	srv := httptest.NewServer(b)
	defer srv.Close()
	res, out := crawl(t, options("tiny", srv.URL))
	if len(out.Blogs) != 1 {
		t.Fatalf("%d blog records", len(out.Blogs))
	}
	dated := 0
	for _, sig := range res.State.Items {
		if strings.HasPrefix(sig, "d:") {
			dated++
		}
	}
	if dated != b.feedSize {
		t.Fatalf("the crawl dated %d of %d items from the Atom twin", dated, b.feedSize)
	}
	st, ok := harvest.StateFrom(out.Blogs[0].Files, res.Rules)
	if !ok {
		t.Fatal("StateFrom: no state from the Blog record's files")
	}
	if !maps.Equal(st.Items, res.State.Items) {
		t.Errorf("items from the archive:\n%v\nthe crawl's:\n%v", st.Items, res.State.Items)
	}
}

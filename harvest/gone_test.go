package harvest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest"
)

// TestUpdateCrawlRecordsWithdrawal: a post of the feed's first page
// deleted from the blog (gone from the feed, 404 at its URL) is suspected
// by the update that reads the changed feed, recorded withdrawn by the
// next (a Blog record emitted, whose ledger has the row withdrawn, which
// harvest.RecordsWithdrawal sees), and not asked again by the update
// after that, which stops at the unchanged feed.
func TestUpdateCrawlRecordsWithdrawal(t *testing.T) {
	t.Parallel()
	log := &requestLog{}
	site, srv := serve(t, "static", log.Wrap)
	first := newestActivity(site).Add(24 * time.Hour)
	o := options("static", srv.URL)
	o.Now = func() time.Time { return first }
	res, _ := crawl(t, o)
	if len(res.State.Items) < 2 {
		t.Fatalf("the feed's first page lists %d items", len(res.State.Items))
	}
	site.KeepNewest(len(res.State.Items) - 1) // the oldest post of the first page, and older ones, deleted

	update := func(st harvest.State, since time.Time, at time.Duration) (*harvest.Result, *output) {
		t.Helper()
		log.Reset()
		o.State = st
		o.Now = func() time.Time { return first.Add(at) }
		out := &output{}
		r, err := harvest.UpdateCrawl(context.Background(), o, since, out.Emit)
		if err != nil {
			t.Fatal(err)
		}
		return r, out
	}
	res2, out2 := update(res.State, res.Watermark, time.Hour)
	if len(res2.State.Gone) != 1 {
		t.Fatalf("after the first update, State.Gone = %+v; want the one post of the first page deleted", res2.State.Gone)
	}
	var gone string
	for u, g := range res2.State.Gone {
		gone = u
		if g.FirstStatus != 404 || !g.Confirmed.IsZero() {
			t.Errorf("after one 404: %+v; want suspected, 404", g)
		}
	}
	if _, listed := res.State.Items[gone]; !listed {
		t.Errorf("%s suspected gone, but the feed's first page did not list it", gone)
	}
	for _, b := range out2.Blogs {
		if harvest.RecordsWithdrawal(b) {
			t.Errorf("the Blog record of the first update records a withdrawal")
		}
	}

	res3, out3 := update(res2.State, res2.Watermark, 2*time.Hour)
	if g := res3.State.Gone[gone]; g.Confirmed.IsZero() || g.Status != 404 {
		t.Errorf("after a 404 on two runs: %+v; want confirmed", g)
	}
	if len(out3.Blogs) != 1 || !harvest.RecordsWithdrawal(out3.Blogs[0]) {
		t.Errorf("the update that met the second 404 emitted %d Blog records; want one recording the withdrawal", len(out3.Blogs))
	}
	found := false
	for _, r := range res3.Ledger {
		if r.URL == gone {
			found = r.Fate == harvest.FateWithdrawn && strings.Contains(r.Detail, "HTTP 404")
			t.Logf("ledger: %s %s %s", r.URL, r.Fate, r.Detail)
		}
	}
	if !found {
		t.Errorf("no ledger row withdrawn for %s", gone)
	}

	res4, out4 := update(res3.State, res3.Watermark, 3*time.Hour)
	reqs := log.All()
	if len(reqs) > 2 || !res4.Unchanged || len(out4.Order) != 0 {
		t.Errorf("the update after the withdrawal: %d requests %q, %d records; want at most 2 requests, nothing emitted", len(reqs), reqs, len(out4.Order))
	}
	if g := res4.State.Gone[gone]; g.Confirmed.IsZero() {
		t.Errorf("the withdrawal was forgotten by an unchanged update: %+v", res4.State.Gone)
	}
}

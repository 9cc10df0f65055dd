package harvest_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// stallAfter serves h, but after n post pages (paths with "/post-") every
// further post page hangs until the client gives up: a blog that becomes
// endlessly slow mid-crawl.
func stallAfter(n int32, h http.Handler) http.Handler {
	var posts atomic.Int32
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/post-") && posts.Add(1) > n {
			<-r.Context().Done()
			return
		}
		h.ServeHTTP(w, r)
	})
}

// TestCrawlOverBudget: when MaxDuration runs out, the crawl stops, keeps
// what it emitted (whole entries only, none cut short), counts the rest as
// skipped with a warning, and returns no error: a partial crawl.
func TestCrawlOverBudget(t *testing.T) {
	t.Parallel() // most of its 5 s budget is spent waiting on a stalled server
	b := newTinyBlog(300)
	srv := httptest.NewServer(stallAfter(25, b))
	defer srv.Close()
	o := options("tiny", srv.URL)
	o.MaxDuration = 5 * time.Second
	out := &output{}
	res, err := harvest.NewCrawl(context.Background(), o, out.Emit)
	if err != nil {
		t.Fatalf("NewCrawl: %v, want a partial crawl without error", err)
	}
	if !res.OverBudget || res.Skipped == 0 || !strings.Contains(strings.Join(res.Warnings, "\n"), "max_duration") {
		t.Errorf("over budget %v, skipped %d, warnings %q: want the budget's end reported", res.OverBudget, res.Skipped, res.Warnings)
	}
	if len(out.Blogs) != 1 || len(out.Entries) == 0 || len(out.Entries) > 25 {
		t.Errorf("%d blogs, %d entries: want the blog and the entries served before the stall", len(out.Blogs), len(out.Entries))
	}
	for _, e := range out.Entries {
		if e.StatusCode != http.StatusOK || len(e.Problems) > 0 {
			t.Errorf("entry %s: status %d, problems %q: want only whole entries", e.URL, e.StatusCode, e.Problems)
		}
	} // Every URL met has a fate: those being processed when the budget ran
	// out are over budget, not "unaccounted" (issue 23, finding 10).
	if n := harvest.FateCounts(res.Ledger)["unaccounted"]; n > 0 || strings.Contains(strings.Join(res.Warnings, "\n"), "no fate") {
		t.Errorf("%d URLs without a fate in the ledger of a crawl over budget; warnings %q", n, res.Warnings)
	}
	if harvest.FateCounts(res.Ledger)[string(harvest.FateOverBudget)] == 0 {
		t.Errorf("no URL over budget in the ledger: %v", harvest.FateCounts(res.Ledger))
	}
}

// crawlDelayBlog serves a tiny blog whose robots.txt asks for a day
// between requests.
func crawlDelayBlog(t *testing.T) *httptest.Server {
	b := newTinyBlog(12)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nCrawl-delay: 86400\n"))
			return
		}
		b.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestCrawlDelayCappedCrawl: a blog asking for Crawl-delay: 86400 is
// crawled whole at the cap, with one warning naming the delay it asked for.
func TestCrawlDelayCappedCrawl(t *testing.T) {
	srv := crawlDelayBlog(t)
	o := options("tiny", srv.URL)
	o.MaxCrawlDelay = 20 * time.Millisecond
	res, out := crawl(t, o)
	if len(out.Entries) != 12 {
		t.Errorf("%d entries, want 12", len(out.Entries))
	}
	n := 0
	for _, w := range res.Warnings {
		if strings.Contains(w, "Crawl-delay of 24h0m0s") && strings.Contains(w, "cap of 20ms") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("warnings %q: want one naming the asked delay and the cap", res.Warnings)
	}
}

// TestCrawlDelayStrictCrawl: with StrictCrawlDelay the same blog is not
// crawled: a permanent *fetch.CrawlDelayError, nothing emitted.
func TestCrawlDelayStrictCrawl(t *testing.T) {
	srv := crawlDelayBlog(t)
	o := options("tiny", srv.URL)
	o.StrictCrawlDelay = true
	out := &output{}
	_, err := harvest.NewCrawl(context.Background(), o, out.Emit)
	var ce *fetch.CrawlDelayError
	if !errors.As(err, &ce) || blogharvest.IsTransient(err) || len(out.Order) > 0 {
		t.Fatalf("err %v, %d records: want a permanent CrawlDelayError and nothing emitted", err, len(out.Order))
	}
}

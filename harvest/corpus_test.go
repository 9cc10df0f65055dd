package harvest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
)

// shortCorpus are the corpus blogs crawled in -short mode.
var shortCorpus = map[string]bool{"bft-mnmlist": true, "bft-digital-examples": true, "3mdeb": true}

// TestCorpusDiscovery crawls every corpus blog with its feed cut to the
// newest half: every reachable held-out post is found, and the crawl's
// ledger accounts for every URL it met (checkLedger).
func TestCorpusDiscovery(t *testing.T) {
	for _, name := range []string{"bft-quantumdiaries", "bft-korben", "bft-mnmlist", "bft-meinrhyme",
		"bft-digital-examples", "bft-huffingtonpost", "3mdeb", "lahso", "thaumatorium"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if testing.Short() && !shortCorpus[name] {
				t.Skip("large pages: run without -short")
			}
			r := loadReplay(t, name)
			o := harvest.Options{Blog: blogharvest.Blog{ID: name, URL: r.blog.URL}, Transport: r.start(t),
				Render: harvest.RenderNever, MaxMediaPerEntry: -1, PerHost: 2}
			out := &output{}
			res, err := harvest.NewCrawl(context.Background(), o, out.Emit)
			if err != nil {
				t.Fatalf("NewCrawl: %v", err)
			}
			found := map[string]bool{}
			owner := map[string]string{} // a URL or alias, without a trailing slash → the entry naming it
			posts := 0
			for _, e := range out.Entries {
				found[e.URL] = true
				for _, a := range e.Aliases {
					found[a] = true
				}
				for _, u := range append([]string{e.URL}, e.Aliases...) {
					k := strings.TrimSuffix(u, "/")
					if o, ok := owner[k]; ok && o != e.URL {
						t.Errorf("one page archived twice: %s in the entries %s and %s", u, o, e.URL)
					}
					owner[k] = e.URL
				}
				if e.Kind == blogharvest.KindPost && e.StatusCode == 200 {
					posts++
				}
			}
			out.ByURL(t)
			reach := r.reachable(t)
			hit, reachHit := 0, 0
			for _, u := range r.heldOut {
				switch {
				case found[u]:
					hit++
					if reach[u] {
						reachHit++
					}
				case reach[u]:
					t.Errorf("reachable held-out post not found: %s", u)
				default:
					t.Logf("unreachable held-out post not found: %s", u)
				}
			}
			t.Logf("%s: discovery recall %d/%d held-out (%d/%d reachable); %d post entries (blog.json posts %d); %d pages fetched; pattern %s; warnings %q",
				name, hit, len(r.heldOut), reachHit, countTrue(reach), posts, r.blog.Posts, res.Pages, res.Pattern, res.Warnings)
			var must []string // the reachable held-out posts must have a fate in the ledger
			for _, u := range r.heldOut {
				if reach[u] {
					must = append(must, u)
				}
			}
			checkLedger(t, res, out, must)
		})
	}
}

func countTrue(m map[string]bool) int {
	n := 0
	for _, v := range m {
		if v {
			n++
		}
	}
	return n
}

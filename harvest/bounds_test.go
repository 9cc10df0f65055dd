package harvest_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/internal/hugeblog"
)

// countREST wraps h, counting the requests of the comments REST endpoint.
func countREST(h http.Handler, n *atomic.Int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/wp-json/") {
			n.Add(1)
		}
		h.ServeHTTP(w, r)
	})
}

// TestNewCrawlEveryCommentPage (issue 38, finding 8): a WordPress post
// with 10 000 comments, its comment feed listing the newest 10 and the
// comments REST endpoint paging them 100 at a time (100 pages). Every
// page is read: 10 000 comments archived, no shortfall. Before, the
// reader stopped at 20 pages (2 000 comments) and the ledger said "its
// comment feed holds 2000" of a feed that held 10.
func TestNewCrawlEveryCommentPage(t *testing.T) {
	t.Parallel()
	blog := &hugeblog.Blog{Posts: 1, Comments: 10_000}
	var rest atomic.Int64
	srv := httptest.NewServer(countREST(blog, &rest))
	defer srv.Close()
	res, out := crawl(t, options("thread", srv.URL))
	e, ok := out.ByURL(t)[srv.URL+hugeblog.PostPath(0)]
	if !ok {
		t.Fatalf("the post was not archived; ledger %s", harvest.FateSummary(res.Ledger))
	}
	if len(e.Comments) != 10_000 {
		t.Errorf("%d comments archived, want 10000", len(e.Comments))
	}
	if n := rest.Load(); n != 100 {
		t.Errorf("%d answers of the comments API asked for, want 100 (every page once)", n)
	}
	if short := harvest.Shortfalls(res.Ledger); len(short) != 0 {
		t.Errorf("shortfalls %+v, want none", short)
	}
}

// TestNewCrawlCommentShortfallNamesItsSource: the same post whose
// endpoint serves 2 500 of its 10 000 stated comments. The ledger names
// each source with what it held (the comment feed 10, the endpoint
// 2 500) and where the archived comments came from.
func TestNewCrawlCommentShortfallNamesItsSource(t *testing.T) {
	t.Parallel()
	blog := &hugeblog.Blog{Posts: 1, Comments: 10_000}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n, _ := strconv.Atoi(r.URL.Query().Get("page")); strings.HasPrefix(r.URL.Path, "/wp-json/") && n > 25 {
			w.WriteHeader(http.StatusBadRequest) // pages 26 on: "rest_post_invalid_page_number"
			return
		}
		blog.ServeHTTP(w, r)
	}))
	defer srv.Close()
	res, out := crawl(t, options("thread", srv.URL))
	e, ok := out.ByURL(t)[srv.URL+hugeblog.PostPath(0)]
	if !ok {
		t.Fatal("the post was not archived")
	}
	if len(e.Comments) != 2_500 {
		t.Errorf("%d comments archived, want 2500", len(e.Comments))
	}
	short := harvest.Shortfalls(res.Ledger)
	if len(short) != 1 {
		t.Fatalf("shortfalls %+v, want the post's", short)
	}
	for _, want := range []string{"archived 2500", "its comment feed holds 10", "its comments API holds 2500", "came from its comments API"} {
		if !strings.Contains(short[0].Comments, want) {
			t.Errorf("ledger note %q lacks %q", short[0].Comments, want)
		}
	}
}

// TestNewCrawlFloodedCommentsAPI (issue 38, finding 2): a post stating
// 100 000 comments whose comments endpoint answers every page with 4 MB
// of {"id":N} objects (some 400 000 each) and announces 1 000 pages.
// With max_comments_per_answer 1 000 and max_comment_bytes 8 MB the
// crawl reads two answers (each element by element, 1 000 comments of
// each), archives the post with 2 000 comments, and the ledger says why
// it stopped. Before, each answer was parsed whole and 20 were read.
func TestNewCrawlFloodedCommentsAPI(t *testing.T) {
	t.Parallel()
	blog := &hugeblog.Blog{Posts: 1, Comments: 100_000, FloodBytes: 4 << 20}
	var rest atomic.Int64
	srv := httptest.NewServer(countREST(blog, &rest))
	defer srv.Close()
	o := options("flood", srv.URL)
	o.MaxCommentsPerAnswer, o.MaxCommentBytes = 1_000, 8<<20
	res, out := crawl(t, o)
	e, ok := out.ByURL(t)[srv.URL+hugeblog.PostPath(0)]
	if !ok {
		t.Fatal("the post was not archived")
	}
	if len(e.Comments) != 2_000 {
		t.Errorf("%d comments archived, want 2000 (1000 of each of two answers)", len(e.Comments))
	}
	if n := rest.Load(); n != 2 {
		t.Errorf("%d answers asked for, want 2 (the bytes bound reached)", n)
	}
	short := harvest.Shortfalls(res.Ledger)
	if len(short) != 1 || !strings.Contains(short[0].Comments, "max_comment_bytes 8388608 reached") {
		t.Errorf("shortfalls %+v, want the post's, naming max_comment_bytes", short)
	}
}

// TestNewCrawlCommentCapPerPost: the 10 000-comment thread read with
// max_comments_per_post 1 500: 15 pages, 1 500 comments, the cap named in
// the ledger.
func TestNewCrawlCommentCapPerPost(t *testing.T) {
	t.Parallel()
	blog := &hugeblog.Blog{Posts: 1, Comments: 10_000}
	var rest atomic.Int64
	srv := httptest.NewServer(countREST(blog, &rest))
	defer srv.Close()
	o := options("cap", srv.URL)
	o.MaxComments = 1_500
	res, out := crawl(t, o)
	e, ok := out.ByURL(t)[srv.URL+hugeblog.PostPath(0)]
	if !ok {
		t.Fatal("the post was not archived")
	}
	if len(e.Comments) != 1_500 || rest.Load() != 15 {
		t.Errorf("%d comments from %d answers, want 1500 from 15", len(e.Comments), rest.Load())
	}
	short := harvest.Shortfalls(res.Ledger)
	if len(short) != 1 || !strings.Contains(short[0].Comments, "max_comments_per_post 1500 reached") {
		t.Errorf("shortfalls %+v, want the post's, naming max_comments_per_post", short)
	}
}

// TestNewCrawlHugeSitemapIndex (issue 38, finding 1): robots.txt names a
// sitemap index of 300 gzipped children, each listing 50 000 URLs (15
// million in all). With max_urls 20 000 the crawl reads one child (as a
// stream), takes 20 000 URLs in, reads no other child, archives the
// three posts, and its ledger holds at most max_urls rows plus one per
// source, the child's saying how many of its URLs were left out and each
// child not read why. Before, every child was read whole and its URLs
// all queued (past 3 GB after four children of 900 000 URLs).
func TestNewCrawlHugeSitemapIndex(t *testing.T) {
	t.Parallel()
	blog := &hugeblog.Blog{Posts: 3, SitemapChildren: 300, SitemapURLs: 50_000}
	var children atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/sitemaps/") {
			children.Add(1)
		}
		blog.ServeHTTP(w, r)
	}))
	defer srv.Close()
	o := options("sitemaps", srv.URL)
	o.MaxURLs, o.MaxPages = 20_000, 10
	res, out := crawl(t, o)
	got := out.ByURL(t)
	for i := 0; i < 3; i++ {
		if _, ok := got[srv.URL+hugeblog.PostPath(i)]; !ok {
			t.Errorf("post %d not archived", i)
		}
	}
	if n := children.Load(); n != 1 {
		t.Errorf("%d sitemap children fetched, want 1 (max_urls reached in the first)", n)
	}
	if n := len(res.Ledger); n > 20_000+300 {
		t.Errorf("%d ledger rows, want at most max_urls and one per source", n)
	}
	rows := map[string]harvest.LedgerRow{}
	for _, r := range res.Ledger {
		rows[r.URL] = r
	}
	first := rows[srv.URL+"/sitemaps/child-0.xml.gz"]
	if first.Fate != harvest.FateOverBudget || !strings.Contains(first.Detail, "URLs it lists not taken in: max_urls 20000 reached") {
		t.Errorf("the first child's row %+v, want over-budget naming max_urls", first)
	}
	if n, _ := strconv.Atoi(strings.Fields(first.Detail + " x")[0]); n < 50_000-20_000 {
		t.Errorf("the first child's row counts %d URLs left out, want at least 30000", n)
	}
	unread := 0
	for k := 1; k < 300; k++ {
		r := rows[srv.URL+"/sitemaps/child-"+strconv.Itoa(k)+".xml.gz"]
		if r.Fate == harvest.FateOverBudget {
			unread++
		}
	}
	idx := rows[srv.URL+"/sitemap_index.xml"]
	if unread < 190 || !strings.Contains(idx.Detail, "sitemaps it indexes not taken in") {
		t.Errorf("%d children not read in the ledger, index row %+v; want each queued child over-budget and the rest counted on the index", unread, idx)
	}
}

// TestNewCrawlFeedTooLarge (issue 38, finding 10): the feed the home page
// names is over the 20 MB body cap. The crawl goes on without it: the
// five posts the home page links to are archived, and the feed's problem
// is a warning and its row in the ledger (failed, too large). Before, the
// crawl failed ("feed too large") with nothing archived.
func TestNewCrawlFeedTooLarge(t *testing.T) {
	t.Parallel()
	blog := &hugeblog.Blog{Posts: 5, Comments: 2, FeedPadBytes: 21 << 20}
	srv := httptest.NewServer(blog)
	defer srv.Close()
	res, out := crawl(t, options("bigfeed", srv.URL))
	got := out.ByURL(t)
	for i := 0; i < 5; i++ {
		if _, ok := got[srv.URL+hugeblog.PostPath(i)]; !ok {
			t.Errorf("post %d not archived", i)
		}
	}
	if len(out.Blogs) != 1 {
		t.Errorf("%d Blog records, want 1", len(out.Blogs))
	}
	var row harvest.LedgerRow
	for _, r := range res.Ledger {
		if r.URL == srv.URL+"/feed/" {
			row = r
		}
	}
	if row.Fate != harvest.FateFailed || !strings.Contains(row.Detail, "too large") {
		t.Errorf("the feed's ledger row %+v, want failed, too large", row)
	}
	warned := false
	for _, w := range res.Warnings {
		warned = warned || strings.Contains(w, "feed") && strings.Contains(w, "home page")
	}
	if !warned {
		t.Errorf("no warning names the feed's problem: %q", res.Warnings)
	}
}

// TestNewCrawlCommentAnswerTooLarge: the flooded endpoint's 4 MB answers
// over max_comment_answer_bytes 1 MB: the first is not read (the client
// stops at the bound), the post is archived with its comment feed's ten
// comments, and the ledger names the bound.
func TestNewCrawlCommentAnswerTooLarge(t *testing.T) {
	t.Parallel()
	blog := &hugeblog.Blog{Posts: 1, Comments: 100_000, FloodBytes: 4 << 20}
	var rest atomic.Int64
	srv := httptest.NewServer(countREST(blog, &rest))
	defer srv.Close()
	o := options("flood", srv.URL)
	o.MaxCommentAnswerBytes = 1 << 20
	res, out := crawl(t, o)
	e, ok := out.ByURL(t)[srv.URL+hugeblog.PostPath(0)]
	if !ok {
		t.Fatal("the post was not archived")
	}
	if len(e.Comments) != 10 || rest.Load() != 1 {
		t.Errorf("%d comments after %d answers asked for, want the feed's 10 after 1", len(e.Comments), rest.Load())
	}
	short := harvest.Shortfalls(res.Ledger)
	if len(short) != 1 || !strings.Contains(short[0].Comments, "answer 1 over max_comment_answer_bytes 1048576: not read") {
		t.Errorf("shortfalls %+v, want the post's, naming max_comment_answer_bytes", short)
	}
}

package harvest_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/harvest/internal/crawltest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// The helpers harvest's test binaries share (harvest/internal/crawltest).
type (
	output     = crawltest.Output
	requestLog = crawltest.RequestLog
)

var (
	serve          = crawltest.Serve
	options        = crawltest.Options
	crawl          = crawltest.Crawl
	newestActivity = crawltest.NewestActivity
)

func TestNewCrawlFindsEveryFixturePost(t *testing.T) {
	for _, name := range []string{"wordpress", "blogger", "static", "french", "jscomments"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			site, srv := serve(t, name, nil)
			res, out := crawl(t, options(name, srv.URL))
			truth := site.Truth(srv.URL)
			checkBlogLast(t, out)
			checkBlogFiles(t, out.Blogs[0], truth.Blog.SitemapURL != "")
			got := out.ByURL(t)
			found := 0
			var cs commentScore
			for _, p := range truth.Posts {
				e, ok := got[p.URL]
				if !ok {
					t.Errorf("post %s (in feed: %v) not found", p.URL, p.InFeed)
					continue
				}
				found++
				cs.add(t, e, p)
				if !p.Scripted { // without a browser, only the feed knows a scripted post
					checkPost(t, e, p, truth.Blog.Comments != "js", truth.Blog.Platform == "WordPress")
				}
			}
			for _, p := range truth.Pages {
				if e, ok := got[p.URL]; !ok || e.Kind != blogharvest.KindPage {
					t.Errorf("page %s: found %v, kind %v; want kind page", p.URL, ok, kindOf(e))
				}
			}
			for _, e := range out.Entries {
				if err := e.Validate(); err != nil {
					t.Errorf("entry %s invalid: %v", e.URL, err)
				}
			}
			t.Logf("%s: recall %d/%d, %d entries, %d pages fetched, pattern %s, fetches %v, warnings %q; comments: %s",
				name, found, len(truth.Posts), res.Entries, res.Pages, res.Pattern, res.Fetches, res.Warnings, &cs)
			if truth.Blog.Comments != "js" && truth.Blog.Comments != "none" {
				cs.check(t)
			}
		})
	}
}

// checkBlogFiles checks that the Blog record keeps the home page, the
// feed, robots.txt, the sitemaps and the rules.
func checkBlogFiles(t *testing.T, b *blogharvest.Blog, sitemap bool) {
	t.Helper()
	roles := map[blogharvest.Role]int{}
	for _, f := range b.Files {
		roles[f.Role]++
		if f.SHA256 == "" {
			t.Errorf("blog file %s (%s) not summed", f.URL, f.Role)
		}
	}
	want := []blogharvest.Role{blogharvest.RolePage, blogharvest.RoleFeed, blogharvest.RoleRobots, blogharvest.RoleLog, blogharvest.RoleLedger}
	if sitemap {
		want = append(want, blogharvest.RoleSitemap)
		if b.SitemapURL == "" {
			t.Error("blog sitemap_uri empty")
		}
	}
	for _, r := range want {
		if roles[r] == 0 {
			t.Errorf("blog record has no %s file (has %v)", r, roles)
		}
	}
}

// commentScore compares harvested comments with the truth by id.
type commentScore struct {
	truth, got, matched, parents, parentsOK int
}

func (s *commentScore) add(t *testing.T, e *blogharvest.Entry, p fixture.PostTruth) {
	t.Helper()
	ids := map[string]blogharvest.Comment{}
	for _, c := range e.Comments {
		if _, dup := ids[c.ID]; dup {
			t.Errorf("%s: comment %s twice", p.URL, c.ID)
		}
		ids[c.ID] = c
	}
	s.truth += len(p.Comments)
	s.got += len(e.Comments)
	for _, tc := range p.Comments {
		c, ok := ids[tc.ID]
		if !ok {
			continue
		}
		s.matched++
		if tc.ParentID != "" {
			s.parents++
			if c.ParentID == tc.ParentID {
				s.parentsOK++
			}
		}
	}
}

func (s *commentScore) String() string {
	return fmt.Sprintf("truth %d, harvested %d, matched %d, parents right %d/%d", s.truth, s.got, s.matched, s.parentsOK, s.parents)
}

// check wants every comment found, nothing extra, and the nesting kept.
func (s *commentScore) check(t *testing.T) {
	t.Helper()
	if s.matched < s.truth || s.got > s.matched || s.parentsOK < s.parents {
		t.Errorf("comments: %s", s)
	}
}

func kindOf(e *blogharvest.Entry) blogharvest.Kind {
	if e == nil {
		return ""
	}
	return e.Kind
}

// checkBlogLast checks that the crawl emitted exactly one Blog record, after
// every entry (it carries the crawl ledger), and that it is valid.
func checkBlogLast(t *testing.T, out *output) {
	t.Helper()
	if len(out.Order) == 0 || out.Order[len(out.Order)-1] != "blog" || len(out.Blogs) != 1 {
		t.Fatalf("emission order %v: want exactly one Blog, last", out.Order[max(0, len(out.Order)-3):])
	}
	if err := out.Blogs[0].Validate(); err != nil {
		t.Errorf("blog record invalid: %v", err)
	}
}

// checkPost compares the fields of a harvested post with the truth; the
// comments only when the static pages or feeds hold them, tags apart from
// categories only on WordPress, whose pages mark them.
func checkPost(t *testing.T, e *blogharvest.Entry, p fixture.PostTruth, staticComments, wordpress bool) {
	t.Helper()
	if e.Title != p.Title {
		t.Errorf("%s: title %q, want %q", p.URL, e.Title, p.Title)
	}
	if want, _ := time.Parse(time.RFC3339, p.Date); !e.Created.Equal(want) && !sameDay(e.Created, want) {
		t.Errorf("%s: created %v, want %v", p.URL, e.Created, want)
	}
	if staticComments && len(e.Comments) < len(p.Comments) {
		t.Errorf("%s: %d comments, want %d", p.URL, len(e.Comments), len(p.Comments))
	}
	if e.Content == "" {
		t.Errorf("%s: no content (problems %q)", p.URL, e.Problems)
	}
	if wordpress && (len(e.Tags) != len(p.Tags) || len(e.Categories) != len(p.Categories)) {
		t.Errorf("%s: tags %q categories %q, want tags %q categories %q", p.URL, e.Tags, e.Categories, p.Tags, p.Categories)
	}
	for _, f := range e.Files {
		if f.Role == blogharvest.RoleFeed && f.URL == "" {
			t.Errorf("%s: feed item file without the feed's URL", p.URL)
		}
	}
}

func sameDay(a, b time.Time) bool {
	return a.UTC().Format("2006-01-02") == b.UTC().Format("2006-01-02")
}

func TestNewCrawlNoDuplicatesThroughShortLinksAndReplyLinks(t *testing.T) {
	log := &requestLog{}
	site, srv := serve(t, "wordpress", log.Wrap)
	_, out := crawl(t, options("wp", srv.URL))
	got := out.ByURL(t) // fails on duplicates
	for u := range got {
		if strings.Contains(u, "?") {
			t.Errorf("entry URL with a query: %s", u)
		}
	}
	if n := log.Count(func(p string) bool { return strings.Contains(p, "replytocom=") }); n > 0 {
		t.Errorf("%d ?replytocom= URLs fetched", n)
	}
	if len(got) < len(site.Truth(srv.URL).Posts) {
		t.Errorf("%d entries, want at least %d", len(got), len(site.Truth(srv.URL).Posts))
	}
}

func TestNewCrawlHonoursRobots(t *testing.T) {
	site, _ := serve(t, "wordpress", nil)
	posts := site.Truth("").Posts
	blocked := posts[len(posts)-1].URL[:len("/2013/03/")] // the oldest month
	log := &requestLog{}
	h := log.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nDisallow: " + blocked + "\n"))
			return
		}
		site.Handler().ServeHTTP(w, r)
	}))
	srv := httptest.NewServer(h)
	defer srv.Close()
	res, out := crawl(t, options("wp", srv.URL))
	if n := log.Count(func(p string) bool { return strings.HasPrefix(p, blocked) }); n > 0 {
		t.Errorf("%d requests under disallowed %s", n, blocked)
	}
	for _, e := range out.Entries {
		if strings.HasPrefix(strings.TrimPrefix(e.URL, srv.URL), blocked) && e.StatusCode != 0 {
			t.Errorf("entry %s captured despite robots.txt", e.URL)
		}
	}
	if res.Skipped == 0 || !strings.Contains(strings.Join(res.Warnings, "\n"), "robots.txt") {
		t.Errorf("skipped %d, warnings %q: want the disallowed URLs counted and reported", res.Skipped, res.Warnings)
	}
}

func TestNewCrawlMaxPages(t *testing.T) {
	log := &requestLog{}
	_, srv := serve(t, "wordpress", log.Wrap)
	o := options("wp", srv.URL)
	o.MaxPages = 5
	res, out := crawl(t, o)
	html := log.Count(func(p string) bool {
		return !strings.Contains(p, "feed") && !strings.Contains(p, "sitemap") && p != "/robots.txt"
	})
	if res.Pages > 5 || html > 5 {
		t.Errorf("MaxPages 5: result says %d pages, server saw %d page requests", res.Pages, html)
	}
	if len(out.Entries) == 0 || res.Skipped == 0 {
		t.Errorf("%d entries, %d skipped: want some of each", len(out.Entries), res.Skipped)
	}
}

func TestNewCrawlNotABlog(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte("<html><head><title>Shop</title></head><body><a href='/a'>a</a></body></html>"))
	}))
	defer srv.Close()
	_, err := harvest.NewCrawl(context.Background(), options("shop", srv.URL), (&output{}).Emit)
	if !errors.Is(err, blogharvest.ErrNotBlog) || !strings.Contains(err.Error(), srv.URL) {
		t.Fatalf("err = %v, want ErrNotBlog naming %s", err, srv.URL)
	}
}

func TestNewCrawlEmitErrorStops(t *testing.T) {
	_, srv := serve(t, "wordpress", nil)
	stop := errors.New("disk full")
	n := 0
	_, err := harvest.NewCrawl(context.Background(), options("wp", srv.URL), func(r harvest.Record) error {
		if r.Entry != nil {
			n++
			if n == 3 {
				return stop
			}
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 3 {
		t.Fatalf("err %v after %d entries: want the emit error after 3", err, n)
	}
}

func TestNewCrawlTinyBlogThroughListings(t *testing.T) {
	b := newTinyBlog(95)
	srv := httptest.NewServer(b)
	defer srv.Close()
	res, out := crawl(t, options("tiny", srv.URL))
	got := out.ByURL(t)
	for i := 0; i < b.posts; i++ {
		if _, ok := got[srv.URL+b.path(i)]; !ok {
			t.Errorf("post %d not found", i)
		}
	}
	if len(got) != b.posts {
		t.Errorf("%d entries, want %d", len(got), b.posts)
	}
	t.Logf("pages %d, pattern %s", res.Pages, res.Pattern)
}

func TestNewCrawlFeedLinksOffsite(t *testing.T) {
	other := &requestLog{}
	off := httptest.NewServer(other.Wrap(http.NotFoundHandler()))
	defer off.Close()
	b := newTinyBlog(25)
	b.offsite = off.URL
	srv := httptest.NewServer(b)
	defer srv.Close()
	_, out := crawl(t, options("tiny", srv.URL))
	if n := other.Count(func(string) bool { return true }); n > 0 {
		t.Errorf("%d requests to the off-site host", n)
	}
	got := out.ByURL(t)
	e, ok := got[off.URL+b.path(b.posts-1)]
	if !ok || e.StatusCode != 0 || len(e.Problems) == 0 || e.Title != b.title(b.posts-1) {
		t.Errorf("off-site item: found %v, want a feed-only entry with a problem: %+v", ok, e)
	}
	for i := 0; i < b.posts-1; i++ {
		if _, ok := got[srv.URL+b.path(i)]; !ok {
			t.Errorf("on-site post %d not found", i)
		}
	}
}

func TestUpdateCrawlFindsOnlyWhatIsNew(t *testing.T) {
	site, srv := serve(t, "wordpress", nil)
	first := newestActivity(site).Add(24 * time.Hour) // the first crawl runs a day after the last activity
	o := options("wp", srv.URL)
	o.Now = func() time.Time { return first }
	res, _ := crawl(t, o)
	if !res.Watermark.Equal(first.Add(-harvest.WatermarkMargin)) {
		t.Fatalf("watermark %v, want the start %v less the margin", res.Watermark, first)
	}
	commented := site.Posts()[2] // still in the feed after one more post
	np := site.AddPost(fixture.PostSpec{Title: "A brand new post about ladders", Date: first.Add(48 * time.Hour)})
	site.AddComment(commented.Slug, fixture.CommentSpec{Author: "Late Reader", Text: "Arrived late, but glad I did.",
		Date: first.Add(50 * time.Hour)})
	second := first.Add(72 * time.Hour)
	o.Now = func() time.Time { return second }
	out := &output{}
	res2, err := harvest.UpdateCrawl(context.Background(), o, res.Watermark, out.Emit)
	if err != nil {
		t.Fatal(err)
	}
	checkBlogLast(t, out)
	got := out.ByURL(t)
	want := map[string]bool{srv.URL + np.Path: true, srv.URL + commented.Path: true}
	undated := firstFeedPage(site, srv)
	for u := range got {
		if !want[u] && !undated[u] {
			t.Errorf("UpdateCrawl emitted unchanged %s", u)
		}
	}
	for u := range want {
		if _, ok := got[u]; !ok {
			t.Errorf("UpdateCrawl missed %s", u)
		}
	}
	if e := got[srv.URL+commented.Path]; e != nil && !hasCommentBy(e, "Late Reader") {
		t.Errorf("new comment missing from %s", e.URL)
	}
	if !res2.Watermark.After(res.Watermark) {
		t.Errorf("watermark %v did not move past %v", res2.Watermark, res.Watermark)
	}
	t.Logf("update: %d pages, %d skipped, fetches %v", res2.Pages, res2.Skipped, res2.Fetches)
}

func hasCommentBy(e *blogharvest.Entry, author string) bool {
	for _, c := range e.Comments {
		if c.Author == author {
			return true
		}
	}
	return false
}

func TestNewCrawlPasswordProtectedPost(t *testing.T) {
	b := newTinyBlog(30)
	b.locked = 3 // not in the feed: found by the listings
	srv := httptest.NewServer(b)
	defer srv.Close()
	_, out := crawl(t, options("tiny", srv.URL))
	got := out.ByURL(t)
	for i := 0; i < b.posts; i++ {
		e := got[srv.URL+b.path(i)]
		switch {
		case e == nil:
			t.Errorf("post %d not found", i)
		case i == b.locked && e.AccessRestriction == "":
			t.Errorf("protected post %d: no access restriction", i)
		case i != b.locked && e.AccessRestriction != "":
			t.Errorf("post %d: access restriction %q", i, e.AccessRestriction)
		}
	}
}

func TestNewCrawlCapturesMedia(t *testing.T) {
	site, srv := serve(t, "wordpress", nil)
	victim := site.Posts()[1]
	site.EditPost(victim.Slug, `<p>`+strings.Repeat("A paragraph long enough to be an article. ", 12)+
		`</p><p><img src="/wp-content/uploads/2013/01/missing.jpg" alt="gone"></p>`)
	o := options("wp", srv.URL)
	o.MaxMediaPerEntry = 0 // default
	_, out := crawl(t, o)
	got := out.ByURL(t)
	withImages := 0
	for _, p := range site.Truth(srv.URL).Posts {
		e := got[p.URL]
		if e == nil || p.URL == srv.URL+victim.Path || !strings.Contains(p.BodyHTML, "<img") {
			continue
		}
		withImages++
		n := 0
		for _, f := range e.Files {
			if f.Role == blogharvest.RoleMedia {
				n++
				if !strings.HasPrefix(f.MediaType, "image/") || f.SHA256 == "" || f.Size == 0 {
					t.Errorf("%s: media %s: type %q, sha %q, size %d", p.URL, f.URL, f.MediaType, f.SHA256, f.Size)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: images in the article but no media captured (problems %q)", p.URL, e.Problems)
		}
	}
	if withImages == 0 {
		t.Fatal("fixture has no post with images")
	}
	v := got[srv.URL+victim.Path]
	if v == nil || !strings.Contains(strings.Join(v.Problems, "\n"), "missing.jpg") {
		t.Errorf("broken image not recorded as a problem: %+v", v)
	}
}

func TestUpdateCrawlFindsPostsThatLeftTheFeed(t *testing.T) {
	site, srv := serve(t, "wordpress", nil)
	first := newestActivity(site).Add(24 * time.Hour)
	o := options("wp", srv.URL)
	since := first.Add(-harvest.WatermarkMargin) // what a NewCrawl at first returns
	want := map[string]bool{}
	for i := range 13 { // more than the feed's first page holds
		p := site.AddPost(fixture.PostSpec{Date: first.Add(time.Duration(i+1) * time.Hour)})
		want[srv.URL+p.Path] = true
	}
	o.Now = func() time.Time { return first.Add(72 * time.Hour) }
	out := &output{}
	if _, err := harvest.UpdateCrawl(context.Background(), o, since, out.Emit); err != nil {
		t.Fatal(err)
	}
	got := out.ByURL(t)
	for u := range got {
		if !want[u] {
			t.Errorf("UpdateCrawl emitted unchanged %s", u)
		}
	}
	for u := range want {
		if _, ok := got[u]; !ok {
			t.Errorf("UpdateCrawl missed %s", u)
		}
	}
}

func TestNewCrawlGivenTheFeedURL(t *testing.T) {
	b := newTinyBlog(35)
	srv := httptest.NewServer(b)
	defer srv.Close()
	o := options("tiny", srv.URL)
	o.Blog.URL = srv.URL + "/feed/"
	_, out := crawl(t, o)
	if len(out.ByURL(t)) != b.posts {
		t.Errorf("%d entries, want %d", len(out.Entries), b.posts)
	}
	if b := out.Blogs[0]; b.URL != srv.URL+"/" || b.FeedURL != srv.URL+"/feed/" || b.StatusCode != 200 {
		t.Errorf("blog URL %q feed %q status %d: want the home page from the feed's link", b.URL, b.FeedURL, b.StatusCode)
	}
}

func TestNewCrawlStopsWhenCancelled(t *testing.T) {
	b := newTinyBlog(300)
	srv := httptest.NewServer(b)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	res, err := harvest.NewCrawl(ctx, options("tiny", srv.URL), func(r harvest.Record) error {
		if r.Entry != nil {
			if n++; n == 20 {
				cancel()
			}
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// Not cancelled, the crawl would fetch over 300 pages; the entries
	// and listing pages already in flight may still land.
	if n > 25 || res.Pages > 50 {
		t.Errorf("%d entries, %d pages after cancelling at 20 entries", n, res.Pages)
	}
}

func TestUpdateCrawlEmitsExactlyWhatChangedSince(t *testing.T) {
	for _, name := range []string{"wordpress", "blogger", "static"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			site, srv := serve(t, name, nil)
			posts := site.Posts()
			since := posts[4].Date.Add(-time.Minute) // five posts are newer
			if name != "static" {                    // an old post, long out of the feed, gets a comment
				site.AddComment(posts[30].Slug, fixture.CommentSpec{Author: "Late Reader", Date: since.Add(time.Hour)})
				posts = site.Posts()
			}
			want := map[string]bool{}
			for _, p := range posts {
				if changedSince(p, since) {
					want[srv.URL+p.Path] = true
				}
			}
			o := options(name, srv.URL)
			o.Now = func() time.Time { return newestActivity(site).Add(time.Hour) }
			out := &output{}
			if _, err := harvest.UpdateCrawl(context.Background(), o, since, out.Emit); err != nil {
				t.Fatal(err)
			}
			undated := map[string]bool{}
			if name == "wordpress" {
				undated = firstFeedPage(site, srv)
			}
			got := out.ByURL(t)
			for u := range got {
				if !want[u] && !undated[u] {
					t.Errorf("emitted %s, unchanged since %v", u, since)
				}
			}
			for u := range want {
				if got[u] == nil {
					t.Errorf("missed %s, changed since %v", u, since)
				}
			}
			// The old post revisited for its comment keeps its feed item's
			// values: the feed was read on to it.
			if old := got[srv.URL+posts[30].Path]; name != "static" && old != nil && old.Provenance["date_created"] != blogharvest.MethodFeed {
				t.Errorf("%s: revisited for a comment, date_created from %q, want the feed's", old.URL, old.Provenance["date_created"])
			}
			t.Logf("%s: %d of %d posts changed since %v; %d emitted", name, len(want), len(posts), since, len(got))
		})
	}
}

// firstFeedPage returns the post URLs on the first page of a fixture
// WordPress feed. Its RSS has no modification dates and the fixture serves
// no Atom twin, so UpdateCrawl extracts these posts again (an edit would
// otherwise go unseen) and the archive tells an edit by content.
func firstFeedPage(site *fixture.Site, srv *httptest.Server) map[string]bool {
	out := map[string]bool{}
	for _, p := range site.Posts()[:10] {
		out[srv.URL+p.Path] = true
	}
	return out
}

// changedSince reports whether a fixture post was published, edited or
// commented after since.
func changedSince(p fixture.Post, since time.Time) bool {
	if p.Date.After(since) || p.Modified.After(since) {
		return true
	}
	for _, c := range p.Comments {
		if c.Date.After(since) {
			return true
		}
	}
	return false
}

func TestNewCrawlFindsOldPostsThroughAGzippedSitemap(t *testing.T) {
	b := newTinyBlog(60)
	b.sitemap = true
	srv := httptest.NewServer(b)
	defer srv.Close()
	_, out := crawl(t, options("tiny", srv.URL))
	if got := out.ByURL(t); len(got) != b.posts {
		t.Errorf("%d entries, want %d: the sitemap names every post", len(got), b.posts)
	}
	if out.Blogs[0].SitemapURL != srv.URL+"/sitemaps/all.xml.gz" {
		t.Errorf("sitemap_uri %q", out.Blogs[0].SitemapURL)
	}
}

func TestNewCrawlScopeExclude(t *testing.T) {
	b := newTinyBlog(40)
	srv := httptest.NewServer(b)
	defer srv.Close()
	o := options("tiny", srv.URL)
	o.Exclude = []*regexp.Regexp{regexp.MustCompile(`/post-(1|3)\d/$`)} // 10–19 found by links, 30–39 in the feed
	log := &requestLog{}
	srv.Config.Handler = log.Wrap(b)
	_, out := crawl(t, o)
	for u := range out.ByURL(t) {
		if o.Exclude[0].MatchString(u) {
			t.Errorf("excluded %s emitted", u)
		}
	}
	if n := log.Count(func(p string) bool { return o.Exclude[0].MatchString(p) }); n > 0 {
		t.Errorf("%d excluded pages fetched", n)
	}
	if len(out.Entries) != b.posts-20 {
		t.Errorf("%d entries, want %d", len(out.Entries), b.posts-20)
	}
}

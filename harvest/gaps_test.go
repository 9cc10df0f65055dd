package harvest_test

import (
	"fmt"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
)

// Issue 25: nothing a reader saw is lost. Each test crawls a tinyBlog
// shaped like one finding and checks what the archive would hold.

// TestNewCrawlCommentsOnlyInPostFeeds: a WordPress blog whose older posts
// show only the number of their comments (a script loads the list) and
// keep them in their own comment feed <post>/feed/, which no page
// advertises and the posts feed (newest ten) does not name. Every comment
// is archived from those feeds; the post whose feed lacks two of the five
// comments its page states is in the ledger as a shortfall, with the
// sources tried.
func TestNewCrawlCommentsOnlyInPostFeeds(t *testing.T) {
	b := newTinyBlog(40)
	b.generator = "https://wordpress.org/?v=6.4.2"
	b.onlyInFeeds = true
	b.lost = map[int]int{9: 2}
	log := &requestLog{}
	srv := httptest.NewServer(log.Wrap(b))
	defer srv.Close()
	res, out := crawl(t, options("tiny", srv.URL))
	got := out.ByURL(t)
	hidden := 0
	for i, e := range b.archivedPosts(t, got, srv.URL) {
		if b.hidesComments(i) {
			hidden++
		}
		if want := b.commentCount(i) - b.lost[i]; len(e.Comments) != want {
			t.Errorf("post %d: %d comments archived, want %d", i, len(e.Comments), want)
		}
	}
	if hidden < 5 {
		t.Fatalf("fixture covers too little: %d posts with comments only in their feeds", hidden)
	}
	short := harvest.Shortfalls(res.Ledger)
	if len(short) != 1 || short[0].URL != srv.URL+b.path(9) ||
		!strings.Contains(short[0].Comments, "stated 5") || !strings.Contains(short[0].Comments, "archived 3") {
		t.Errorf("shortfalls %+v, want post 9: stated 5, archived 3", short)
	}
	tsv := string(harvest.LedgerTSV(res.Ledger))
	if !strings.Contains(tsv, "\tstated 5 (") {
		t.Errorf("ledger.tsv lacks the shortfall:\n%.400s", tsv)
	}
	// Of the posts the feed does not name, per-post feeds are asked only
	// where counts say something is missing (the feed's items have theirs
	// asked, as a WordPress feed's items always did).
	old := map[string]bool{}
	for i := 0; i < b.posts-b.feedSize; i++ {
		old[b.path(i)+"feed/"] = true
	}
	if n := log.Count(func(p string) bool { return old[p] }); n != hidden {
		t.Errorf("%d comment feeds of posts beyond the feed asked for, want %d (one per post whose page lacks its comments)", n, hidden)
	}
}

// TestNewCrawlCommentsFromRESTEndpoint: as above, but two posts' own
// comment feeds list only some of their comments (as a WordPress comment
// feed lists the newest ten); the platform's comments REST endpoint
// (/wp-json/wp/v2/comments, paged, parent ids) is asked for those two
// only, and its answers fill post 9 (three pages) and all but one comment
// of post 13, which stays a shortfall naming the endpoint. The answers
// are archived with the entries, and the reply on post 9 keeps its
// parent.
func TestNewCrawlCommentsFromRESTEndpoint(t *testing.T) {
	b := newTinyBlog(40)
	b.generator = "https://wordpress.org/?v=6.4.2"
	b.onlyInFeeds, b.restAPI = true, true
	b.lost = map[int]int{9: 2, 13: 3}
	b.apiLost = map[int]int{13: 1}
	log := &requestLog{}
	srv := httptest.NewServer(log.Wrap(b))
	defer srv.Close()
	res, out := crawl(t, options("tiny", srv.URL))
	got := out.ByURL(t)
	for i, e := range b.archivedPosts(t, got, srv.URL) {
		if want := b.commentCount(i) - b.apiLost[i]; len(e.Comments) != want {
			t.Errorf("post %d: %d comments archived, want %d", i, len(e.Comments), want)
		}
	}
	if e, ok := got[srv.URL+b.path(9)]; ok {
		api := 0
		for _, f := range e.Files {
			if f.Role == blogharvest.RoleCommentFeed && strings.Contains(f.URL, "/wp-json/") {
				api++
			}
		}
		if api != 3 {
			t.Errorf("post 9: %d answers of the comments API archived, want 3", api)
		}
		reply := fmt.Sprintf("#comment-%d", b.commentID(9, 2))
		parent := fmt.Sprintf("#comment-%d", b.commentID(9, 1))
		for _, c := range e.Comments {
			if strings.HasSuffix(c.URL, reply) && !strings.HasSuffix(c.ParentURL, parent) {
				t.Errorf("post 9: reply %s answers %q, want …%s", c.URL, c.ParentURL, parent)
			}
		}
	}
	short := harvest.Shortfalls(res.Ledger)
	if len(short) != 1 || short[0].URL != srv.URL+b.path(13) || !strings.Contains(short[0].Comments, "archived 3") ||
		!strings.Contains(short[0].Comments, "comments API holds 3") {
		t.Errorf("shortfalls %+v, want post 13: archived 3, comments API holds 3", short)
	}
	asked := map[string]bool{}
	for _, p := range log.All() {
		if strings.HasPrefix(p, "/wp-json/") {
			u, _ := url.Parse(p)
			asked[u.Query().Get("post")] = true
		}
	}
	if len(asked) != 2 || !asked["9"] || !asked["13"] {
		t.Errorf("comments API asked for posts %v, want 9 and 13 only", asked)
	}
}

// TestNewCrawlPostsWithRelatedCards: every post page holds its article and
// an aside of three related-post cards, each an <article>; the posts
// beyond the feed are posts, not listings.
func TestNewCrawlPostsWithRelatedCards(t *testing.T) {
	b := newTinyBlog(40)
	b.cards = true
	srv := httptest.NewServer(b)
	defer srv.Close()
	res, out := crawl(t, options("tiny", srv.URL))
	got := out.ByURL(t)
	for i := 0; i < b.posts; i++ {
		if _, ok := got[srv.URL+b.path(i)]; !ok {
			t.Errorf("post %d not archived", i)
		}
	}
	if len(got) != b.posts {
		t.Errorf("%d entries, want %d", len(got), b.posts)
	}
	for _, r := range res.Ledger {
		if strings.HasPrefix(r.URL, srv.URL+"/page/") && r.Fate != harvest.FateListing {
			t.Errorf("listing %s: fate %s", r.URL, r.Fate)
		}
	}
}

// TestNewCrawlRootLevelPosts: old posts at the site's root (/post-i.html),
// one of them in the feed beside nine dated folders, the others reached
// only through listing links; all are archived as posts.
func TestNewCrawlRootLevelPosts(t *testing.T) {
	b := newTinyBlog(40)
	b.root = map[int]bool{0: true, 1: true, 2: true, 3: true, 4: true, 30: true}
	srv := httptest.NewServer(b)
	defer srv.Close()
	_, out := crawl(t, options("tiny", srv.URL))
	got := out.ByURL(t)
	for i := range b.root {
		e, ok := got[srv.URL+b.path(i)]
		switch {
		case !ok:
			t.Errorf("root-level post %d not archived", i)
		case e.Kind != blogharvest.KindPost || e.Title != b.title(i) || !sameDay(e.Created, b.date(i)):
			t.Errorf("root-level post %d: kind %s, title %q, created %v", i, e.Kind, e.Title, e.Created)
		}
	}
	if len(got) != b.posts {
		t.Errorf("%d entries, want %d", len(got), b.posts)
	}
}

// TestNewCrawlLinkDenseSitemapPost: posts outside the feed's URL pattern,
// reached only through the sitemap, whose articles link to five other
// posts: long articles with their own title and date, archived.
func TestNewCrawlLinkDenseSitemapPost(t *testing.T) {
	b := newTinyBlog(40)
	b.sitemap = true
	b.dense = map[int]bool{4: true, 11: true, 17: true}
	srv := httptest.NewServer(b)
	defer srv.Close()
	res, out := crawl(t, options("tiny", srv.URL))
	got := out.ByURL(t)
	for i := range b.dense {
		if e, ok := got[srv.URL+b.path(i)]; !ok || e.Title != b.title(i) {
			t.Errorf("link-dense post %d: archived %v (%v)", i, ok, kindOf(e))
		}
	}
	if len(got) != b.posts {
		for _, r := range res.Ledger {
			if strings.Contains(r.URL, "/notes/") {
				t.Logf("%s %s %s", r.URL, r.Fate, r.Detail)
			}
		}
		t.Errorf("%d entries, want %d", len(got), b.posts)
	}
}

// TestNewCrawlDatesPagesDoNotShow: a Hugo theme that prints no date on its
// post pages, whose URLs carry none; the posts feed lists the newest ten.
// The others are dated by the section's feed (/notes/index.xml), the two
// it leaves out by the sitemap's lastmod, each with its method.
func TestNewCrawlDatesPagesDoNotShow(t *testing.T) {
	b := newTinyBlog(40)
	b.generator = "Hugo 0.120.4"
	b.flat, b.undated, b.section, b.sitemap = true, true, true, true
	b.unlisted = map[int]bool{3: true, 7: true}
	srv := httptest.NewServer(b)
	defer srv.Close()
	_, out := crawl(t, options("tiny", srv.URL))
	got := out.ByURL(t)
	section := srv.URL + "/notes/index.xml"
	methods := map[blogharvest.Method]int{}
	for i, e := range b.archivedPosts(t, got, srv.URL) {
		if !sameDay(e.Created, b.date(i)) {
			t.Errorf("post %d: created %v, want %v (method %q)", i, e.Created, b.date(i), e.Provenance["date_created"])
			continue
		}
		m := e.Provenance["date_created"]
		methods[m]++
		want := blogharvest.MethodFeed
		if b.unlisted[i] {
			want = blogharvest.MethodSitemap
		}
		if m != want {
			t.Errorf("post %d: date_created by %q, want %q", i, m, want)
		}
		// The evidence of a date from the section's feed is archived: the
		// item in the entry, the feed as captured in the Blog record.
		if i < b.posts-b.feedSize && !b.unlisted[i] && !holdsItem(e.Files, section, srv.URL+b.path(i)) {
			t.Errorf("post %d: dated by %s, but the entry holds no item of it", i, section)
		}
	}
	t.Logf("date methods: %v", methods)
	captured := false
	for _, f := range out.Blogs[0].Files {
		captured = captured || f.Role == blogharvest.RoleFeed && f.URL == section && f.Status == 200 && len(f.Body) > 0
	}
	if !captured {
		t.Errorf("the Blog record holds no capture of %s, which dated %d posts", section, b.posts-b.feedSize-len(b.unlisted))
	}
}

// TestNewCrawlTagsOnlyOnThePage: the feed names no terms; each post's
// footer shows two tags, one rel="tag", one a plain /tags/x/ link; the
// article's own links to /category/ pages are no terms of the post.
func TestNewCrawlTagsOnlyOnThePage(t *testing.T) {
	b := newTinyBlog(30)
	b.tagsOnly = true
	srv := httptest.NewServer(b)
	defer srv.Close()
	_, out := crawl(t, options("tiny", srv.URL))
	got := out.ByURL(t)
	for i, e := range b.archivedPosts(t, got, srv.URL) {
		want := []string{tinyCategories[(i+3)%len(tinyCategories)], tinyCategories[(i+5)%len(tinyCategories)]}
		if !slices.Equal(e.Tags, want) || len(e.Categories) != 0 || e.Provenance["tags"] != blogharvest.MethodHeuristic {
			t.Errorf("post %d: tags %q (%q), categories %q; want tags %q", i, e.Tags, e.Provenance["tags"], e.Categories, want)
		}
	}
}

// holdsItem reports whether files hold a feed item excerpt from feedURL
// that names link.
func holdsItem(files []blogharvest.File, feedURL, link string) bool {
	for _, f := range files {
		if f.Role == blogharvest.RoleFeed && f.URL == feedURL && strings.Contains(string(f.Body), link) {
			return true
		}
	}
	return false
}

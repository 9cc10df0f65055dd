package harvest_test

import (
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
)

// TestRedirectStubs crawls the static fixture blog, three of whose posts
// are first reached through a redirect stub at an old URL linked from the
// home page (the posts are in neither the feed nor the sitemap): a Hugo
// alias page (meta refresh and rel=canonical), a jekyll-redirect-from page
// (meta refresh, canonical, script location=, a "Redirecting…" heading
// and link) and a JavaScript location.replace page. Each real post is
// archived once, with its own title, date and article; the stub's URL is
// an alias of its entry and has the ledger fate stub, naming the post.
func TestRedirectStubs(t *testing.T) {
	site, srv := serve(t, "static", nil)
	o := options("static", srv.URL)
	o.PerHost = 1 // one worker: the stub is processed before its post is reached otherwise
	res, out := crawl(t, o)
	got := out.ByURL(t)
	rows := map[string]harvest.LedgerRow{}
	for _, r := range res.Ledger {
		rows[r.URL] = r
	}
	styles := []string{"hugo-alias", "jekyll-redirect-from", "js-location-replace"}
	n := 0
	for _, p := range site.Truth(srv.URL).Posts {
		if len(p.Stubs) == 0 {
			continue
		}
		if n >= len(styles) {
			t.Fatalf("more stubbed posts than cases: %s", p.URL)
		}
		stub := p.Stubs[0]
		t.Run(styles[n], func(t *testing.T) {
			e := got[p.URL]
			if e == nil {
				t.Fatalf("post %s not archived (ledger: %+v)", p.URL, rows[p.URL])
			}
			checkPost(t, e, p, false, false)
			if words := strings.Fields(p.BodyText); len(words) > 5 && !strings.Contains(stripTags(e.Content), words[0]) {
				t.Errorf("%s: article %.80q lacks the post's text", p.URL, e.Content)
			}
			if !contains(e.Aliases, stub) {
				t.Errorf("%s: aliases %q lack the stub %s", p.URL, e.Aliases, stub)
			}
			if _, ok := got[stub]; ok {
				t.Errorf("stub %s archived as an entry", stub)
			}
			if r := rows[stub]; r.Fate != harvest.FateStub || r.Detail != p.URL {
				t.Errorf("stub %s: ledger %+v, want fate stub to %s", stub, r, p.URL)
			}
			if r := rows[p.URL]; r.Fate != harvest.FateEntry {
				t.Errorf("post %s: ledger %+v, want fate entry", p.URL, r)
			}
		})
		n++
	}
	if n != len(styles) {
		t.Errorf("%d stubbed posts in the truth, want %d", n, len(styles))
	}
	for _, e := range out.Entries {
		if strings.TrimSpace(e.Title) == e.URL || strings.HasPrefix(e.Title, "Redirecting") || e.Title == "Moved" {
			t.Errorf("entry %s: title %q is a stub's", e.URL, e.Title)
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// TestFeedItemLinkingAStub crawls a blog whose feed links two posts
// (the newest, a training page, and an older one) through Hugo alias stubs:
// each post is archived once under its own URL with the feed's values and
// the stub as an alias, and the stubs teach the rules nothing.
func TestFeedItemLinkingAStub(t *testing.T) {
	b := newTinyBlog(25)
	b.stubs = map[int]bool{24: true, 16: true}
	srv := httptest.NewServer(b)
	defer srv.Close()
	res, out := crawl(t, options("tiny", srv.URL))
	got := out.ByURL(t)
	rows := map[string]harvest.LedgerRow{}
	for _, r := range res.Ledger {
		rows[r.URL] = r
	}
	for i := range b.stubs {
		u, stub := srv.URL+b.path(i), srv.URL+"/old/post-"+strconv.Itoa(i)+"/"
		e := got[u]
		if e == nil {
			t.Errorf("post %d (feed item linking %s) not archived; ledger %+v", i, stub, rows[u])
			continue
		}
		if e.Title != b.title(i) || e.AltIdentifier != "tiny-"+strconv.Itoa(i) || !strings.Contains(e.Content, "Paragraph 0 of post") {
			t.Errorf("post %d: title %q guid %q content %.60q: want the feed's and the page's values", i, e.Title, e.AltIdentifier, e.Content)
		}
		if !contains(e.Aliases, stub) {
			t.Errorf("post %d: aliases %q lack the stub %s", i, e.Aliases, stub)
		}
		if r := rows[stub]; r.Fate != harvest.FateStub || r.Detail != u {
			t.Errorf("stub %s: ledger %+v", stub, r)
		}
	}
	if len(got) != b.posts {
		t.Errorf("%d entries, want %d", len(got), b.posts)
	}
}

// TestStubFetchedOnce checks that a redirect stub, a training page among
// them, is fetched once.
func TestStubFetchedOnce(t *testing.T) {
	b := newTinyBlog(25)
	b.stubs = map[int]bool{24: true, 16: true}
	log := &requestLog{}
	srv := httptest.NewServer(log.Wrap(b))
	defer srv.Close()
	crawl(t, options("tiny", srv.URL))
	for i := range b.stubs {
		stub := "/old/post-" + strconv.Itoa(i) + "/"
		if n := log.Count(func(p string) bool { return p == stub }); n != 1 {
			t.Errorf("stub %s fetched %d times, want 1", stub, n)
		}
	}
}

// TestLateRedirectStub crawls a blog whose newest post (read early: a feed
// item) has a redirect stub linked only from its oldest listing page, so
// the stub is met after the post was emitted: the post is emitted again,
// the stub among its aliases, with every other field as before.
func TestLateRedirectStub(t *testing.T) {
	b := newTinyBlog(25)
	const late = "/old/post-24/"
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/page/3/" {
			b.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		b.ServeHTTP(rec, r)
		maps.Copy(w.Header(), rec.Header())
		w.WriteHeader(rec.Code)
		io.WriteString(w, strings.Replace(rec.Body.String(), "</body>", `<p><a href="`+late+`">an old address</a></p></body>`, 1))
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	res, out := crawl(t, options("tiny", srv.URL))
	post, stub := srv.URL+b.path(24), srv.URL+late
	var versions []*blogharvest.Entry
	for _, e := range out.Entries {
		if e.URL == post {
			versions = append(versions, e)
		}
	}
	if len(versions) == 0 {
		t.Fatalf("post %s not archived", post)
	}
	last := versions[len(versions)-1]
	if !contains(last.Aliases, stub) {
		t.Errorf("%d versions of %s emitted; the last one's aliases %q lack the stub %s met late", len(versions), post, last.Aliases, stub)
	}
	if first := versions[0]; last.Title != first.Title || last.Content != first.Content || !last.Created.Equal(first.Created) ||
		last.AltIdentifier != first.AltIdentifier || len(last.Comments) != len(first.Comments) {
		t.Errorf("the version with the stub differs from the first beyond its aliases:\nfirst %+v\nlast  %+v", first, last)
	}
	for _, r := range res.Ledger {
		if r.URL == stub && (r.Fate != harvest.FateStub || r.Detail != post) {
			t.Errorf("stub %s: ledger %+v, want fate stub to %s", stub, r, post)
		}
		if r.URL == post && r.Fate != harvest.FateEntry {
			t.Errorf("post %s: ledger %+v, want fate entry", post, r)
		}
	}
	for _, e := range out.Entries {
		if e.URL != post && contains(e.Aliases, stub) {
			t.Errorf("entry %s claims the stub %s", e.URL, stub)
		}
	}
}

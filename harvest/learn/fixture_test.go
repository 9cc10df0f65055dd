package learn_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/internal/fixture"
	"github.com/mmcdole/gofeed"
)

// TestFixtureBlogs serves each of the project's fixture blogs over
// loopback, learns from the entries of its feed (with their comments as a
// comment feed would give them) and extracts every post the feed does not
// hold, scoring against the fixture's truth.
func TestFixtureBlogs(t *testing.T) {
	for _, name := range fixture.Names() {
		t.Run(name, func(t *testing.T) {
			site := fixture.MustNew(name)
			srv := httptest.NewServer(site.Handler())
			defer srv.Close()
			truth := site.Truth(srv.URL)
			pairs := fixturePairs(t, srv, truth)
			if len(pairs) == 0 {
				t.Fatal("no feed entry paired with a page")
			}
			rules, err := learn.Learn(pairs, learn.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := &blogScore{methods: map[string]int{}}
			for _, p := range truth.Posts {
				if p.InFeed || p.Scripted {
					continue
				}
				page := learn.Page{URL: p.URL, HTML: get(t, p.URL), Lang: truth.Blog.Language}
				x, _ := rules.Extract(page)
				s.scoreExtraction(x, postTarget(t, p))
			}
			t.Logf("%s: article %s title %s author %s date %s comments P %s R %s; by id: author %s parent %s", name, s.art8, s.title,
				s.author, s.date, s.commentP, s.commentR, s.commentAuthor, s.commentParent)
			floor(t, "article", s.art8, 0.95)
			floor(t, "title", s.title, 0.95)
			floor(t, "date", s.date, 0.95)
			floor(t, "author", s.author, 0.95)
			if truth.Blog.Comments == "html" || truth.Blog.Comments == "html+feed" {
				floor(t, "comment precision", s.commentP, 0.9)
				floor(t, "comment recall", s.commentR, 0.9)
				floor(t, "comment author", s.commentAuthor, 0.95)
				if s.threaded { // flat markup (Blogger's <dl> layout) shows no threads to extract
					floor(t, "comment parent", s.commentParent, 0.95)
				}
			}
		})
	}
}

// fixturePairs pairs the feed's entries with their pages.
func fixturePairs(t *testing.T, srv *httptest.Server, truth fixture.Truth) []learn.Pair {
	f, err := gofeed.NewParser().ParseString(string(get(t, truth.Blog.FeedURL)))
	if err != nil {
		t.Fatal(err)
	}
	byURL := map[string]fixture.PostTruth{}
	for _, p := range truth.Posts {
		byURL[p.URL] = p
	}
	var pairs []learn.Pair
	for _, it := range f.Items {
		target := targetOf(it, truth.Blog.FullContentFeed)
		if p, ok := byURL[it.Link]; ok {
			target.Comments = postTarget(t, p).Comments
		}
		pairs = append(pairs, learn.Pair{Page: learn.Page{URL: it.Link, HTML: get(t, it.Link), Lang: truth.Blog.Language}, Target: target})
	}
	return pairs
}

// postTarget returns the truth of a post as a learning target.
func postTarget(t *testing.T, p fixture.PostTruth) learn.Target {
	tg := learn.Target{Title: p.Title, Author: p.Author, Content: p.BodyHTML, FullText: true, Date: parseTime(t, p.Date)}
	for _, c := range p.Comments {
		tg.Comments = append(tg.Comments, learn.CommentTarget{ID: c.ID, Author: c.Author, Date: parseTime(t, c.Date), Content: c.Text, ParentID: c.ParentID})
	}
	return tg
}

func parseTime(t *testing.T, s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	d, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("time %q: %v", s, err)
	}
	return d
}

// get fetches a URL from the loopback server.
func get(t *testing.T, u string) []byte {
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

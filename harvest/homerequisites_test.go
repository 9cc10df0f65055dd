package harvest_test

import (
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
)

// TestHomeRequisites: the home page's stylesheet is captured into the
// Blog record (role requisite) when the crawl captures requisites, and
// not when Options.Requisites is RequisitesNone — the page worker's
// requisite config decides, not the options read by the coordinator.
func TestHomeRequisites(t *testing.T) {
	t.Parallel()
	s := newMiniSite()
	day := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)
	var items []miniItem
	for i, slug := range []string{"heron", "lock"} {
		path := "/posts/" + slug + ".html"
		items = append(items, miniItem{path: path, title: "On the " + slug, body: prose(slug, 3), date: day.AddDate(0, 0, -i), comments: -1})
		s.docs[path] = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>On the ` + slug + `</title></head><body><article><h1>On the ` +
			slug + `</h1>` + prose(slug, 3) + `</article></body></html>`
	}
	s.docs["/feed.xml"] = rss("Canal", "en", items)
	s.docs["/"] = `<!DOCTYPE html><html lang="en"><head><title>Canal</title><link rel="stylesheet" href="{{base}}/home.css">
<link rel="alternate" type="application/rss+xml" href="{{base}}/feed.xml"></head><body><a href="{{base}}/posts/heron.html">Heron</a></body></html>`
	s.docs["/home.css"] = "body { color: #333 }"
	srv := s.start(t)
	css := srv.URL + "/home.css"

	captured := func(o harvest.Options) bool {
		t.Helper()
		_, out := crawl(t, o)
		if len(out.Blogs) != 1 {
			t.Fatalf("%d Blog records, want 1", len(out.Blogs))
		}
		for _, f := range out.Blogs[0].Files {
			if f.URL == css && f.Role == blogharvest.RoleRequisite {
				return true
			}
		}
		return false
	}
	o := options("canal", srv.URL)
	o.Requisites = harvest.RequisitesAll
	if !captured(o) {
		t.Errorf("Requisites all: the home page's stylesheet %s is not in the Blog record", css)
	}
	o.Requisites = harvest.RequisitesNone
	if captured(o) {
		t.Errorf("Requisites none: the home page's stylesheet %s is in the Blog record", css)
	}
}

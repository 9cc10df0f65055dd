package harvest_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
)

// hugoSections is a Hugo blog whose posts sit under section folders
// (/posts/<slug>/, /notes/<slug>/, /talks/<slug>/), each post page with a
// breadcrumb to its section and links to the previous and next post of its
// section; the section index pages list their posts under an introduction;
// the home page is a meta refresh to /posts/ with no feed link; the feed
// (given) lists the site's newest regular pages: the newest posts, all of
// the main section, and two root pages (/about/, /uses/) edited lately.
type hugoSections struct {
	site  *miniSite
	posts map[string]string // path → title of every post
	pages []string          // the root pages
	index []string          // the section index pages
}

func newHugoSections() *hugoSections {
	h := &hugoSections{site: newMiniSite(), posts: map[string]string{}}
	sections := []struct {
		name, title string
		n           int
	}{{"posts", "Posts", 10}, {"notes", "Notes", 6}, {"talks", "Talks", 4}}
	start := time.Date(2019, 1, 7, 10, 0, 0, 0, time.UTC)
	var feedItems []miniItem
	k := 0
	for _, sec := range sections {
		var list strings.Builder
		paths := make([]string, sec.n)
		for i := range paths {
			paths[i] = fmt.Sprintf("/%s/%s-on-the-canal-%d/", sec.name, sec.name, i)
		}
		for i := sec.n - 1; i >= 0; i-- {
			date := start.AddDate(0, 0, 9*k+3*i)
			if sec.name == "posts" {
				date = start.AddDate(2, 0, 5*i) // the main section holds the newest posts
			}
			k++
			title := fmt.Sprintf("%s %d: what the lock keeper said", sec.title, i)
			h.posts[paths[i]] = title
			var nav strings.Builder
			if i > 0 {
				fmt.Fprintf(&nav, `<a class="prev" href="{{base}}%s"><span class="title">« Prev</span><br><span>%s %d: what the lock keeper said</span></a>`, paths[i-1], sec.title, i-1)
			}
			if i < sec.n-1 {
				fmt.Fprintf(&nav, `<a class="next" href="{{base}}%s"><span class="title">Next »</span><br><span>%s %d: what the lock keeper said</span></a>`, paths[i+1], sec.title, i+1)
			}
			body := prose(fmt.Sprintf("%s number %d", sec.name, i), 5)
			h.site.docs[paths[i]] = hugoPage(title, fmt.Sprintf(`<article class="post-single">
<header class="post-header"><div class="breadcrumbs"><a href="{{base}}/">Home</a>&nbsp;»&nbsp;<a href="{{base}}/%s/">%s</a></div>
<h1 class="post-title">%s</h1>
<div class="post-meta"><span title="%s">%s</span>&nbsp;·&nbsp;Ada Lock</div></header>
<div class="post-content">%s</div>
<footer class="post-footer"><ul class="post-tags"><li><a href="{{base}}/tags/canals/">canals</a></li></ul>
<nav class="paginav">%s</nav></footer></article>`, sec.name, sec.title, title, date.Format("2006-01-02 15:04:05 -0700 MST"), date.Format("January 2, 2006"), body, nav.String()))
			fmt.Fprintf(&list, `<li><span class="date">%s</span> <a href="{{base}}%s">%s</a></li>`, date.Format("2006/01/02"), paths[i], title)
			if sec.name == "posts" && i >= sec.n-5 {
				feedItems = append(feedItems, miniItem{path: paths[i], title: title, body: body, date: date, comments: -1})
			}
		}
		h.index = append(h.index, "/"+sec.name+"/")
		h.site.docs["/"+sec.name+"/"] = hugoPage(sec.title, fmt.Sprintf(`<h1>%s</h1>
<div class="intro"><p>This section gathers the %s written along the canal over the years: short pieces on locks, mills, herons
and the people who keep the water moving, collected here in the order they were written, newest first, with the day each was
published beside its title so that a reader can follow the seasons as they pass along the towpath.</p></div>
<ul class="list">%s</ul>`, sec.title, strings.ToLower(sec.title), list.String()))
	}
	for i, p := range []string{"/about/", "/uses/"} {
		title := map[string]string{"/about/": "About this site", "/uses/": "Tools I use"}[p]
		body := prose("this site "+p, 3)
		h.pages = append(h.pages, p)
		h.site.docs[p] = hugoPage(title, `<article class="post-single"><header class="post-header"><h1 class="post-title">`+title+
			`</h1></header><div class="post-content">`+body+`</div></article>`)
		feedItems = append([]miniItem{{path: p, title: title, body: body, date: start.AddDate(3, 0, i), comments: -1}}, feedItems...)
	}
	h.site.docs["/index.xml"] = rss("Along the canal", "en", feedItems)
	h.site.docs["/tags/canals/"] = hugoPage("canals", `<h1>canals</h1><ul><li><a href="{{base}}/posts/posts-on-the-canal-9/">Posts 9</a></li></ul>`)
	h.site.docs["/"] = `<!DOCTYPE html><html lang="en"><head><title>{{base}}/posts/</title><link rel="canonical" href="{{base}}/posts/"><meta charset="utf-8"><meta http-equiv="refresh" content="0; url={{base}}/posts/"></head></html>`
	return h
}

// hugoPage wraps main in the frame every page of hugoSections shares.
func hugoPage(title, main string) string {
	return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>` + title + ` | Along the canal</title></head><body>
<header class="header"><nav class="nav"><a href="{{base}}/posts/" accesskey="h">Along the canal</a><ul id="menu">
<li><a href="{{base}}/posts/">Posts</a></li><li><a href="{{base}}/notes/">Notes</a></li><li><a href="{{base}}/talks/">Talks</a></li>
<li><a href="{{base}}/about/">About</a></li></ul></nav></header>
<main class="main">` + main + `</main>
<footer class="footer"><span>&copy; Ada Lock</span></footer></body></html>`
}

// TestNewCrawlHugoSections: every post of every section is archived as a
// post, whatever section it sits in; the section index pages are not
// posts; the root pages the feed lists are pages (issue 36, cause 1).
func TestNewCrawlHugoSections(t *testing.T) {
	h := newHugoSections()
	srv := h.site.start(t)
	o := options("sections", srv.URL)
	o.Blog.FeedURL = srv.URL + "/index.xml"
	res, out := crawl(t, o)
	got := out.ByURL(t)
	missing := 0
	for _, p := range sortedKeys(h.posts) {
		e, ok := got[srv.URL+p]
		switch {
		case !ok:
			missing++
			row := ""
			for _, r := range res.Ledger {
				if r.URL == srv.URL+p {
					row = string(r.Fate) + " " + r.Detail
				}
			}
			t.Errorf("post %s not archived (ledger: %s)", p, row)
		case e.Kind != blogharvest.KindPost:
			t.Errorf("post %s archived as a %s", p, e.Kind)
		case e.Title != h.posts[p]:
			t.Errorf("post %s: title %q, want %q", p, e.Title, h.posts[p])
		}
	}
	for _, p := range h.index {
		if e, ok := got[srv.URL+p]; ok && e.Kind == blogharvest.KindPost {
			t.Errorf("section index %s archived as a post", p)
		}
	}
	for _, p := range h.pages {
		if e, ok := got[srv.URL+p]; !ok || e.Kind != blogharvest.KindPage {
			t.Errorf("root page %s: archived %v, kind %v; want a page", p, ok, kindOf(e))
		}
	}
	t.Logf("%d/%d posts archived; pattern %s; %d entries", len(h.posts)-missing, len(h.posts), res.Pattern, len(out.Entries))
	_ = harvest.Shortfalls
}

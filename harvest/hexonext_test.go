package harvest_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
)

// hexoNext is a Hexo blog with the NexT theme: posts at
// /YYYY/MM/DD/<slug>/, two of them in a subfolder of the sources
// (/YYYY/MM/DD/notes/<slug>/: outside the feed's URL pattern), each post's
// <article> ending in the theme's post navigation, links to the previous
// and next post with rel="prev" and rel="next"; the home page and
// /page/N/ list five summaries each; the Atom feed lists the newest ten.
func hexoNext(n int, sub map[int]bool) (*miniSite, map[string]string) {
	s := newMiniSite()
	start := time.Date(2020, 2, 3, 2, 0, 0, 0, time.UTC)
	paths, titles := make([]string, n), map[string]string{}
	for i := range paths {
		d := start.AddDate(0, 0, 4*i)
		slug := fmt.Sprintf("lock-keeper-%d", i)
		if sub[i] {
			slug = "notes/" + slug
		}
		paths[i] = d.Format("/2006/01/02/") + slug + "/"
	}
	var atom strings.Builder
	atom.WriteString(`<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Canal notes</title><link href="{{base}}/atom.xml" rel="self"/><link href="{{base}}/"/><updated>2021-01-01T00:00:00.000Z</updated><id>{{base}}/</id><author><name>Ada Lock</name></author>` + "\n")
	for i := n - 1; i >= 0; i-- {
		d := start.AddDate(0, 0, 4*i)
		title := fmt.Sprintf("What the lock keeper said, part %d", i)
		titles[paths[i]] = title
		body := prose(fmt.Sprintf("lock number %d", i), 5)
		var nav strings.Builder
		if i > 0 {
			fmt.Fprintf(&nav, `<div class="post-nav-item"><a href="%s" rel="prev" title="What the lock keeper said, part %d"><i class="fa fa-chevron-left"></i> What the lock keeper said, part %d</a></div>`, paths[i-1], i-1, i-1)
		}
		if i < n-1 {
			fmt.Fprintf(&nav, `<div class="post-nav-item"><a href="%s" rel="next" title="What the lock keeper said, part %d">What the lock keeper said, part %d <i class="fa fa-chevron-right"></i></a></div>`, paths[i+1], i+1, i+1)
		}
		s.docs[paths[i]] = nextPage(title, fmt.Sprintf(`<div class="post-block"><article itemscope itemtype="http://schema.org/Article" class="post-block" lang="en">
<link itemprop="mainEntityOfPage" href="{{base}}%s">
<header class="post-header"><h1 class="post-title" itemprop="name headline">%s</h1>
<div class="post-meta"><span class="post-meta-item"><time title="Created: %s" itemprop="dateCreated datePublished" datetime="%s">%s</time></span></div></header>
<div class="post-body" itemprop="articleBody">%s</div>
<footer class="post-footer"><div class="post-tags"><a href="/tags/canals/" rel="tag"># canals</a></div>
<div class="post-nav">%s</div></footer></article></div>`, paths[i], title, d.Format("2006-01-02 15:04:05"), d.Format(time.RFC3339), d.Format("2006-01-02"), body, nav.String()))
		if i >= n-10 {
			fmt.Fprintf(&atom, `<entry><title>%s</title><link href="{{base}}%s"/><id>{{base}}%s</id><published>%s</published><updated>%s</updated><content type="html"><![CDATA[%s]]></content></entry>`+"\n",
				title, paths[i], paths[i], d.Format(time.RFC3339), d.Format(time.RFC3339), body)
		}
	}
	atom.WriteString("</feed>\n")
	s.docs["/atom.xml"] = atom.String()
	for pg := 1; (pg-1)*5 < n; pg++ {
		var list strings.Builder
		for i := n - 1 - (pg-1)*5; i >= 0 && i > n-1-pg*5; i-- {
			fmt.Fprintf(&list, `<article class="post-block"><header class="post-header"><h2 class="post-title"><a href="%s" class="post-title-link" itemprop="url">%s</a></h2></header><div class="post-body"><p>A few words on lock number %d.</p><div class="post-button"><a class="btn" href="%s#more" rel="contents">Read more &raquo;</a></div></div></article>`, paths[i], titles[paths[i]], i, paths[i])
		}
		if pg*5 < n {
			fmt.Fprintf(&list, `<nav class="pagination"><a class="extend next" rel="next" href="/page/%d/">Next</a></nav>`, pg+1)
		}
		path := fmt.Sprintf("/page/%d/", pg)
		if pg == 1 {
			path = "/"
		}
		s.docs[path] = nextPage("Canal notes", list.String())
	}
	return s, titles
}

// nextPage wraps main in the NexT theme's frame.
func nextPage(title, main string) string {
	return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>` + title + ` | Canal notes</title>
<link rel="alternate" href="/atom.xml" title="Canal notes" type="application/atom+xml"></head><body>
<header class="header"><div class="site-brand-container"><a href="/" class="brand" rel="start"><h1 class="site-title">Canal notes</h1></a></div>
<nav class="site-nav"><ul id="menu" class="main-menu menu"><li class="menu-item"><a href="/" rel="section">Home</a></li><li class="menu-item"><a href="/archives/" rel="section">Archives</a></li></ul></nav></header>
<main class="main"><div class="content-wrap"><div class="content">` + main + `</div></div></main>
<footer class="footer"><div class="copyright">&copy; 2021 Ada Lock</div></footer></body></html>`
}

// TestNewCrawlHexoNextRelNext: the two posts outside the feed's URL
// pattern are archived as posts, although the theme's rel="next" link to
// another post sits inside their <article>: every post of the blog has
// one, so it says nothing of a summary (issue 36, cause 2).
func TestNewCrawlHexoNextRelNext(t *testing.T) {
	s, titles := hexoNext(24, map[int]bool{3: true, 7: true})
	srv := s.start(t)
	res, out := crawl(t, options("hexo", srv.URL))
	got := out.ByURL(t)
	for _, p := range sortedKeys(titles) {
		e, ok := got[srv.URL+p]
		switch {
		case !ok:
			row := ""
			for _, r := range res.Ledger {
				if r.URL == srv.URL+p {
					row = string(r.Fate) + " " + r.Detail
				}
			}
			t.Errorf("post %s not archived (ledger: %s)", p, row)
		case e.Kind != blogharvest.KindPost:
			t.Errorf("post %s archived as a %s", p, e.Kind)
		}
	}
	for _, e := range out.Entries {
		if _, ok := titles[strings.TrimPrefix(e.URL, srv.URL)]; !ok && e.Kind == blogharvest.KindPost {
			t.Errorf("%s archived as a post (%q)", e.URL, e.Title)
		}
	}
	t.Logf("pattern %s; %d entries", res.Pattern, len(out.Entries))
}

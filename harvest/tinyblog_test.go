package harvest_test

import (
	"compress/gzip"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
)

// tinyBlog is a generated blog small in code but any size in posts: a
// home page and /page/N/ listings of perPage posts, an RSS feed of the
// newest feedSize posts, and post pages /YYYY/MM/DD/post-i/ (i = 0 is the
// oldest). Item links can be sent off-site with offsite.
type tinyBlog struct {
	posts    int
	perPage  int
	feedSize int
	offsite  string // base URL the feed's newest item links to instead; empty for none
	locked   int    // index of a password-protected post; -1 for none
	scripted int    // index of a post whose article JavaScript writes; -1 for none
	sitemap  bool   // no "older posts" links: only robots.txt's gzipped sitemap lists old posts
	// canonical maps a post's index to the URL path its rel=canonical
	// names instead of its own (a theme's mistake); nil for none.
	canonical map[int]string
	// stubs are the indexes of posts whose feed item links to a redirect
	// stub (a Hugo alias page at /old/post-i/) instead of the post.
	stubs map[int]bool
	// empty are the indexes of posts whose page is an empty document.
	empty map[int]bool
	// generator is the feed's <generator> ("https://wordpress.org/?v=6.4"
	// makes the blog a WordPress one); empty for none.
	generator string
	// onlyInFeeds moves the comments of the posts beyond the feed off
	// their pages, as a lazy-loading plugin does: the page states their
	// number (a JSON-LD commentCount and a "N Comments" link) and a
	// script would load them; they are in the post's own comment feed
	// <post>/feed/, which the page does not advertise.
	onlyInFeeds bool
	// lost maps a post's index to how many of its comments its comment
	// feed lacks (held for moderation, say): a shortfall no source fills.
	lost map[int]int
	// cards puts three related-post cards, each an <article>, in an
	// aside after every post's article.
	cards bool
	// root are the indexes of posts at the site's root (/post-i.html),
	// with no folder of their own, as old posts of a moved blog are.
	root map[int]bool
	// flat puts every post under /notes/post-i/: no date in the URL.
	flat bool
	// dense are the indexes of posts under /notes/post-i/ (outside the
	// feed's URL pattern) whose article links to five other posts.
	dense map[int]bool
	// undated drops the date from post pages, as some themes do.
	undated bool
	// section serves /notes/index.xml, the section's feed (Hugo keeps one
	// per section), listing every post but those in unlisted.
	section  bool
	unlisted map[int]bool
	// tagsOnly replaces the category link of a post's footer by two tag
	// links, one rel="tag", one a plain link to /tags/x/; the feed names
	// no terms.
	tagsOnly bool
	// restAPI serves WordPress's comments REST endpoint
	// (/wp-json/wp/v2/comments?post=i&page=n, two comments a page
	// whatever per_page asks, with parent ids) and gives post pages a
	// shortlink (/?p=i); apiLost maps a post's index to how many of its
	// comments the endpoint lacks too.
	restAPI bool
	apiLost map[int]int
	// atomTwin serves the feed's Atom twin at /feed/atom/, as WordPress
	// does, whose <updated> is a day after each post's date.
	atomTwin bool
	start    time.Time
}

func newTinyBlog(posts int) *tinyBlog {
	return &tinyBlog{posts: posts, perPage: 10, feedSize: 10, locked: -1, scripted: -1, start: time.Date(2010, 1, 1, 8, 0, 0, 0, time.UTC)}
}

func (b *tinyBlog) date(i int) time.Time { return b.start.Add(time.Duration(i) * 7 * time.Hour) }

func (b *tinyBlog) path(i int) string {
	switch {
	case b.root[i]:
		return "/post-" + strconv.Itoa(i) + ".html"
	case b.flat || b.dense[i]:
		return "/notes/post-" + strconv.Itoa(i) + "/"
	}
	return b.date(i).Format("/2006/01/02/") + "post-" + strconv.Itoa(i) + "/"
}

// index returns the index of the post at path, or -1. It reads the
// number after the path's last "post-" and checks that post's path, so a
// request costs the same on a 10 000-post blog as on a small one (a scan of
// every post's path made the whole-crawl benchmark's own server quadratic:
// 9.3 of the 34 million objects a 2 000-post crawl allocated).
func (b *tinyBlog) index(path string) int {
	k := strings.LastIndex(path, "post-")
	if k < 0 {
		return -1
	}
	digits := path[k+len("post-"):]
	if end := strings.IndexAny(digits, "./"); end >= 0 {
		digits = digits[:end]
	}
	i, err := strconv.Atoi(digits)
	if err != nil || i < 0 || i >= b.posts || b.path(i) != path {
		return -1
	}
	return i
}

func (b *tinyBlog) title(i int) string {
	return fmt.Sprintf("Notes number %d on rivers and bridges", i)
}

func (b *tinyBlog) body(i int) string {
	if i == b.locked {
		return `<form action="/wp-login.php?action=postpass" class="post-password-form" method="post">
<p>This content is password protected. To view it please enter your password below:</p>
<p><label>Password: <input name="post_password" type="password" size="20"></label></p></form>`
	}
	var s strings.Builder
	for k := 0; k < 6+i%7; k++ {
		fmt.Fprintf(&s, "<p>Paragraph %d of post %d: the tide came in slowly over the old harbour wall while we "+
			"counted the boats, mended the nets and talked about <a href=\"/category/%s/\">%s</a>, bridges and the long walk home.</p>\n",
			k, i, tinyCategories[(i+k)%len(tinyCategories)], tinyCategories[(i+k)%len(tinyCategories)])
		if k == 2 {
			s.WriteString("<blockquote><p>The river does not hurry, yet it gets there.</p></blockquote>\n")
		}
	}
	if b.dense[i] {
		s.WriteString("<p>Read on along the river:</p><ul>")
		for k := 1; k <= 5; k++ {
			r := (i + k) % b.posts
			fmt.Fprintf(&s, `<li><a href="%s">%s</a>, where the walk continues past the old mill and the lock keeper's house.</li>`, b.path(r), b.title(r))
		}
		s.WriteString("</ul>")
	}
	return s.String()
}

func (b *tinyBlog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	base := "http://" + r.Host
	p := r.URL.Path
	switch {
	case p == "/":
		b.listing(w, base, 1)
	case strings.HasPrefix(p, "/page/"):
		n, err := strconv.Atoi(strings.Trim(strings.TrimPrefix(p, "/page/"), "/"))
		if err != nil || n < 1 || (n-1)*b.perPage >= b.posts {
			http.NotFound(w, r)
			return
		}
		b.listing(w, base, n)
	case strings.HasPrefix(p, "/old/post-"):
		to := base + "/" // a stub of a post the blog does not have leads home
		if i, err := strconv.Atoi(strings.Trim(strings.TrimPrefix(p, "/old/post-"), "/")); err == nil && i >= 0 && i < b.posts {
			to = base + b.path(i)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><html lang="en-us"><head><title>%s</title><link rel="canonical" href="%s"><meta name="robots" content="noindex"><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=%s"></head></html>`, to, to, to)
	case p == "/feed/":
		b.feed(w, base)
	case b.section && p == "/notes/index.xml":
		b.sectionFeed(w, base)
	case b.onlyInFeeds && strings.HasSuffix(p, "/feed/"):
		b.commentFeed(w, r, base, strings.TrimSuffix(p, "feed/"))
	case b.atomTwin && p == "/feed/atom/":
		b.atomFeed(w, base)
	case b.restAPI && p == "/wp-json/wp/v2/comments":
		b.commentsAPI(w, r, base)
	case p == "/robots.txt" && b.sitemap:
		fmt.Fprintf(w, "User-agent: *\nDisallow: /private/\nSitemap: %s/sitemaps/all.xml.gz\n", base)
	case p == "/sitemaps/all.xml.gz" && b.sitemap:
		b.sitemapGz(w, base)
	default:
		b.post(w, r, base)
	}
}

// page writes the frame every HTML page shares, shaped like a WordPress
// theme's: a head with styles, metadata and scripts, a header with the
// site's navigation, the main column, a sidebar of widgets and a footer.
// Pages weigh 20–35 KB, as real blog pages do (before images).
func (b *tinyBlog) page(w http.ResponseWriter, base, title, canonical, main string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!DOCTYPE html>
<html lang="en-US">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s &#8211; Tiny blog</title>
<link rel="alternate" type="application/rss+xml" title="Tiny blog &raquo; Feed" href="%s/feed/">
<link rel="canonical" href="%s">%s
<link rel="stylesheet" id="theme-css" href="%s/wp-content/themes/tiny/style.css?ver=6.4" media="all">
<style id="tiny-inline-css">%s</style>
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage","@id":"%s","url":"%s","name":"%s","isPartOf":{"@id":"%s/#website"},"inLanguage":"en-US"},{"@type":"WebSite","@id":"%s/#website","url":"%s/","name":"Tiny blog","description":"Notes on rivers, bridges and the weather","inLanguage":"en-US"}]}</script>
<script>window._wpemojiSettings = {"baseUrl":"https:\/\/s.w.org\/images\/core\/emoji\/14.0.0\/72x72\/","ext":".png","source":{"concatemoji":"%s\/wp-includes\/js\/wp-emoji-release.min.js?ver=6.4"}};
%s</script>
</head>
<body class="post-template-default single single-post">
<div id="page" class="site"><a class="skip-link screen-reader-text" href="#content">Skip to content</a>
<header id="masthead" class="site-header"><div class="site-branding"><p class="site-title"><a href="%s/" rel="home">Tiny blog</a></p>
<p class="site-description">Notes on rivers, bridges and the weather</p></div>
<nav id="site-navigation" class="main-navigation"><ul id="primary-menu" class="menu">%s</ul></nav></header>
<div id="content" class="site-content"><div id="primary" class="content-area"><main id="main" class="site-main">
%s
</main></div>
%s
</div>
<footer id="colophon" class="site-footer"><div class="site-info">Proudly powered by a tiny server. &copy; 2010&ndash;2018 Ann Walker.</div></footer></div>
<script src="%s/wp-content/themes/tiny/js/navigation.js?ver=1.0" id="tiny-navigation-js"></script>
<script>document.querySelectorAll('.menu-toggle').forEach(function(b){b.addEventListener('click',function(){b.parentNode.classList.toggle('toggled')})});</script>
</body>
</html>`, title, base, canonical, b.shortlink(base, canonical), base, tinyCSS, canonical, canonical, title, base, base, base, base, tinyJS, base, b.menu(base), main, b.sidebar(base), base)
}

// tinyCSS is the theme's inline style sheet (about 11 KB, as WordPress's
// global styles are).
var tinyCSS = func() string {
	var s strings.Builder
	for _, c := range []string{"black", "cyan-bluish-gray", "white", "pale-pink", "vivid-red", "luminous-vivid-orange",
		"luminous-vivid-amber", "light-green-cyan", "vivid-green-cyan", "pale-cyan-blue", "vivid-cyan-blue", "vivid-purple"} {
		fmt.Fprintf(&s, ".has-%s-color{color: var(--wp--preset--color--%s) !important;}.has-%s-background-color{background-color: var(--wp--preset--color--%s) !important;}.has-%s-border-color{border-color: var(--wp--preset--color--%s) !important;}\n", c, c, c, c, c, c)
	}
	for _, sel := range []string{"body", ".site", ".site-header", ".site-title", ".site-description", ".main-navigation",
		".menu", ".menu li", ".menu a", ".content-area", ".site-main", ".entry-header", ".entry-title", ".entry-meta",
		".entry-content", ".entry-content p", ".entry-footer", ".cat-links", ".tags-links", ".post-navigation",
		".nav-previous", ".nav-next", ".comments-area", ".comment-list", ".comment-body", ".comment-meta",
		".comment-author", ".comment-content", ".reply", ".comment-respond", ".widget-area", ".widget", ".widget-title",
		".search-form", ".site-footer", ".screen-reader-text", ".avatar", "blockquote", "pre", "code"} {
		fmt.Fprintf(&s, "%s{margin:0 0 1.5em;padding:0;font-family:Georgia,'Times New Roman',serif;font-size:1rem;line-height:1.6;color:#333;background:transparent}\n", sel)
	}
	return s.String()
}()

// tinyJS is the theme's inline script (about 6 KB, as WordPress's emoji
// loader is).
var tinyJS = func() string {
	var s strings.Builder
	for k := 0; s.Len() < 6000; k++ {
		fmt.Fprintf(&s, "!function(i,n){var o%d,s,e;function c(e){try{var t={supportTests:e,timestamp:(new Date).valueOf()};sessionStorage.setItem(o%d,JSON.stringify(t))}catch(e){}}if(n.readyState!==\"loading\"){c(%d)}}(window,document);\n", k, k, k)
	}
	return s.String()
}()

// menu is the header's navigation: home and the categories.
func (b *tinyBlog) menu(base string) string {
	var s strings.Builder
	fmt.Fprintf(&s, `<li class="menu-item"><a href="%s/">Home</a></li>`, base)
	for _, c := range tinyCategories[:5] {
		fmt.Fprintf(&s, `<li class="menu-item menu-item-type-taxonomy"><a href="%s/category/%s/">%s</a></li>`, base, c, strings.ToTitle(c[:1])+c[1:])
	}
	return s.String()
}

// tinyCategories are the blog's categories.
var tinyCategories = []string{"rivers", "bridges", "weather", "harbours", "walks", "boats", "tides", "maps"}

// sidebar is the widget area: search, recent posts, recent comments,
// archives (the last twelve months), categories and meta links.
func (b *tinyBlog) sidebar(base string) string {
	var s strings.Builder
	s.WriteString(`<aside id="secondary" class="widget-area"><section id="search-2" class="widget widget_search">` +
		`<form role="search" method="get" class="search-form" action="/"><label><span class="screen-reader-text">Search for:</span>` +
		`<input type="search" class="search-field" placeholder="Search &hellip;" value="" name="s"></label>` +
		`<input type="submit" class="search-submit" value="Search"></form></section>` +
		`<section id="recent-posts-2" class="widget widget_recent_entries"><h2 class="widget-title">Recent Posts</h2><ul>`)
	for i := b.posts - 1; i >= 0 && i >= b.posts-5; i-- {
		fmt.Fprintf(&s, "<li><a href=\"%s%s\">%s</a></li>\n", base, b.path(i), b.title(i))
	}
	s.WriteString(`</ul></section><section id="recent-comments-2" class="widget widget_recent_comments"><h2 class="widget-title">Recent Comments</h2><ul id="recentcomments">`)
	for k, i := 0, b.posts-1; k < 5 && i >= 0 && i >= b.posts-b.feedSize; i-- { // comments come on recent posts
		if b.commentCount(i) > 0 {
			fmt.Fprintf(&s, `<li class="recentcomments"><span class="comment-author-link">%s</span> on <a href="%s%s#comment-%d">%s</a></li>`,
				tinyReaders[i%len(tinyReaders)], base, b.path(i), b.commentID(i, 0), b.title(i))
			k++
		}
	}
	s.WriteString(`</ul></section><section id="archives-2" class="widget widget_archive"><h2 class="widget-title">Archives</h2><ul>`)
	last := b.date(b.posts - 1)
	for m := 0; m < 12; m++ {
		d := time.Date(last.Year(), last.Month()-time.Month(m), 1, 0, 0, 0, 0, time.UTC)
		fmt.Fprintf(&s, "<li><a href=\"%s%s\">%s</a></li>\n", base, d.Format("/2006/01/"), d.Format("January 2006"))
	}
	s.WriteString(`</ul></section><section id="categories-2" class="widget widget_categories"><h2 class="widget-title">Categories</h2><ul>`)
	for _, c := range tinyCategories {
		fmt.Fprintf(&s, `<li class="cat-item"><a href="%s/category/%s/">%s</a></li>`, base, c, c)
	}
	s.WriteString(`</ul></section><section id="meta-2" class="widget widget_meta"><h2 class="widget-title">Meta</h2><ul>` +
		`<li><a href="/wp-login.php">Log in</a></li><li><a href="/feed/">Entries feed</a></li>` +
		`<li><a href="https://wordpress.org/">WordPress.org</a></li></ul></section></aside>`)
	return s.String()
}

func (b *tinyBlog) listing(w http.ResponseWriter, base string, n int) {
	var s strings.Builder
	newest := b.posts - 1 - (n-1)*b.perPage
	for i := newest; i > newest-b.perPage && i >= 0; i-- {
		fmt.Fprintf(&s, `<article class="post type-post status-publish hentry"><header class="entry-header"><h2 class="entry-title"><a href="%s%s" rel="bookmark">%s</a></h2></header>`+
			`<div class="entry-summary"><p>%s&hellip;</p></div></article>`+"\n", base, b.path(i), b.title(i), b.summary(i))
	}
	if newest-b.perPage >= 0 && !b.sitemap {
		fmt.Fprintf(&s, "<a class=\"next\" href=\"%s/page/%d/\">Older posts</a>", base, n+1)
	}
	canonical := fmt.Sprintf("%s/page/%d/", base, n)
	if n == 1 {
		canonical = base + "/"
	}
	b.page(w, base, "Tiny blog", canonical, s.String())
}

// summary is the start of a post's first paragraph.
func (b *tinyBlog) summary(i int) string {
	return fmt.Sprintf("Paragraph 0 of post %d: the tide came in slowly over the old harbour wall", i)
}

func (b *tinyBlog) post(w http.ResponseWriter, r *http.Request, base string) {
	i := b.index(r.URL.Path)
	if i < 0 {
		if tinyArchive.MatchString(r.URL.Path) || strings.HasPrefix(r.URL.Path, "/category/") || r.URL.Path == "/author/ann/" {
			b.listing(w, base, 1) // month, category and author archives: the newest posts will do
			return
		}
		http.NotFound(w, r)
		return
	}
	if b.empty[i] {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body></body></html>")
		return
	}
	body := b.body(i)
	if i == b.scripted {
		body = "<script>document.currentScript.parentNode.innerHTML = " + strconv.Quote(body) + ";</script>"
	}
	cat := tinyCategories[i%len(tinyCategories)]
	comments := b.comments(base, i)
	meta := ""
	if b.hidesComments(i) {
		n := b.commentCount(i)
		meta = fmt.Sprintf(` &middot; <a href="%s%s#comments">%d Comments</a>`, base, b.path(i), n)
		comments = fmt.Sprintf(`<script type="application/ld+json">{"@context":"https://schema.org","@type":"BlogPosting","headline":%q,"commentCount":%d}</script>`+
			`<div id="comments" class="comments-area"><p class="loading">Loading comments&hellip;</p>`+
			`<script src="%s/wp-content/plugins/lazy-comments/load.js" defer></script></div>`, b.title(i), n, base)
	}
	if b.cards {
		comments += b.relatedCards(base, i)
	}
	footer := fmt.Sprintf(`<span class="cat-links">Posted in <a href="%s/category/%s/" rel="category tag">%s</a></span>`, base, cat, cat)
	if b.tagsOnly {
		t1, t2 := tinyCategories[(i+3)%len(tinyCategories)], tinyCategories[(i+5)%len(tinyCategories)]
		footer = fmt.Sprintf(`<span class="tags-links">Tagged <a href="%s/tag/%s/" rel="tag">%s</a>, <a href="%s/tags/%s/">%s</a></span>`, base, t1, t1, base, t2, t2)
	}
	byline := fmt.Sprintf(` on <time class="published" datetime="%s">%s</time>`, b.date(i).Format(time.RFC3339), b.date(i).Format("January 2, 2006"))
	if b.undated {
		byline = ""
	}
	main := fmt.Sprintf(`<article id="post-%d" class="post-%d post type-post status-publish format-standard hentry category-%s">
<header class="entry-header"><h1 class="entry-title">%s</h1>
<div class="entry-meta"><p class="byline">By <span class="author vcard"><a class="url fn n" href="%s/author/ann/">Ann Walker</a></span>%s%s</p></div></header>
<div class="entry-content">%s</div>
<footer class="entry-footer">%s</footer></article>
%s%s`, i, i, cat, b.title(i), base, byline, meta, body, footer, b.postNav(base, i), comments)
	canon := base + b.path(i)
	if p, ok := b.canonical[i]; ok {
		canon = base + p
	}
	b.page(w, base, b.title(i), canon, main)
}

// tinyArchive matches a month archive's path.
var tinyArchive = regexp.MustCompile(`^/\d{4}/\d{2}/$`)

// postNav links a post to its neighbours.
func (b *tinyBlog) postNav(base string, i int) string {
	var s strings.Builder
	s.WriteString(`<nav class="navigation post-navigation" aria-label="Posts"><h2 class="screen-reader-text">Post navigation</h2><div class="nav-links">`)
	if i > 0 {
		fmt.Fprintf(&s, `<div class="nav-previous"><a href="%s%s" rel="prev">%s</a></div>`, base, b.path(i-1), b.title(i-1))
	}
	if i+1 < b.posts {
		fmt.Fprintf(&s, `<div class="nav-next"><a href="%s%s" rel="next">%s</a></div>`, base, b.path(i+1), b.title(i+1))
	}
	s.WriteString(`</div></nav>`)
	return s.String()
}

// tinyReaders are the names comments are signed with.
var tinyReaders = []string{"Bea Harbour", "Carl Tide", "Dora Bridge", "Eli Marsh", "Fay Heron"}

// commentCount is how many comments post i has: one post in four has
// some, up to five.
func (b *tinyBlog) commentCount(i int) int {
	if i%4 != 1 {
		return 0
	}
	return 1 + i%5
}

// commentID is the id of comment k of post i.
func (b *tinyBlog) commentID(i, k int) int { return 10*i + k + 1 }

// comments is a post's comment section as WordPress writes it: the
// threaded list (the third comment answers the second) and the form.
func (b *tinyBlog) comments(base string, i int) string {
	var s strings.Builder
	s.WriteString(`<div id="comments" class="comments-area">`)
	if n := b.commentCount(i); n > 0 {
		fmt.Fprintf(&s, `<h2 class="comments-title">%d thoughts on &ldquo;%s&rdquo;</h2><ol class="comment-list">`, n, b.title(i))
		for k := 0; k < n; k++ {
			if k == 2 {
				continue // written inside comment 1
			}
			s.WriteString(b.comment(base, i, k, 1))
			if k == 1 && n > 2 {
				s.WriteString(`<ol class="children">` + b.comment(base, i, 2, 2) + `</li></ol>`)
			}
			s.WriteString("</li>\n")
		}
		s.WriteString(`</ol>`)
	}
	s.WriteString(`<div id="respond" class="comment-respond"><h3 id="reply-title" class="comment-reply-title">Leave a Reply</h3>` +
		`<form action="/wp-comments-post.php" method="post" id="commentform" class="comment-form">` +
		`<p class="comment-form-comment"><label for="comment">Comment</label><textarea id="comment" name="comment" cols="45" rows="8" maxlength="65525" required></textarea></p>` +
		`<p class="comment-form-author"><label for="author">Name</label><input id="author" name="author" type="text" value="" size="30"></p>` +
		`<p class="form-submit"><input name="submit" type="submit" id="submit" class="submit" value="Post Comment"></p></form></div></div>`)
	return s.String()
}

// comment is the start of comment k of post i, its <li> left open.
func (b *tinyBlog) comment(base string, i, k, depth int) string {
	id, who := b.commentID(i, k), tinyReaders[(i+k)%len(tinyReaders)]
	d := b.date(i).Add(time.Duration(k+1) * 90 * time.Minute)
	return fmt.Sprintf(`<li id="comment-%d" class="comment even depth-%d"><article id="div-comment-%d" class="comment-body">
<footer class="comment-meta"><div class="comment-author vcard"><img alt="" src="%s/avatar/%d.png" class="avatar avatar-32 photo" height="32" width="32"> <b class="fn">%s</b> <span class="says">says:</span></div>
<div class="comment-metadata"><a href="%s%s#comment-%d"><time datetime="%s">%s at %s</time></a></div></footer>
<div class="comment-content"><p>Comment %d on post %d: I walked that harbour wall last spring and the boats were still there, %s.</p></div>
<div class="reply"><a rel="nofollow" class="comment-reply-link" href="#respond">Reply</a></div></article>`,
		id, depth, id, base, k, who, base, b.path(i), id, d.Format(time.RFC3339), d.Format("January 2, 2006"), d.Format("3:04 pm"),
		k, i, strings.Repeat("mended nets and talked of tides ", 1+k%3))
}

func (b *tinyBlog) feed(w http.ResponseWriter, base string) {
	w.Header().Set("Content-Type", "application/rss+xml")
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Tiny blog</title><link>%s/</link><description>Small</description>`, base)
	if b.generator != "" {
		fmt.Fprintf(w, "<generator>%s</generator>", b.generator)
	}
	for i := b.posts - 1; i >= 0 && i >= b.posts-b.feedSize; i-- {
		link := base + b.path(i)
		if b.stubs[i] {
			link = base + "/old/post-" + strconv.Itoa(i) + "/"
		}
		if b.offsite != "" && i == b.posts-1 {
			link = b.offsite + b.path(i)
		}
		fmt.Fprintf(w, `<item><title>%s</title><link>%s</link><guid isPermaLink="false">tiny-%d</guid><dc:creator>Ann Walker</dc:creator><pubDate>%s</pubDate><content:encoded><![CDATA[%s]]></content:encoded></item>`,
			b.title(i), link, i, b.date(i).Format(time.RFC1123Z), b.body(i))
	}
	fmt.Fprint(w, `</channel></rss>`)
}

// sitemapGz writes a gzipped sitemap of every post, with lastmod.
func (b *tinyBlog) sitemapGz(w http.ResponseWriter, base string) {
	w.Header().Set("Content-Type", "application/gzip")
	zw := gzip.NewWriter(w)
	defer zw.Close()
	fmt.Fprint(zw, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := 0; i < b.posts; i++ {
		fmt.Fprintf(zw, "<url><loc>%s%s</loc><lastmod>%s</lastmod></url>\n", base, b.path(i), b.date(i).Format(time.RFC3339))
	}
	fmt.Fprint(zw, `</urlset>`)
}

// hidesComments reports whether post i's comments are off its page
// (onlyInFeeds): a post beyond the feed that has some.
func (b *tinyBlog) hidesComments(i int) bool {
	return b.onlyInFeeds && i < b.posts-b.feedSize && b.commentCount(i) > 0
}

// commentFeed writes the comment feed of the post at path, as WordPress
// does at <post>/feed/ (RSS, "Comments on: …"), without the comments
// lost holds back.
func (b *tinyBlog) commentFeed(w http.ResponseWriter, r *http.Request, base, path string) {
	i := b.index(path)
	if i < 0 {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/rss+xml; charset=UTF-8")
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Comments on: %s</title><link>%s%s</link><description>Small</description>`,
		b.title(i), base, path)
	for k := 0; k < b.commentCount(i)-b.lost[i]; k++ {
		id, who := b.commentID(i, k), tinyReaders[(i+k)%len(tinyReaders)]
		d := b.date(i).Add(time.Duration(k+1) * 90 * time.Minute)
		fmt.Fprintf(w, `<item><title>By: %s</title><link>%s%s#comment-%d</link><dc:creator>%s</dc:creator><pubDate>%s</pubDate><guid isPermaLink="false">%s/?p=%d#comment-%d</guid><content:encoded><![CDATA[<p>Comment %d on post %d: I walked that harbour wall last spring.</p>]]></content:encoded></item>`,
			who, base, path, id, who, d.Format(time.RFC1123Z), base, i, id, k, i)
	}
	fmt.Fprint(w, `</channel></rss>`)
}

// relatedCards is a "related posts" aside of three cards, each an
// <article> with a picture, a title link and an excerpt, as stock themes
// of several platforms print after the article.
func (b *tinyBlog) relatedCards(base string, i int) string {
	var s strings.Builder
	s.WriteString(`<aside class="read-more-wrap"><div class="read-more inner">`)
	for k := 1; k <= 3; k++ {
		r := (i + k*7) % b.posts
		fmt.Fprintf(&s, `<article class="post-card post"><a class="post-card-image-link" href="%s%s"><img class="post-card-image" src="%s/img/%d.jpg" alt=""></a>`+
			`<div class="post-card-content"><a class="post-card-content-link" href="%s%s"><header class="post-card-header"><h2 class="post-card-title">%s</h2></header>`+
			`<section class="post-card-excerpt"><p>%s</p></section></a></div></article>`, base, b.path(r), base, r, base, b.path(r), b.title(r), b.summary(r))
	}
	s.WriteString(`</div></aside>`)
	return s.String()
}

// sectionFeed writes /notes/index.xml: an RSS feed of every post but the
// unlisted ones, as Hugo writes one per section.
func (b *tinyBlog) sectionFeed(w http.ResponseWriter, base string) {
	w.Header().Set("Content-Type", "application/rss+xml")
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Notes on Tiny blog</title><link>%s/notes/</link><generator>Hugo -- gohugo.io</generator>`, base)
	for i := b.posts - 1; i >= 0; i-- {
		if !b.unlisted[i] {
			fmt.Fprintf(w, `<item><title>%s</title><link>%s%s</link><pubDate>%s</pubDate><guid>%s%s</guid><description>%s</description></item>`,
				b.title(i), base, b.path(i), b.date(i).Format(time.RFC1123Z), base, b.path(i), b.summary(i))
		}
	}
	fmt.Fprint(w, `</channel></rss>`)
}

// shortlink is the <link rel=shortlink> of the post whose canonical URL
// is canonical, when the blog serves restAPI.
func (b *tinyBlog) shortlink(base, canonical string) string {
	i := b.index(strings.TrimPrefix(canonical, base))
	if !b.restAPI || i < 0 {
		return ""
	}
	return fmt.Sprintf(`<link rel="shortlink" href="%s/?p=%d">`, base, i)
}

// commentsAPI answers /wp-json/wp/v2/comments?post=i&page=n as WordPress
// does (a JSON array, X-WP-Total and X-WP-TotalPages, 400 past the last
// page), two comments a page, oldest first, without the comments apiLost
// holds back; the third comment of a post answers the second, as on its
// page.
func (b *tinyBlog) commentsAPI(w http.ResponseWriter, r *http.Request, base string) {
	const per = 2
	i, err1 := strconv.Atoi(r.URL.Query().Get("post"))
	n, err2 := strconv.Atoi(r.URL.Query().Get("page"))
	if err1 != nil || err2 != nil || i < 0 || i >= b.posts || n < 1 {
		http.Error(w, `{"code":"rest_invalid_param"}`, http.StatusBadRequest)
		return
	}
	total := b.commentCount(i) - b.apiLost[i]
	pages := (total + per - 1) / per
	if n > max(pages, 1) {
		http.Error(w, `{"code":"rest_post_invalid_page_number"}`, http.StatusBadRequest)
		return
	}
	var objs []string
	for k := (n - 1) * per; k < total && k < n*per; k++ {
		id, who := b.commentID(i, k), tinyReaders[(i+k)%len(tinyReaders)]
		d := b.date(i).Add(time.Duration(k+1) * 90 * time.Minute)
		parent := 0
		if k == 2 {
			parent = b.commentID(i, 1)
		}
		objs = append(objs, fmt.Sprintf(`{"id":%d,"post":%d,"parent":%d,"author":0,"author_name":%q,"author_url":"","date":%q,"date_gmt":%q,"content":{"rendered":%q},"link":"%s%s#comment-%d","status":"approved","type":"comment"}`,
			id, i, parent, who, d.Format("2006-01-02T15:04:05"), d.Format("2006-01-02T15:04:05"),
			fmt.Sprintf("<p>Comment %d on post %d: I walked that harbour wall last spring.</p>\n", k, i), base, b.path(i), id))
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.Header().Set("X-WP-Total", strconv.Itoa(total))
	w.Header().Set("X-WP-TotalPages", strconv.Itoa(pages))
	fmt.Fprint(w, "["+strings.Join(objs, ",")+"]")
}

// atomFeed writes the Atom twin of the feed: the same posts, each
// <updated> a day after it was published.
func (b *tinyBlog) atomFeed(w http.ResponseWriter, base string) {
	w.Header().Set("Content-Type", "application/atom+xml")
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Tiny blog</title><id>%s/feed/atom/</id><updated>%s</updated>`,
		base, b.date(b.posts-1).Add(24*time.Hour).Format(time.RFC3339))
	for i := b.posts - 1; i >= 0 && i >= b.posts-b.feedSize; i-- {
		fmt.Fprintf(w, `<entry><title>%s</title><link rel="alternate" href="%s%s"/><id>tiny-%d</id><published>%s</published><updated>%s</updated><summary>%s</summary></entry>`,
			b.title(i), base, b.path(i), i, b.date(i).Format(time.RFC3339), b.date(i).Add(24*time.Hour).Format(time.RFC3339), b.summary(i))
	}
	fmt.Fprint(w, `</feed>`)
}

// archivedPosts returns the entries of the blog's posts by index among a
// crawl's entries by URL (base: the server's URL); a post not archived is
// an error, and left out.
func (b *tinyBlog) archivedPosts(t *testing.T, got map[string]*blogharvest.Entry, base string) map[int]*blogharvest.Entry {
	t.Helper()
	out := map[int]*blogharvest.Entry{}
	for i := 0; i < b.posts; i++ {
		if e, ok := got[base+b.path(i)]; ok {
			out[i] = e
		} else {
			t.Errorf("post %d not archived", i)
		}
	}
	return out
}

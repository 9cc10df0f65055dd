package harvest

import (
	"bytes"
	"context"
	"net/url"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/comments"
	"github.com/blogharvest/blogharvest/harvest/discover"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// setScope fixes the blog's home page and scope: the home stage
// (discover.FindHome) decides the home page (the final home page URL,
// else the configured URL unless it is the feed, else the feed's link)
// and the other hosts that are the blog's; the crawl builds its scope
// from them and gives the home page, and a configured URL that redirects
// to it, their ledger rows.
func (c *crawl) setScope(home *fetchedPage) {
	in := discover.HomeSite{URLIsFeed: c.site.urlIsFeed, FeedURL: c.site.blog.FeedURL}
	if c.site.feed != nil {
		in.FeedLink = c.site.feed.Link
	}
	if home != nil {
		in.Page = home.url
	}
	h := discover.FindHome(c.disc.cfg.home, in, discoverCanon{})
	hu := h.URL
	c.site.home = hu
	if home != nil {
		c.site.homeLang = home.info.lang
		c.site.homeLicense = home.info.license
	}
	c.site.scope = newScope(hu, c.o.Include, c.o.Exclude)
	for _, host := range h.Hosts {
		c.site.scope.addHost(host)
	}
	c.front.mark(hu.String())
	c.claims.claim(hu.String())
	c.ledger.set(hu.String(), FateListing, "the home page (kept in the Blog record)", "home")
	if h.Redirected != "" {
		c.ledger.set(h.Redirected, FateRedirect, hu.String(), "home")
	}
}

// mustCanonical returns the canonical parsed form of raw, or nil.
func mustCanonical(raw string) *url.URL {
	s, err := Canonical(raw)
	if err != nil {
		return nil
	}
	u, _ := url.Parse(s)
	return u
}

// noteFolded gives raw, a canonical URL met via via that the crawl's
// canonicaliser folded into key (scope.identity: one of the blog's hosts
// under the other scheme), its ledger row: a duplicate naming key, which
// makes it an alias of key's entry (emitEntry: an archive that holds the
// post under raw from before writes a new version of that entry, never a
// second one). Nothing when raw is key. Called once where the crawl
// decides the fate of what it met: feed items (seedFeed), sitemap URLs,
// page links, commented posts.
func (c *crawl) noteFolded(raw, key, via string) {
	if raw != key {
		c.ledger.set(raw, FateDuplicate, key+" (the blog's scheme: one page under both)", via)
	}
}

// seedFeed hands the feed's items to the feed stage (discover.SeedFeed),
// which queues their pages (newest first) through discoverItems, and
// applies what it seeded: the post-URL pattern generalised from the
// items' URLs, the items whose link leaves the blog (kept for feed-only
// entries), the links excluded counted as skipped, the item pages for
// training.
func (c *crawl) seedFeed() {
	s := discover.SeedFeed(c.site.feed.Items, discoverScope{s: c.site.scope}, discoverItems{c})
	c.noteFeedTwins()
	c.res.Skipped += s.Excluded
	c.offsite = append(c.offsite, s.Offsite...)
	c.site.pattern = discover.LearnPattern(s.Shapes)
	c.disc.feedURLs = s.URLs
}

// noteFeedTwins gives the link (or guid) of each feed item whose page is
// the blog's under the other scheme its ledger row (noteFolded): the
// feed stage met it, discoverScope folded it.
func (c *crawl) noteFeedTwins() {
	sc := discoverScope{s: c.site.scope}
	for i := range c.site.feed.Items {
		it := &c.site.feed.Items[i]
		p := discover.ItemURL(it, sc)
		if p == nil {
			continue
		}
		key := p.String()
		for _, raw := range []string{it.Link, it.GUID} {
			if plain := canonicalOr(raw); plain != "" && plain != key && c.site.scope.fold(plain) == key {
				c.noteFolded(plain, key, "feed")
				break
			}
		}
	}
}

// verifyPattern has the post pattern checked (discover.CheckPattern)
// against pages known not to be posts: the home page, the feed and the
// home page's navigation, tag, category and paging links that are no
// feed item's page (discoverPending); the crawl keeps the checked pattern
// and gives it to the Result.
func (c *crawl) verifyPattern(home *fetchedPage) {
	s := discover.PatternSite{Home: c.site.home, FeedURL: c.site.blog.FeedURL, Posts: c.disc.feedURLs}
	if home != nil {
		s.Links = homeLinks(home)
	}
	c.site.pattern = discover.CheckPattern(c.site.pattern, s, discoverCanon{}, discoverPending{c})
	c.res.Pattern = c.site.pattern.String()
}

// homeLinks returns the links of the home page as the discovery stage
// reads them (discover.Link).
func homeLinks(home *fetchedPage) []discover.Link {
	out := make([]discover.Link, len(home.info.links))
	for i, l := range home.info.links {
		out[i] = discover.Link{URL: l.url, Rel: l.rel, Nav: l.nav}
	}
	return out
}

// readSitemaps reads robots.txt and the sitemaps it names or platforms
// keep at well-known paths (the stage discover.Sitemaps), queues their
// URLs (queueSitemapURL) and keeps the files it read in the Blog record;
// what the bounds leave out goes to the ledger (settleLeftOut).
//
// UpdateCrawl reads them only when its recheck is due (recheckDue): the
// feeds say what changed; robots.txt (cached) is still kept.
func (c *crawl) readSitemaps(ctx context.Context) {
	f := discover.Sitemaps(ctx, c.disc.cfg.sitemaps, discover.Site{Home: c.site.home, Prefix: c.site.scope.prefix},
		discover.Deps{Fetch: c.client, Robots: discoverRobots{c}, URLs: discoverURLs{c}, Left: &c.disc.left,
			Warn: c.stats, Log: c.log})
	c.site.blog.Files = append(c.site.blog.Files, f.Files...)
	if c.site.blog.SitemapURL == "" {
		c.site.blog.SitemapURL = f.SitemapURL
	}
}

// blogRobots returns the robots.txt of the blog's host for the Blog
// record. One carried from an earlier crawl (State.Robots, carriedRobots)
// comes without its exchanges and headers: when an AIP holds its capture
// (File.Reused, as StateFrom gives it) the Blog record names that record,
// as an update's reused pictures do; when none does (it was fetched by an
// update that wrote no Blog AIP) and this crawl writes the Blog record
// (homeDue), it is fetched again, so that the Blog AIP records a capture
// it can show whole.
func (c *crawl) blogRobots(ctx context.Context) *fetch.Robots {
	r := c.client.RobotsFor(ctx, c.site.home)
	if r != nil && r.File != nil && len(r.File.Exchanges) == 0 && r.File.Reused == "" && c.homeDue() {
		c.client.ForgetRobots(c.site.home)
		r = c.client.RobotsFor(ctx, c.site.home)
	}
	return r
}

// carriedRobots returns what a crawl leaves of its robots.txt captures
// for the next crawl (State.Robots): what seeds the rules (URL, status,
// body, media type, capture time; the digest when known) and, for a capture an AIP holds,
// the reference to its record (Reused, ReusedIn); not its exchanges and
// headers, which the daemon would otherwise carry for every blog between
// two runs (about 2 KB a blog: BenchmarkScale, doc/scale.md). A Blog
// record that uses a carried capture names its record, or fetches it
// again (blogRobots). A body the File keeps only in an archive (Stored) is
// read into memory: robots.txt is small (fetch parses at most 512 KiB).
func carriedRobots(files []blogharvest.File) []blogharvest.File {
	if len(files) == 0 {
		return nil
	}
	out := make([]blogharvest.File, 0, len(files))
	for i := range files {
		f := &files[i]
		body := f.Body
		if body == nil && f.Stored != nil {
			b, err := fileBody(f)
			if err != nil {
				continue // unreadable: the next crawl fetches robots.txt
			}
			body = b
		}
		k := blogharvest.File{URL: f.URL, Role: f.Role, MediaType: f.MediaType, Body: bytes.Clone(body),
			SHA256: f.SHA256, Size: f.Size, Captured: f.Captured, Status: f.Status, Reused: f.Reused, ReusedIn: f.ReusedIn}
		if k.Body == nil {
			k.Body = []byte{}
		}
		out = append(out, k)
	}
	return out
}

// queueSitemapURL queues one sitemap URL as a post, a platform page or a
// listing. UpdateCrawl skips URLs whose lastmod is not after since.
func (c *crawl) queueSitemapURL(sitemap string, su discover.URL, page, post bool) {
	u := mustCanonical(su.Loc)
	if u != nil {
		if key := c.site.scope.fold(u.String()); key != u.String() {
			c.noteFolded(u.String(), key, "sitemap")
			u, _ = url.Parse(key)
		}
	}
	if u == nil || !c.admit(u.String(), sitemap, discover.LeftSitemapURLs) {
		return
	}
	c.ledger.met(u.String(), "sitemap")
	switch {
	case !c.site.scope.contains(u):
		c.ledger.set(u.String(), FateOutOfScope, "", "")
		return
	case isBinaryURL(u):
		c.ledger.set(u.String(), FateSkipped, "not a page: media, asset or machine endpoint", "")
		return
	case c.front.has(u.String()):
		return
	}
	if c.disc.cfg.changedOnly && (su.LastMod.IsZero() || !su.LastMod.After(c.disc.cfg.since)) {
		c.res.Skipped++
		c.ledger.set(u.String(), FateSkipped, "sitemap lastmod not after the last crawl", "")
		return
	}
	t := task{url: u.String(), lastmod: su.LastMod}
	switch {
	case page:
		t.kind, t.prio = "page", prioPage
	case post:
		t.kind, t.prio = "post", prioPost
	default:
		t.kind, t.prio = c.classify(u, true)
		t.prio = max(t.prio, prioListing)
	}
	c.front.push(t)
}

// seedLinks queues the in-scope links of a page (source) fetched at
// depth, within Options.MaxURLs; it
// returns how many new post URLs it queued. UpdateCrawl follows only the
// post links of the home page.
func (c *crawl) seedLinks(source string, info *pageInfo, depth int) int {
	posts := 0
	for _, l := range info.links {
		if key := c.site.scope.fold(l.url); key != l.url {
			c.noteFolded(l.url, key, "link")
			l.url = key
		}
		if c.front.has(l.url) {
			continue
		}
		if !c.admit(l.url, source, discover.LeftLinks) {
			continue
		}
		u, err := url.Parse(l.url)
		if err != nil {
			continue
		}
		if why := c.linkSkipped(u); why != "" {
			c.ledger.set(l.url, fateOfSkip(why), why, "link")
			continue
		}
		post := c.site.pattern.Match(u)
		if c.disc.cfg.homeLinksOnly && (!post || depth > 0) {
			c.ledger.set(l.url, FateSkipped, "UpdateCrawl follows only the post links of the home page", "link")
			continue
		}
		if !post && c.disc.tooManyVariants(u) {
			c.ledger.set(l.url, FateSkipped, "query variant beyond the bound per path (crawler trap)", "link")
			continue
		}
		c.ledger.met(l.url, "link")
		t := task{url: l.url, depth: depth + 1, kind: "post", prio: prioPost}
		if post {
			posts++
		} else {
			t.kind, t.prio = c.classifyOther(u, true) // the content test tells pages and posts from listings
		}
		c.front.push(t)
	}
	return posts
}

// linkSkipped returns why a link is not followed, or "".
func (c *crawl) linkSkipped(u *url.URL) string {
	switch {
	case !c.site.scope.contains(u):
		return skipOutOfScope
	case isBinaryURL(u):
		return "not a page: media, asset or machine endpoint"
	case isTrap(u):
		return "crawler trap: overlong, too deep or repeating path"
	case comments.IsCommentPage(u.Path):
		return "comment page: read with its post"
	}
	return ""
}

// skipOutOfScope is linkSkipped's reason for a link outside the blog.
const skipOutOfScope = "outside the blog's scope"

// fateOfSkip returns the ledger fate of a linkSkipped reason.
func fateOfSkip(why string) Fate {
	if why == skipOutOfScope {
		return FateOutOfScope
	}
	return FateSkipped
}

// maxQueryVariants bounds the query-string URLs queued per path that the
// post pattern does not recognise: ?query-0-page=N&query-1-page=M, sorting
// and filter combinations multiply without end, and all show one page.
const maxQueryVariants = 25

// tooManyVariants reports whether u has a query string and its path has
// had maxQueryVariants query variants queued already; otherwise it counts u.
func (d *discovery) tooManyVariants(u *url.URL) bool {
	if u.RawQuery == "" || isListingPath(u) {
		return false // listing pagination (?paged=N, updated-max) is bounded by the blog's size
	}
	key := u.Host + u.Path
	if d.variants[key] >= maxQueryVariants {
		return true
	}
	d.variants[key]++
	return false
}

// classify returns the kind and priority of a URL to queue: a post by
// the pattern, a page by platform convention, a candidate page when
// navigation or a sitemap names it (kept if it looks like content), else
// a listing ranked by the kNN estimate.
func (c *crawl) classify(u *url.URL, candidate bool) (string, float64) {
	if c.site.pattern.Match(u) {
		return "post", prioPost
	}
	return c.classifyOther(u, candidate)
}

// classifyOther is classify of a URL the post pattern does not match.
func (c *crawl) classifyOther(u *url.URL, candidate bool) (string, float64) {
	switch {
	case isPlatformPage(u):
		return "page", prioPage
	case candidate && !isListingPath(u):
		return "candidate", c.knn.predict(u)
	}
	return "", c.knn.predict(u)
}

// isListingPath reports whether u names a listing by a segment blog
// platforms reserve for them (page/2, tag/x, archive.html, ?paged=2).
func isListingPath(u *url.URL) bool {
	for _, seg := range segments(u.Path) {
		if i := strings.LastIndexByte(seg, '.'); i > 0 {
			seg = seg[:i]
		}
		if discover.ListingSegment(strings.ToLower(seg)) {
			return true
		}
	}
	q := u.Query()
	return q.Has("paged") || q.Has("page") || q.Has("updated-max")
}

// isPlatformPage reports whether u is a standalone page by its platform's
// URL convention (Blogger /p/slug.html).
func isPlatformPage(u *url.URL) bool {
	return strings.HasPrefix(u.Path, "/p/") && strings.HasSuffix(u.Path, ".html") && strings.Count(u.Path, "/") == 2
}

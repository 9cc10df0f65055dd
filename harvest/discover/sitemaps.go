package discover

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/platform"
)

// MaxSitemaps bounds the sitemap files read per crawl (and the children
// of sitemap indexes queued).
const MaxSitemaps = 200

// Config is what the stage reads of the crawl's policy and options,
// built once by the crawl.
type Config struct {
	// Settled: no recheck is due (UpdateCrawl), so no sitemap is read;
	// robots.txt is still kept.
	Settled bool
	// MaxURLs and MaxSitemapBytes are the crawl's bounds on the URLs
	// taken in (told in what is left out; URLs.Full says when it is
	// reached) and the sitemap bytes read, as served.
	MaxURLs         int
	MaxSitemapBytes int64
}

// Site is what the stage reads of the blog as set up before it: the
// canonical home page, whose host's robots.txt and well-known sitemap
// paths are read, and the scope's path prefix ("/" for a blog at the
// root of its host).
type Site struct {
	Home   *url.URL
	Prefix string
}

// Deps is what the stage asks of the crawl, each behind a small
// interface: the fetch client, the blog's robots.txt, the crawl's URLs
// (admission, the frontier and the ledger are the crawl's), the counts of
// what the bounds left out, warnings and a logger.
type Deps struct {
	Fetch  Fetcher
	Robots Robots
	URLs   URLs
	Left   Left
	Warn   Warner
	Log    *slog.Logger
}

// Fetcher asks the web for a sitemap: fetch.Client.Get.
type Fetcher interface {
	Get(ctx context.Context, rawURL string) (*fetch.Response, error)
}

// Robots returns the robots.txt of the blog's host for the Blog record,
// nil when there is none.
type Robots interface {
	Robots(ctx context.Context) *fetch.Robots
}

// URLs are the crawl's URLs: Queue is handed each <url> of a sitemap read
// (the sitemap's URL, whether the sitemap lists a platform's pages or
// posts), in order; Full reports whether the crawl holds its most URLs.
type URLs interface {
	Queue(sitemap string, u URL, page, post bool)
	Full() bool
}

// Left counts what the crawl's bounds kept out (LeftOuts.Add).
type Left interface {
	Add(source, u, what, why string)
}

// Warner records a warning for the crawl's Result.
type Warner interface {
	Warnf(format string, args ...any)
}

// Found is what the stage found, handed back as a value: the files the
// Blog record keeps (robots.txt, then the sitemaps read, in order) and
// the first sitemap read ("" when none was).
type Found struct {
	Files      []blogharvest.File
	SitemapURL string
}

// Sitemaps reads robots.txt and the sitemaps it names or platforms keep
// at well-known paths of site, and hands their URLs to d.URLs: each
// sitemap streamed (scanSitemap), never held parsed, within the crawl's
// bounds (cfg.MaxSitemapBytes, MaxSitemaps, and d.URLs.Full); what they
// leave out is counted in d.Left.
//
// When cfg.Settled it reads no sitemap: robots.txt (cached) is still
// kept.
func Sitemaps(ctx context.Context, cfg Config, site Site, d Deps) Found {
	var f Found
	r := d.Robots.Robots(ctx)
	if r != nil && r.File != nil {
		f.Files = append(f.Files, *r.File)
	}
	if cfg.Settled {
		return f
	}
	queue, wellKnown := candidates(r, site)
	tried := map[string]bool{}
	var read int64
	for len(queue) > 0 {
		loc := queue[0]
		queue = queue[1:]
		if tried[loc] {
			continue
		}
		why := ""
		switch {
		case len(tried) >= MaxSitemaps:
			why = fmt.Sprintf("%d sitemaps read, the most a crawl reads", MaxSitemaps)
		case read >= cfg.MaxSitemapBytes:
			why = fmt.Sprintf("max_sitemap_bytes %d reached", cfg.MaxSitemapBytes)
		case d.URLs.Full():
			why = fmt.Sprintf("max_urls %d reached", cfg.MaxURLs)
		}
		if why != "" {
			leftSitemaps(d.Left, wellKnown, loc, queue, why)
			return f
		}
		tried[loc] = true
		n, children := readSitemap(ctx, d, &f, loc, tried)
		read += n
		for _, ch := range children {
			if len(queue)+len(tried) < MaxSitemaps || tried[ch] {
				queue = append(queue, ch)
			} else {
				d.Left.Add(loc, ch, LeftChildren, fmt.Sprintf("%d sitemaps, the most a crawl reads", MaxSitemaps))
			}
		}
	}
	return f
}

// leftSitemaps counts loc and the rest of the queue as sitemaps not
// read, for why; well-known paths never tried are not sitemaps anyone
// named and are left out silently.
func leftSitemaps(left Left, wellKnown map[string]bool, loc string, queue []string, why string) {
	for _, l := range append([]string{loc}, queue...) {
		if !wellKnown[l] {
			left.Add(l, l, LeftUnread, why)
		}
	}
}

// candidates returns the Sitemap: URLs of r (nil when the host has no
// robots.txt) and the well-known sitemap paths of the blog's host, and
// the set of those well-known paths no one named.
func candidates(r *fetch.Robots, site Site) (out []string, wellKnown map[string]bool) {
	if r != nil {
		out = append(out, r.Sitemaps...)
	}
	named := map[string]bool{}
	for _, l := range out {
		named[l] = true
	}
	wellKnown = map[string]bool{}
	root := &url.URL{Scheme: site.Home.Scheme, Host: site.Home.Host}
	for _, p := range platform.Sitemaps() {
		for _, u := range []*url.URL{root.JoinPath(p), root.JoinPath(site.Prefix, p)} {
			if s := u.String(); !named[s] {
				wellKnown[s] = true
			}
		}
		out = append(out, root.JoinPath(p).String())
		if site.Prefix != "/" {
			out = append(out, root.JoinPath(site.Prefix, p).String())
		}
	}
	return out, wellKnown
}

// readSitemap fetches one sitemap, hands its URLs to d.URLs, adds it to
// f and returns its size as served and the sitemaps it indexes. Failures
// are quiet: most candidates do not exist. A candidate redirected to a
// sitemap read before (WordPress sends /sitemap.xml to /wp-sitemap.xml)
// is not read or kept twice.
func readSitemap(ctx context.Context, d Deps, f *Found, loc string, tried map[string]bool) (int64, []string) {
	resp, err := d.Fetch.Get(ctx, loc)
	if errors.Is(err, fetch.ErrOutOfScope) {
		d.Warn.Warnf("sitemap %s: not fetched: %v", loc, err)
		return 0, nil
	}
	if err != nil {
		return 0, nil
	}
	if resp.URL != loc {
		if tried[resp.URL] {
			return 0, nil
		}
		tried[resp.URL] = true
	}
	page, post := isPageSitemap(loc), isPostSitemap(loc)
	var children []string
	seen := 0
	cut, err := scanSitemap(resp.Body, maxSitemapBytes,
		func(su URL) { seen++; d.URLs.Queue(loc, su, page, post) },
		func(child string) { seen++; children = append(children, child) })
	if err != nil && seen == 0 {
		d.Log.Debug("not a sitemap", "url", loc, "err", err)
		return 0, nil
	}
	if err != nil {
		d.Warn.Warnf("sitemap %s: read up to an error: %v", loc, err)
	}
	if cut {
		d.Warn.Warnf("sitemap %s: longer than %d bytes decompressed (the protocol's most); read up to there", loc, maxSitemapBytes)
	}
	f.Files = append(f.Files, resp.File(blogharvest.RoleSitemap))
	if f.SitemapURL == "" {
		f.SitemapURL = loc
	}
	return int64(len(resp.Body)), children
}

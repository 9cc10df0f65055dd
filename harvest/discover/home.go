package discover

import "net/url"

// Canon gives the canonical form of a URL (harvest.Canonical).
type Canon interface {
	Canonical(raw string) (string, error)
}

// HomeConfig is what the home stage reads of the crawl's options: the
// blog's URL as configured and the origins allowed beside it.
type HomeConfig struct {
	BlogURL string
	Allow   []string
}

// HomeSite is what the home stage reads of the blog as found before it:
// the home page read (its final URL; nil when none was read), whether the
// configured URL is the feed, the posts feed's URL and the home page the
// feed names.
type HomeSite struct {
	Page      *url.URL
	URLIsFeed bool
	FeedURL   string
	FeedLink  string
}

// Home is what the home stage decided: the blog's home page, the other
// hosts that are the blog's (those of the configured URL and of the
// allowed origins, in that order), and the configured URL when it is
// neither the home page nor the feed (it redirects to the home page; ""
// otherwise).
type Home struct {
	URL        *url.URL
	Hosts      []string
	Redirected string
}

// FindHome fixes the blog's home page: the final URL of the home page
// read, else the configured URL unless it is the feed, else the feed's
// link, else the feed's URL; and the hosts of the configured URL and the
// allowed origins that are not the home page's.
func FindHome(cfg HomeConfig, site HomeSite, canon Canon) Home {
	var hu *url.URL
	switch {
	case site.Page != nil:
		hu = site.Page
	case cfg.BlogURL != "" && !site.URLIsFeed && cfg.BlogURL != site.FeedURL:
		hu = parsedCanonical(canon, cfg.BlogURL)
	default:
		hu = parsedCanonical(canon, site.FeedLink)
	}
	if hu == nil {
		hu = parsedCanonical(canon, site.FeedURL)
	}
	h := Home{URL: hu}
	for _, raw := range append([]string{cfg.BlogURL}, cfg.Allow...) {
		if u := parsedCanonical(canon, raw); u != nil && u.Host != hu.Host {
			h.Hosts = append(h.Hosts, u.Host) // the configured URL and allowed origins are the blog's too
		}
	}
	if given := canonicalString(canon, cfg.BlogURL); given != "" && given != hu.String() && given != canonicalString(canon, site.FeedURL) {
		h.Redirected = given
	}
	return h
}

// parsedCanonical returns the canonical parsed form of raw, or nil.
func parsedCanonical(canon Canon, raw string) *url.URL {
	s, err := canon.Canonical(raw)
	if err != nil {
		return nil
	}
	u, _ := url.Parse(s)
	return u
}

// canonicalString returns the canonical form of raw, "" when it has none.
func canonicalString(canon Canon, raw string) string {
	s, err := canon.Canonical(raw)
	if err != nil {
		return ""
	}
	return s
}

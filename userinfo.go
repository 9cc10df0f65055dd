package blogharvest

import (
	"net/url"
	"strings"
)

// StripUserinfo returns raw without its user-info (the "user:password@"
// of "https://user:password@host/"), and whether it had any. A string that
// does not parse as a URL is returned as it is.
func StripUserinfo(raw string) (string, bool) {
	if !strings.Contains(raw, "@") {
		return raw, false
	}
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw, false
	}
	u.User = nil
	return u.String(), true
}

// urlCleaner applies StripUserinfo and counts the URLs it changed.
type urlCleaner struct{ n int }

func (c *urlCleaner) strip(ps ...*string) {
	for _, p := range ps {
		if s, ok := StripUserinfo(*p); ok {
			*p, c.n = s, c.n+1
		}
	}
}

// file strips the URL of f and of its exchanges (which package
// harvest/fetch records without user-info already: nothing is written
// then).
func (c *urlCleaner) file(f *File) {
	c.strip(&f.URL)
	for i := range f.Exchanges {
		c.strip(&f.Exchanges[i].URL)
	}
}

func (c *urlCleaner) list(l []string) {
	for i := range l {
		c.strip(&l[i])
	}
}

// StripUserinfo removes user-info from every URL of e, its comments and
// files, so no credentials reach the archive, and returns how many URLs
// had some. The captured bytes are kept as served.
func (e *Entry) StripUserinfo() int {
	var c urlCleaner
	c.strip(&e.URL, &e.ChildOf)
	c.list(e.Aliases)
	for i := range e.Comments {
		cm := &e.Comments[i]
		c.strip(&cm.URL, &cm.AddressedTo, &cm.PostURL, &cm.ParentURL)
	}
	for i := range e.Files {
		c.file(&e.Files[i])
	}
	return c.n
}

// StripUserinfo removes user-info from every URL of b and its files and
// returns how many URLs had some.
func (b *Blog) StripUserinfo() int {
	var c urlCleaner
	c.strip(&b.URL, &b.SitemapURL, &b.FeedURL)
	c.list(b.Aliases)
	for i := range b.Files {
		c.file(&b.Files[i])
	}
	return c.n
}

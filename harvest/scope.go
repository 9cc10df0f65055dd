package harvest

import (
	"net/url"
	"regexp"
	"strings"
)

// scope decides which URLs belong to the blog: its hosts (with and without
// "www.") under its path prefix, plus URLs an include pattern names, minus
// URLs an exclude pattern names. The scheme is not part of it; a page's
// identity is (ownScheme, identity).
type scope struct {
	scheme  string // the home page's scheme: the blog's pages' identity
	hosts   map[string]bool
	prefix  string // path prefix, always ending in "/"
	include []*regexp.Regexp
	exclude []*regexp.Regexp
}

// newScope returns the scope of the blog whose home page is home.
func newScope(home *url.URL, include, exclude []*regexp.Regexp) *scope {
	s := &scope{scheme: home.Scheme, hosts: map[string]bool{}, include: include, exclude: exclude}
	s.addHost(home.Host)
	s.prefix = home.Path
	if i := strings.LastIndexByte(s.prefix, '/'); i >= 0 {
		s.prefix = s.prefix[:i+1]
	} else {
		s.prefix = "/"
	}
	return s
}

// addHost puts host and its www./bare twin into the scope.
func (s *scope) addHost(host string) {
	host = strings.ToLower(host)
	s.hosts[host] = true
	if rest, ok := strings.CutPrefix(host, "www."); ok {
		s.hosts[rest] = true
	} else {
		s.hosts["www."+host] = true
	}
}

// excluded reports whether an exclude pattern names the canonical URL u.
func (s *scope) excluded(u *url.URL) bool {
	if len(s.exclude) == 0 {
		return false
	}
	raw := u.String()
	for _, re := range s.exclude {
		if re.MatchString(raw) {
			return true
		}
	}
	return false
}

// contains reports whether the canonical URL u is in scope.
func (s *scope) contains(u *url.URL) bool {
	if s.excluded(u) {
		return false
	}
	if s.hosts[u.Host] && underPrefix(u.Path, s.prefix) {
		return true
	}
	if len(s.include) == 0 {
		return false
	}
	raw := u.String()
	for _, re := range s.include {
		if re.MatchString(raw) {
			return true
		}
	}
	return false
}

// ownScheme returns the canonical URL u under the blog's scheme (the
// home page's, as the blog is registered or redirected to) when u names
// one of the blog's hosts, without a port, under the other scheme, and ""
// otherwise: http://blog/p and https://blog/p are one page, as a web
// archive's URL key has it, so a post that the feed links under one
// scheme and the pages under the other is processed once and archived
// under one key (the blog's). Hosts with a port are left alone: another
// port is another origin.
func (s *scope) ownScheme(u *url.URL) string {
	if s == nil || u.Scheme == s.scheme || s.scheme == "" || !s.hosts[u.Host] || strings.IndexByte(u.Host, ':') >= 0 {
		return ""
	}
	v := *u
	v.Scheme = s.scheme
	return v.String()
}

// identity returns the URL that is raw's identity in the crawl: its
// canonical form (Canonical), under the blog's scheme for the blog's
// hosts (fold). It is the crawl's one canonicaliser, which every path by
// which a URL names a page passes (feed items, sitemap URLs, links,
// commented posts, redirects' targets, rel=canonical, stubs' targets,
// side feeds); it has no side effect: the ledger row of a URL folded is
// written where the crawl decides the URL's fate (crawl.noteFolded,
// pageWorker.noteRedirect).
func (s *scope) identity(raw string) (string, error) {
	c, err := Canonical(raw)
	if err != nil {
		return c, err
	}
	return s.fold(c), nil
}

// fold returns the canonical URL c under the blog's scheme when it names
// one of the blog's hosts under the other (ownScheme), c itself
// otherwise; a nil scope (before the home page is known) folds nothing.
func (s *scope) fold(c string) string {
	if s == nil || s.scheme == "" || strings.HasPrefix(c, s.scheme+":") {
		return c
	}
	u, err := url.Parse(c)
	if err != nil {
		return c
	}
	if own := s.ownScheme(u); own != "" {
		return own
	}
	return c
}

// twin returns the other-scheme URL that fold turns into the identity
// key, "" when none does (another host, a port, no scope): the URL an
// archive may hold the page under from before.
func (s *scope) twin(key string) string {
	if s == nil || s.scheme == "" || !strings.HasPrefix(key, s.scheme+":") {
		return ""
	}
	other := "http"
	if s.scheme == "http" {
		other = "https"
	}
	t := other + key[len(s.scheme):]
	if s.fold(t) != key {
		return ""
	}
	return t
}

// underPrefix reports whether path+"/" begins with prefix, which ends in
// "/": the path lies under the prefix or is the prefix's folder itself.
func underPrefix(path, prefix string) bool {
	return strings.HasPrefix(path, prefix) || path == prefix[:len(prefix)-1]
}

package harvest

import (
	"net/url"
	"strings"
	"sync"
)

// absResolved holds resolve's answers for the hrefs whose answer does not
// depend on the page's path: absolute http(s) hrefs, and root-relative
// ones ("/about/") of a page's origin. Every page of a blog repeats its
// menu, sidebar and footer links, and canonicalising them was a twentieth
// of a crawl's CPU. The answers are those of resolve, so the cache changes
// no result; it is emptied when full.
var absResolved = struct {
	sync.Mutex
	m map[resolveKey]string
}{m: map[resolveKey]string{}}

// resolveKey names an href of absResolved: an absolute href alone, a
// root-relative one with the scheme and host of the page it is on.
type resolveKey struct {
	scheme, host, ref string
}

// absResolvedMax bounds absResolved (about 2 MB of URLs).
const absResolvedMax = 1 << 14

// resolveCached is resolve(base, ref), read from absResolved when ref is
// an absolute http(s) URL and base is set (ResolveReference then ignores
// base but for cleaning ref's dot segments, as it does with any base), or
// when ref is root-relative and base has no userinfo (ResolveReference
// then takes base's scheme and host, and nothing else of it).
func resolveCached(base *url.URL, ref string) string {
	if k, ok := cacheKey(base, ref); ok {
		return resolveKeyed(k, base, ref)
	}
	return resolve(base, ref)
}

// resolveKeyed is resolveCached of a ref whose cacheKey is k.
func resolveKeyed(k resolveKey, base *url.URL, ref string) string {
	absResolved.Lock()
	u, ok := absResolved.m[k]
	absResolved.Unlock()
	if ok {
		return u
	}
	u = resolve(base, ref)
	absResolved.Lock()
	if len(absResolved.m) >= absResolvedMax {
		clear(absResolved.m)
	}
	absResolved.m[k] = u
	absResolved.Unlock()
	return u
}

// cacheKey returns the key of ref on the page at base in absResolved, and
// whether resolve's answer for it may be cached.
func cacheKey(base *url.URL, ref string) (resolveKey, bool) {
	switch {
	case base == nil:
		return resolveKey{}, false
	case isAbsHTTP(ref):
		return resolveKey{ref: ref}, true
	case isRootRelative(ref) && base.User == nil && base.Opaque == "":
		return resolveKey{scheme: base.Scheme, host: base.Host, ref: ref}, true
	}
	return resolveKey{}, false
}

// isAbsHTTP reports whether ref begins with http:// or https://, in any
// case: an absolute URL whose resolution does not depend on the page.
func isAbsHTTP(ref string) bool {
	return len(ref) >= 7 && strings.EqualFold(ref[:7], "http://") ||
		len(ref) >= 8 && strings.EqualFold(ref[:8], "https://")
}

// isRootRelative reports whether ref is a path from the root of its
// page's host ("/about/", not "//host/" nor "about/").
func isRootRelative(ref string) bool {
	return strings.HasPrefix(ref, "/") && !strings.HasPrefix(ref, "//")
}

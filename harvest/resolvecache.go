package harvest

import (
	"net/url"
	"strings"
	"sync"
)

// absResolved holds resolve's answers for absolute http(s) hrefs, which
// do not depend on the page they are on: every page of a blog repeats its
// menu, sidebar and footer links, and canonicalising them was a twentieth
// of a crawl's CPU. The answers are those of resolve, so the cache changes
// no result; it is emptied when full.
var absResolved = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

// absResolvedMax bounds absResolved (about 2 MB of URLs).
const absResolvedMax = 1 << 14

// resolveCached is resolve(base, ref), read from absResolved when ref is
// an absolute http(s) URL and base is set (ResolveReference then ignores
// base but for cleaning ref's dot segments, as it does with any base).
func resolveCached(base *url.URL, ref string) string {
	if base == nil || !isAbsHTTP(ref) {
		return resolve(base, ref)
	}
	absResolved.Lock()
	u, ok := absResolved.m[ref]
	absResolved.Unlock()
	if ok {
		return u
	}
	u = resolve(base, ref)
	absResolved.Lock()
	if len(absResolved.m) >= absResolvedMax {
		clear(absResolved.m)
	}
	absResolved.m[ref] = u
	absResolved.Unlock()
	return u
}

// isAbsHTTP reports whether ref begins with http:// or https://, in any
// case: an absolute URL whose resolution does not depend on the page.
func isAbsHTTP(ref string) bool {
	return len(ref) >= 7 && strings.EqualFold(ref[:7], "http://") ||
		len(ref) >= 8 && strings.EqualFold(ref[:8], "https://")
}

package harvest

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/platform"
)

// dropParams are query parameters that never change what a blog page shows:
// analytics tags, share buttons, comment-reply links, mobile switches.
var dropParams = map[string]bool{
	"replytocom": true, "share": true, "fbclid": true, "gclid": true, "msclkid": true,
	"mc_cid": true, "mc_eid": true, "_ga": true, "igshid": true, "showcomment": true,
	"amp": true, "nocache": true, "preview_id": true, "preview_nonce": true,
	"shared": true, "like_comment": true, "_wpnonce": true,
}

// Canonical returns the form of raw that decides a page's identity within a
// crawl: scheme and host lowercased, default ports dropped, dot segments
// resolved, the fragment, tracking and share parameters (utm_*, replytocom,
// share, fbclid, …) and a trailing index.html removed, the remaining query
// parameters sorted. Only http and https URLs are accepted.
func Canonical(raw string) (string, error) {
	u, err := url.Parse(blogharvest.NormalizeURL(raw))
	if err != nil {
		return "", fmt.Errorf("canonical %q: %w", raw, err)
	}
	return canonicalURL(u)
}

// canonicalURL is Canonical on a parsed URL; it does not modify u.
func canonicalURL(in *url.URL) (string, error) {
	u := *in
	var err error
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("canonical %q: scheme %q is not http(s)", in.String(), u.Scheme)
	}
	if u.Host == "" {
		return "", fmt.Errorf("canonical %q: no host", in.String())
	}
	u.Host = canonicalHost(u.Scheme, u.Host)
	if u.Host == "" || strings.HasPrefix(u.Host, ":") {
		return "", fmt.Errorf("canonical %q: no host", in.String()) // "." or a bare port
	}
	u.Fragment, u.RawFragment, u.User = "", "", nil
	// Dot segments are resolved on the escaped path, where %2F is no
	// separator: /post/..%2F..%2Fetc%2Fpasswd/ stays under /post/.
	u.RawPath = canonicalPath(blogharvest.NormalizeURL(u.EscapedPath()))
	if u.Path, err = url.PathUnescape(u.RawPath); err != nil {
		return "", fmt.Errorf("canonical %q: %w", in.String(), err)
	}
	if u.RawQuery != "" {
		u.RawQuery = canonicalQuery(u.Query())
	}
	u.ForceQuery = false
	return u.String(), nil
}

// canonicalHost lowercases host, drops the scheme's default port and a
// trailing dot, and applies the platform table's host rules
// (platform.CanonicalHost: Blogger's country domains are blogspot.com).
func canonicalHost(scheme, host string) string {
	host = strings.ToLower(host)
	if scheme == "http" {
		host = strings.TrimSuffix(host, ":80")
	} else {
		host = strings.TrimSuffix(host, ":443")
	}
	host = strings.TrimRight(host, ".")
	return platform.CanonicalHost(host)
}

// canonicalPath resolves the dot segments of an escaped path (%2F is no
// separator; %2e is a dot), keeps a trailing slash and drops a
// trailing index.html/index.htm/index.php.
func canonicalPath(p string) string {
	if p == "" {
		return "/"
	}
	if strings.Contains(p, "%") {
		p = encodedDots(p)
	}
	slash := strings.HasSuffix(p, "/")
	if p[0] != '/' {
		p = "/" + p
	}
	c := path.Clean(p)
	for _, idx := range []string{"/index.html", "/index.htm", "/index.php"} {
		if strings.HasSuffix(c, idx) {
			return strings.TrimSuffix(c, idx[1:])
		}
	}
	if slash && c != "/" {
		if p[:len(p)-1] == c {
			return p // clean already: keep it rather than build it again
		}
		c += "/"
	}
	return c
}

// encodedDots turns the segments of an escaped path that the WHATWG URL
// standard reads as dot segments ("%2e", ".%2E", "%2e%2e" …) into "." and
// "..", for path.Clean to resolve as a browser does.
func encodedDots(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		switch strings.ToLower(s) {
		case "%2e":
			segs[i] = "."
		case "%2e%2e", ".%2e", "%2e.":
			segs[i] = ".."
		}
	}
	return strings.Join(segs, "/")
}

// canonicalQuery drops tracking parameters and encodes the rest sorted.
func canonicalQuery(q url.Values) string {
	for k := range q {
		lk := strings.ToLower(k)
		if dropParams[lk] || strings.HasPrefix(lk, "utm_") || lk == "m" && isMobileSwitch(q.Get(k)) {
			delete(q, k)
		}
	}
	return q.Encode() // sorted by key
}

// isMobileSwitch reports whether v is a Blogger ?m=0/1 mobile switch value.
func isMobileSwitch(v string) bool { return v == "0" || v == "1" }

// resolve returns the canonical form of ref resolved against base, or "" if
// it is not a crawlable http(s) URL.
func resolve(base *url.URL, ref string) string {
	ref = blogharvest.NormalizeURL(ref)
	if ref == "" || strings.HasPrefix(ref, "#") || len(ref) >= 11 && strings.EqualFold(ref[:11], "javascript:") {
		return ""
	}
	r, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	if base != nil {
		r = base.ResolveReference(r)
	}
	c, err := canonicalURL(r)
	if err != nil {
		return ""
	}
	return c
}

// binaryExt lists extensions of URLs that are never blog pages.
var binaryExt = map[string]bool{
	"jpg": true, "jpeg": true, "png": true, "gif": true, "webp": true, "svg": true, "bmp": true,
	"ico": true, "tif": true, "tiff": true, "avif": true, "heic": true,
	"mp3": true, "m4a": true, "ogg": true, "oga": true, "wav": true, "flac": true, "aac": true,
	"mp4": true, "m4v": true, "ogv": true, "webm": true, "mov": true, "avi": true, "mkv": true,
	"wmv": true, "flv": true, "swf": true,
	"pdf": true, "doc": true, "docx": true, "xls": true, "xlsx": true, "ppt": true, "pptx": true,
	"odt": true, "ods": true, "odp": true, "rtf": true, "epub": true, "csv": true, "txt": true,
	"zip": true, "gz": true, "tgz": true, "bz2": true, "xz": true, "7z": true, "rar": true, "tar": true,
	"exe": true, "dmg": true, "iso": true, "apk": true, "deb": true, "rpm": true, "msi": true, "jar": true,
	"css": true, "js": true, "mjs": true, "map": true, "woff": true, "woff2": true, "ttf": true,
	"eot": true, "otf": true, "json": true,
}

// machinePath lists path fragments of URLs that are never content pages.
var machinePath = []string{
	"/wp-admin", "/wp-login.php", "/xmlrpc.php", "/wp-json/", "/wp-content/", "/wp-includes/",
	"/feed/", "/trackback/", "/comments/feed", "/embed/", "/cdn-cgi/", "/wp-comments-post.php",
	"/feeds/", "/rss/", "/atom/",
}

// isBinaryURL reports whether u looks like media, a download, an asset or a
// machine endpoint rather than an HTML page, so it must not be fetched as one.
func isBinaryURL(u *url.URL) bool {
	p := strings.ToLower(u.Path)
	if i := strings.LastIndexByte(p, '.'); i >= 0 && i > strings.LastIndexByte(p, '/') {
		if binaryExt[p[i+1:]] || p[i+1:] == "xml" || p[i+1:] == "rdf" {
			return true
		}
	}
	p += "/"
	for _, m := range machinePath {
		if strings.Contains(p, m) {
			return true
		}
	}
	if u.RawQuery == "" {
		return false
	}
	q := u.Query()
	return q.Has("feed") || q.Has("attachment_id") || q.Has("format") && q.Get("format") != "html" ||
		q.Has("action") || q.Has("s") || q.Has("alt") && q.Get("alt") != "html"
}

// Crawler-trap limits: URLs beyond them are never queued.
const (
	maxURLLen      = 512
	maxSegments    = 12
	maxSegRepeated = 3
)

// isTrap reports whether u looks like a crawler trap rather than a page:
// overlong, too deep, or a path that repeats one segment (relative links
// resolved again and again, endless calendars).
func isTrap(u *url.URL) bool {
	segs := segments(u.Path)
	if len(u.String()) > maxURLLen || len(segs) > maxSegments {
		return true
	}
	seen := map[string]int{}
	for _, s := range segs {
		if seen[s]++; seen[s] >= maxSegRepeated && !isDigits(s) {
			return true
		}
	}
	return false
}

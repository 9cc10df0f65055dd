package aip

import (
	"net/url"
	"path"
	"strconv"
	"strings"
	"unicode"

	"github.com/blogharvest/blogharvest"
	"golang.org/x/text/unicode/norm"
)

// maxNameLen bounds the base name of a payload file, extension included.
const maxNameLen = 80

// roleDirs maps each file role to its folder under data/objects.
var roleDirs = map[blogharvest.Role]string{
	blogharvest.RolePage: "page", blogharvest.RoleRendered: "rendered", blogharvest.RoleScreenshot: "screenshot",
	blogharvest.RoleMedia: "media", blogharvest.RoleFeed: "feed", blogharvest.RoleCommentFeed: "comment-feed",
	blogharvest.RoleSitemap: "sitemap", blogharvest.RoleRobots: "robots", blogharvest.RoleLog: "log",
	blogharvest.RoleRequisite: "requisites", blogharvest.RoleState: "state",
}

// roleDir returns the folder of role, "other" for roles it does not know.
func roleDir(r blogharvest.Role) string {
	if d, ok := roleDirs[r]; ok {
		return d
	}
	return "other"
}

// defaultNames names files whose URL gives no usable name.
var defaultNames = map[blogharvest.Role]string{
	blogharvest.RolePage: "index", blogharvest.RoleRendered: "rendered", blogharvest.RoleScreenshot: "screenshot",
	blogharvest.RoleFeed: "feed", blogharvest.RoleCommentFeed: "comments", blogharvest.RoleSitemap: "sitemap",
	blogharvest.RoleRobots: "robots", blogharvest.RoleState: "state",
}

// extensions maps media types (without parameters) to file extensions. A
// fixed table, so names never depend on the host's mime database.
var extensions = map[string]string{
	"text/html": ".html", "application/xhtml+xml": ".xhtml", "text/plain": ".txt", "text/css": ".css",
	"application/xml": ".xml", "text/xml": ".xml", "application/rss+xml": ".xml", "application/atom+xml": ".xml",
	"application/json": ".json", "application/feed+json": ".json", "application/ld+json": ".json",
	"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp", "image/svg+xml": ".svg",
	"image/avif": ".avif", "audio/mpeg": ".mp3", "audio/ogg": ".ogg", "video/mp4": ".mp4", "video/webm": ".webm",
	"application/pdf": ".pdf", "application/javascript": ".js", "text/javascript": ".js",
}

// objectName returns a safe base name for f: the last segment of its URL
// path (or a default for its role) reduced to [a-z0-9._-], without leading
// dots, at most maxNameLen bytes, with an extension from its media type when
// it has none or when the harvest made the bytes (a screenshot is always
// screenshot.png, a rendered DOM always .html). Nothing of the URL can escape the folder: no '/', no "..".
func objectName(f *blogharvest.File) string {
	stem, ext := splitExt(urlBase(f.URL))
	if made := madeExt(f); made != "" {
		ext = made // bytes the harvest made: the name follows them, not the page's URL
		if f.Role == blogharvest.RoleScreenshot {
			stem = ""
		}
	}
	if stem == "" {
		stem = defaultNames[f.Role]
	}
	if stem == "" {
		stem = "file"
	}
	if ext == "" {
		ext = extensions[mediaType(f.MediaType)]
	}
	if ext == "" {
		ext = ".bin"
	}
	if len(stem)+len(ext) > maxNameLen {
		stem = strings.TrimRight(stem[:maxNameLen-len(ext)], "-.")
	}
	return stem + ext
}

// madeExt returns the extension of f's media type when the harvest made
// f's bytes (the rendered DOM, the screenshot), whatever the URL they were
// made from ends with; "" for files as a server sent them, whose URL's
// extension is kept.
func madeExt(f *blogharvest.File) string {
	if f.Role != blogharvest.RoleRendered && f.Role != blogharvest.RoleScreenshot {
		return ""
	}
	return extensions[mediaType(f.MediaType)]
}

// urlBase returns the unescaped last non-empty path segment of raw, or "".
func urlBase(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	p := strings.TrimRight(u.EscapedPath(), "/")
	base, err := url.PathUnescape(path.Base(p))
	if err != nil || base == "." || base == "/" {
		return ""
	}
	return base
}

// splitExt sanitises name and splits it into stem and extension (".xyz",
// 1–5 letters or digits; otherwise none).
func splitExt(name string) (stem, ext string) {
	clean := sanitise(name)
	if i := strings.LastIndexByte(clean, '.'); i > 0 && len(clean)-i >= 2 && len(clean)-i <= 6 && alnum(clean[i+1:]) {
		return strings.Trim(clean[:i], ".-"), clean[i:]
	}
	return strings.Trim(clean, ".-"), ""
}

// sanitise lowercases s, drops accents, keeps ASCII letters, digits, '_'
// and single dots, and turns every run of other characters into one '-'.
func sanitise(s string) string {
	if len(s) > 4*maxNameLen {
		s = s[len(s)-4*maxNameLen:] // keep the end: it holds the extension
	}
	var b strings.Builder
	pending := byte(0)
	for _, r := range norm.NFKD.String(strings.ToLower(s)) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_':
			if pending != 0 && b.Len() > 0 {
				b.WriteByte(pending)
			}
			pending = 0
			b.WriteRune(r)
		case r == '.':
			pending = '.'
		default:
			if pending == 0 {
				pending = '-'
			}
		}
	}
	return b.String()
}

// alnum reports whether s is non-empty ASCII lowercase letters and digits.
func alnum(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// mediaType returns the lowercase media type of ct without parameters.
func mediaType(ct string) string {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// uniqueName returns name, or name with "-2", "-3"… before its extension,
// whichever is not yet in used, and records it.
func uniqueName(used map[string]bool, name string) string {
	stem, ext := name, ""
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		stem, ext = name[:i], name[i:]
	}
	candidate := name
	for n := 2; used[candidate]; n++ {
		candidate = stem + "-" + strconv.Itoa(n) + ext
	}
	used[candidate] = true
	return candidate
}

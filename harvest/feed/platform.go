package feed

import (
	"strings"

	"github.com/blogharvest/blogharvest/harvest/platform"
	"github.com/blogharvest/blogharvest/internal/lazyregexp"
)

var (
	versionParam = lazyregexp.New(`[?&]v(?:er(?:sion)?)?=(\d[\w.-]*)`)
	versionWord  = lazyregexp.New(`\bv?(\d+(?:\.\d+)+)\b`)
	urlLike      = lazyregexp.New(`\S*://\S*`)
)

// platformOf names the blogging platform and its version from a generator:
// its text, and for Atom its uri and version attributes. Examples:
// "https://wordpress.org/?v=6.4.2" → WordPress, 6.4.2; "Blogger" with
// version="7.00" → Blogger, 7.00. An unknown generator is returned as its
// text without URLs and version, and no id; a known one with its row's ID.
func platformOf(value, uri, version string) (name, id, ver string) {
	value, uri = strings.TrimSpace(value), strings.TrimSpace(uri)
	all := strings.ToLower(value + " " + uri)
	if all == " " {
		return "", "", ""
	}
	ver = strings.TrimSpace(version)
	if ver == "" {
		ver = versionOf(value + " " + uri)
	}
	if p, ok := platform.ByGenerator(all); ok {
		return p.Name, p.ID, ver
	}
	name = strings.TrimSpace(versionWord.ReplaceAllString(urlLike.ReplaceAllString(value, ""), ""))
	name = strings.Trim(name, " -–—();,")
	if name == "" {
		name = uri
	}
	return name, "", ver
}

// versionOf finds a version number in a generator string.
func versionOf(s string) string {
	if m := versionParam.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	if m := versionWord.FindStringSubmatch(urlLike.ReplaceAllString(s, "")); m != nil {
		return m[1]
	}
	return ""
}

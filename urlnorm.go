package blogharvest

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// NormalizeURL returns raw (an absolute URL or a reference) percent-encoded
// as the WHATWG URL standard encodes what a browser requests: ASCII tab
// and newlines removed and leading and trailing C0 controls and spaces
// trimmed; in the path, C0 controls, space, '"', '<', '>', '`', '{', '}'
// and bytes over 0x7E encoded; in the query, C0 controls, space, '"',
// '<', '>', '\” and bytes over 0x7E; in the fragment, C0 controls,
// space, '"', '<', '>', '`' and bytes over 0x7E. It also encodes the
// characters RFC 3986 allows nowhere ('{', '}', '|', '\\', '^', '`' left
// over) and a '%' that begins no escape, so the result is a valid URI for
// a WARC-Target-URI and a CDXJ key as well as a request line. A
// backslash in the path of an http(s) URL is a '/', as browsers read it.
// Nothing is decoded: an escape such as %2F stays as it is, and
// NormalizeURL(NormalizeURL(s)) == NormalizeURL(s). A host of an http(s)
// URL holding letters beyond ASCII becomes its ASCII form ("bücher.example"
// is "xn--bcher-kva.example"), as a browser resolves and requests it (the
// URL standard's domain to ASCII: UTS #46, non-transitional); any other
// host is left as it is. This is the one normalisation of URLs before they are requested
// (package harvest/fetch) and indexed (harvest's canonical URLs, the WARC
// records and their CDXJ keys).
func NormalizeURL(raw string) string {
	raw = strings.TrimFunc(raw, func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(raw, "\t\n\r") {
		raw = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(raw)
	}
	if !needsNormalizing(raw) && !escapeInAuthority(raw) {
		return raw
	}
	// Split off the fragment, then the query, then the scheme and
	// authority; what is left is the path.
	rest, frag, hasFrag := strings.Cut(raw, "#")
	rest, query, hasQuery := strings.Cut(rest, "?")
	prefix, path := "", rest
	special := false
	if i := strings.Index(rest, "://"); i > 0 && isScheme(rest[:i]) {
		scheme := strings.ToLower(rest[:i])
		special = scheme == "http" || scheme == "https"
		auth := rest[i+3:]
		end := strings.IndexAny(auth, "/\\")
		if !special {
			end = strings.IndexByte(auth, '/')
		}
		if end < 0 {
			end = len(auth)
		}
		authority := auth[:end]
		if special {
			authority = asciiAuthority(authority)
		}
		prefix, path = rest[:i+3]+authority, auth[end:]
	} else if strings.HasPrefix(rest, "//") {
		auth := rest[2:]
		end := strings.IndexAny(auth, "/\\")
		if end < 0 {
			end = len(auth)
		}
		prefix, path, special = "//"+asciiAuthority(auth[:end]), auth[end:], true
	} else if i := strings.IndexByte(rest, ':'); i > 0 && isScheme(rest[:i]) && !strings.ContainsAny(rest[:i], "/") {
		prefix, path = rest[:i+1], rest[i+1:] // mailto:, data: …
	} else {
		special = true // a relative reference of an http(s) page
	}
	var b strings.Builder
	b.Grow(len(raw) + 16)
	b.WriteString(prefix)
	encode(&b, path, func(c byte) bool {
		return c <= ' ' || c >= 0x7f || strings.IndexByte("\"<>`{}|^", c) >= 0 || c == '\\' && !special
	}, special)
	if hasQuery {
		b.WriteByte('?')
		encode(&b, query, func(c byte) bool {
			return c <= ' ' || c >= 0x7f || strings.IndexByte("\"<>{}|^`\\", c) >= 0 || c == '\'' && special
		}, false)
	}
	if hasFrag {
		b.WriteByte('#')
		encode(&b, frag, func(c byte) bool {
			return c <= ' ' || c >= 0x7f || strings.IndexByte("\"<>`{}|^\\#", c) >= 0
		}, false)
	}
	return b.String()
}

// hostProfile is the URL standard's domain to ASCII: UTS #46 mapping,
// non-transitional (ß stays ß), no STD3 rules and no hyphen checks, as
// browsers apply it.
var hostProfile = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.Transitional(false),
	idna.StrictDomainName(false), idna.CheckHyphens(false))

// asciiAuthority returns the authority auth (userinfo@host:port) with a
// host holding bytes beyond ASCII or percent-escapes in its ASCII form, as
// the URL standard's host parser gives it: escapes decoded first
// ("b%C3%BCcher.example" is "xn--bcher-kva.example", "ex%41mple.example"
// is "example.example"); a host that is plain ASCII already, an IPv6
// literal, one whose escapes are not UTF-8 or one the profile refuses is
// left as it is.
func asciiAuthority(auth string) string {
	user, host := "", auth
	if i := strings.LastIndexByte(auth, '@'); i >= 0 {
		user, host = auth[:i+1], auth[i+1:]
	}
	port := ""
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasPrefix(host, "[") {
		host, port = host[:i], host[i:]
	}
	plain := true
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 || host[i] == '%' {
			plain = false
			break
		}
	}
	if plain || strings.HasPrefix(host, "[") {
		return auth
	}
	if strings.IndexByte(host, '%') >= 0 {
		decoded, ok := unescapeHost(host)
		if !ok {
			return auth
		}
		host = decoded
	}
	h, err := hostProfile.ToASCII(host)
	// The mapping turns some letters into ASCII that a host may not
	// hold (a fullwidth @ into '@', which would make the rest the host):
	// such a host is no domain, as the URL standard says, and stays.
	if err != nil || h == "" || strings.ContainsFunc(h, forbiddenInDomain) {
		return auth
	}
	return user + h + port
}

// unescapeHost decodes the percent-escapes of host; ok is false when a '%'
// begins no escape or the bytes decoded are not UTF-8.
func unescapeHost(host string) (string, bool) {
	b := make([]byte, 0, len(host))
	for i := 0; i < len(host); i++ {
		c := host[i]
		if c == '%' {
			if i+2 >= len(host) || !isHex(host[i+1]) || !isHex(host[i+2]) {
				return "", false
			}
			c = unhex(host[i+1])<<4 | unhex(host[i+2])
			i += 2
		}
		b = append(b, c)
	}
	return string(b), utf8.Valid(b)
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// escapeInAuthority reports whether the authority of an absolute or
// scheme-relative URL s holds a '%', which asciiAuthority decodes.
func escapeInAuthority(s string) bool {
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return false
	}
	start := strings.Index(s, "//")
	if start < 0 || start > i {
		return false
	}
	end := strings.IndexAny(s[start+2:], "/\\?#")
	return end < 0 || start+2+end > i
}

// forbiddenInDomain reports whether r is a forbidden domain code point of
// the URL standard.
func forbiddenInDomain(r rune) bool {
	return r <= ' ' || r == 0x7f || strings.ContainsRune("#%/:<>?@[\\]^|", r)
}

// needsNormalizing reports whether s holds a byte NormalizeURL would
// change: most URLs hold none, and are returned as they are.
func needsNormalizing(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c <= ' ' || c >= 0x7f || strings.IndexByte("\"<>`{}|^\\'", c) >= 0:
			return true
		case c == '%' && !(i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])):
			return true
		case c == '#' && strings.IndexByte(s[i+1:], '#') >= 0:
			return true
		}
	}
	return false
}

// encode writes s to b with the bytes esc names and every '%' that begins
// no escape percent-encoded; with slashes, a backslash becomes '/'.
func encode(b *strings.Builder, s string, esc func(byte) bool, slashes bool) {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && slashes:
			b.WriteByte('/')
		case c == '%' && !(i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])), esc(c):
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// isScheme reports whether s is a URL scheme: a letter, then letters,
// digits, '+', '-' and '.'.
func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}

// SetEscapedPath sets the path of u from its escaped form (what
// u.EscapedPath returns), so that an escape such as %2F survives
// u.String(): a URL is rebuilt from EscapedPath, never from the decoded
// Path, where %2F has become a '/'.
func SetEscapedPath(u *url.URL, escaped string) {
	p, err := url.PathUnescape(escaped)
	if err != nil {
		u.Path, u.RawPath = escaped, ""
		return
	}
	u.Path, u.RawPath = p, escaped
}

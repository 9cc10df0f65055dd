package blogharvest_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
)

// TestNormalizeURL: what a hostile blog can put in a URL is percent-encoded
// as a browser encodes it (plus what RFC 3986 allows nowhere), escapes
// are kept (%2F is no '/'), and the result parses, is stable and holds no
// byte a request line or a CDXJ key cannot carry.
func TestNormalizeURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`https://b.example/i.png?q=a b&r={"x":1}`, `https://b.example/i.png?q=a%20b&r=%7B%22x%22:1%7D`},
		{`https://b.example/post/..%2F..%2Fetc%2Fpasswd/`, `https://b.example/post/..%2F..%2Fetc%2Fpasswd/`},
		{`https://b.example/a b/{c}"d"<e>` + "`", `https://b.example/a%20b/%7Bc%7D%22d%22%3Ce%3E%60`},
		{`https://b.example/caf` + "\u00e9" + `?q=` + "\u00e9", `https://b.example/caf%C3%A9?q=%C3%A9`},
		{`https://b.example/100%/x?p=50%&ok=%41`, `https://b.example/100%25/x?p=50%25&ok=%41`},
		{`https://b.example/a\b?c\d`, `https://b.example/a/b?c%5Cd`},
		{"  https://b.example/a\tb\n ", `https://b.example/ab`},
		{`https://b.example/p?q=it's#frag ment#2`, `https://b.example/p?q=it%27s#frag%20ment%232`},
		{`/i.png?q=a b`, `/i.png?q=a%20b`},
		{`https://b.example/plain/?a=1&b=2#x`, `https://b.example/plain/?a=1&b=2#x`},
		{`https://b.example/a|b^c`, `https://b.example/a%7Cb%5Ec`},
		// Hosts beyond ASCII as a browser requests them (the URL
		// standard's domain to ASCII; the vectors are its tests').
		{"https://b\u00fccher.example/caf\u00e9", `https://xn--bcher-kva.example/caf%C3%A9`},
		{"https://B\u00dcCHER.example:8443/", `https://xn--bcher-kva.example:8443/`},
		{"http://fa\u00df.de/", `http://xn--fa-hia.de/`},
		{"https://user@\u4f8b\u3048.jp/p", `https://user@xn--r8jz45g.jp/p`},
		{"//\u4f8b\u3048.jp/i.png", `//xn--r8jz45g.jp/i.png`},
		{"https://[::1]:8080/\u00e9", `https://[::1]:8080/%C3%A9`},
		// A host's escapes are decoded before its domain to ASCII, as
		// the URL standard's host parser and Chromium do; escapes that
		// are no UTF-8 leave the host as it is.
		{"https://b%C3%BCcher.example/caf\u00e9", `https://xn--bcher-kva.example/caf%C3%A9`},
		{"https://user%40x@ex%41mple.example:8443/p%41", `https://user%40x@example.example:8443/p%41`},
		{"//b%c3%bccher.example/i.png", `//xn--bcher-kva.example/i.png`},
		{"https://b%FF.example/", `https://b%FF.example/`},
		{"https://b.example/p%C3%BC//x%41", `https://b.example/p%C3%BC//x%41`},
	} {
		got := blogharvest.NormalizeURL(tc.in)
		if got != tc.want {
			t.Errorf("NormalizeURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if again := blogharvest.NormalizeURL(got); again != got {
			t.Errorf("not stable: %q then %q", got, again)
		}
		u, err := url.Parse(got)
		if err != nil {
			t.Errorf("%q does not parse: %v", got, err)
			continue
		}
		if u.IsAbs() && u.String() != got {
			t.Errorf("%q reads back as %q", got, u.String())
		}
		for i := 0; i < len(got); i++ {
			if c := got[i]; c <= ' ' || c >= 0x7f || c == '"' || c == '{' || c == '}' {
				t.Errorf("%q holds byte %q", got, c)
			}
		}
	}
}

// TestNormalizeURLHostNoDomain: a host whose letters map to what no
// domain holds (a fullwidth @, solidus or colon) is not turned into
// another host: "evil.example＠b.example" must not become userinfo
// evil.example at host b.example.
func TestNormalizeURLHostNoDomain(t *testing.T) {
	for _, raw := range []string{"https://evil.example\uff20b.example/p", "https://evil.example\uff0fb.example/p", "https://a\uff1a1.example/",
		"https://evil.example%40b.example/p", "https://evil.example%2Fb.example/p", "https://a%3A1.example/"} {
		u, err := url.Parse(blogharvest.NormalizeURL(raw))
		if err != nil {
			continue
		}
		if u.User != nil || u.Hostname() == "b.example" || u.Port() != "" || strings.HasPrefix(u.Host, "xn--") && strings.ContainsAny(u.Host, "@/:") {
			t.Errorf("%q normalized to host %q, user %v", raw, u.Host, u.User)
		}
	}
}

// TestSetEscapedPathKeepsEscapes: a path rebuilt from its escaped form
// keeps %2F through String, where one rebuilt from Path loses it.
func TestSetEscapedPathKeepsEscapes(t *testing.T) {
	u, _ := url.Parse("https://b.example/post/..%2Fetc%2Fpasswd/comment-page-2/")
	blogharvest.SetEscapedPath(u, u.EscapedPath()+"atom/")
	if got := u.String(); got != "https://b.example/post/..%2Fetc%2Fpasswd/comment-page-2/atom/" {
		t.Errorf("String = %q", got)
	}
}

package learn

import (
	"net/url"
	"testing"
)

// TestResolvePlainPath compares the quick resolution of plain absolute
// paths with url.Parse on many references and bases.
func TestResolvePlainPath(t *testing.T) {
	bases := []string{"http://tiny.example/2010/01/30/post-1/", "https://Blog.Example.org:8080/a/b?x=1#f", "http://x.example",
		"https://user@x.example/a/", "http://[::1]/a/", "ftp://x.example/", "http://xn--bcher-kva.example/p"}
	parts := []string{"/", "a", "B", "-", "_", ".", "..", "~", "%20", " ", "?q", "#f", ":", "é", "//", "9"}
	var refs []string
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range parts {
				refs = append(refs, "/"+a+b+c, "/"+a+"/"+b+c, a+b+c)
			}
		}
	}
	quick := 0
	for _, bs := range bases {
		base, err := url.Parse(bs)
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range refs {
			got, ok := resolvePlainPath(base, ref)
			if !ok {
				continue
			}
			quick++
			u, err := base.Parse(ref)
			if err != nil {
				t.Errorf("%s + %q: quick %q, url.Parse fails: %v", bs, ref, got, err)
				continue
			}
			if want := u.String(); got != want {
				t.Errorf("%s + %q = %q, want %q", bs, ref, got, want)
			}
		}
	}
	if quick == 0 {
		t.Fatal("no reference resolved quickly")
	}
}

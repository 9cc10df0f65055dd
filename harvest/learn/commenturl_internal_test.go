package learn

import (
	"net/url"
	"testing"
)

// TestFragmentURL compares fragmentURL with url.URL's String of the base
// with each fragment, on bases with and without fragments of their own.
func TestFragmentURL(t *testing.T) {
	bases := []string{"http://a.example/p/", "https://a.example/p?q=1", "https://a.example/p?", "http://a.example/p#top",
		"http://a.example/p#a%20b", "http://a.example/p#a%2Fb", "http://u:pw@a.example:81/p%20q/", "mailto:x@a.example",
		"http://a.example/é", "/relative#x"}
	ids := []string{"", "comment-4", "a b", "a#b", "é", "c-1f2e", "%41", "x/y?z", "a%2Fb", "a/b", "top"}
	for _, b := range bases {
		base, err := url.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		f := newFragmentURL(base)
		for _, id := range ids {
			want := ""
			if id != "" {
				u := *base
				u.Fragment = id
				want = u.String()
			}
			if got := f.with(id); got != want {
				t.Errorf("%s with %q = %q, want %q", b, id, got, want)
			}
		}
	}
	var none fragmentURL
	if got := none.with("comment-1"); got != "" {
		t.Errorf("without a base: %q", got)
	}
}

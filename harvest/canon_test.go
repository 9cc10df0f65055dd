package harvest_test

import (
	"testing"

	"github.com/blogharvest/blogharvest/harvest"
)

func TestCanonical(t *testing.T) {
	cases := []struct{ in, want string }{
		{"HTTP://Example.COM:80/a/b/", "http://example.com/a/b/"},
		{"https://example.com:443/", "https://example.com/"},
		{"https://example.com", "https://example.com/"},
		{"https://example.com:8443/x", "https://example.com:8443/x"},
		{"http://ex.com/2013/08/slug/#comment-4", "http://ex.com/2013/08/slug/"},
		{"http://ex.com/slug/?utm_source=rss&utm_medium=feed", "http://ex.com/slug/"},
		{"http://ex.com/slug/?replytocom=42#respond", "http://ex.com/slug/"},
		{"http://ex.com/slug/?share=twitter&nb=1", "http://ex.com/slug/?nb=1"},
		{"http://ex.com/?p=12&a=1", "http://ex.com/?a=1&p=12"},
		{"http://ex.com/dir/index.html", "http://ex.com/dir/"},
		{"http://ex.com/a/./b/../c/", "http://ex.com/a/c/"},
		{"http://ex.com/2013/07/post.html?showComment=1378#c84", "http://ex.com/2013/07/post.html"},
		{"http://ex.com/2013/07/post.html?m=1", "http://ex.com/2013/07/post.html"},
		{"http://user:pw@ex.com/x", "http://ex.com/x"},
		{"http://digital-examples.blogspot.ch/2013/07/a.html", "http://digital-examples.blogspot.com/2013/07/a.html"},
		{"http://x.blogspot.co.uk/", "http://x.blogspot.com/"},
		// A host beyond ASCII and its ASCII form are one page, as a
		// browser requests both.
		{"https://B\u00dcCHER.example/p/", "https://xn--bcher-kva.example/p/"},
		{"https://xn--bcher-kva.example/p/", "https://xn--bcher-kva.example/p/"},
	}
	for _, c := range cases {
		got, err := harvest.Canonical(c.in)
		if err != nil {
			t.Errorf("Canonical(%q): %v", c.in, err)
			continue
		}
		if got != c.want {
			t.Errorf("Canonical(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCanonicalRejects(t *testing.T) {
	for _, in := range []string{"mailto:a@b.c", "ftp://ex.com/x", "/relative/path", "http://%zz"} {
		if got, err := harvest.Canonical(in); err == nil {
			t.Errorf("Canonical(%q) = %q, want an error", in, got)
		}
	}
}

package harvest

import "testing"

// TestScopeIdentity: the crawl's one canonicaliser folds a URL of the
// blog's hosts (www. twin included) under the other scheme into the
// blog's scheme, after Canonical; another host, a port, the blog's own
// scheme and a nil scope are left as they are; twin is fold's inverse on
// the blog's hosts only.
func TestScopeIdentity(t *testing.T) {
	s := newScope(mustURL(t, "https://blog.ex/"), nil, nil)
	for _, c := range []struct{ raw, want, twin string }{
		{"http://blog.ex/2024/01/post/", "https://blog.ex/2024/01/post/", "http://blog.ex/2024/01/post/"},
		{"HTTP://WWW.Blog.ex/a/?utm_source=x", "https://www.blog.ex/a/", "http://www.blog.ex/a/"},
		{"https://blog.ex/a/", "https://blog.ex/a/", "http://blog.ex/a/"},
		{"http://other.ex/a/", "http://other.ex/a/", ""},
		{"http://blog.ex:8080/a/", "http://blog.ex:8080/a/", ""},
	} {
		got, err := s.identity(c.raw)
		if err != nil || got != c.want {
			t.Errorf("identity(%q) = %q, %v; want %q", c.raw, got, err, c.want)
		}
		if tw := s.twin(got); tw != c.twin {
			t.Errorf("twin(%q) = %q, want %q", got, tw, c.twin)
		}
	}
	var none *scope
	if got, _ := none.identity("http://blog.ex/a/"); got != "http://blog.ex/a/" {
		t.Errorf("a nil scope folded %q", got)
	}
}

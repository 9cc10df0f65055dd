package harvest

import (
	"context"
	"testing"
)

// TestLiftUserinfo: user-info leaves the blog's URLs before the crawl
// starts and becomes the credentials, sent to the blog's origins only.
func TestLiftUserinfo(t *testing.T) {
	o := Options{}
	o.Blog.URL, o.Blog.FeedURL = "https://ann:s3cret@blog.example/", "https://ann:s3cret@feeds.example:8443/f"
	o = o.withDefaults()
	if o.Blog.URL != "https://blog.example/" || o.Blog.FeedURL != "https://feeds.example:8443/f" {
		t.Errorf("URLs %q %q still carry user-info", o.Blog.URL, o.Blog.FeedURL)
	}
	if o.Auth == nil || o.Auth.User != "ann" || o.Auth.Password != "s3cret" {
		t.Fatalf("auth %v", o.Auth)
	}
	a := fetchAuth(o)
	if len(a.Origins) != 2 || a.Origins[0] != "https://blog.example:443" || a.Origins[1] != "https://feeds.example:8443" {
		t.Errorf("origins %v", a.Origins)
	}
	given := Options{Auth: &BasicAuth{User: "bob", Password: "x"}}
	given.Blog.URL = "https://ann:s3cret@blog.example/"
	if given = given.withDefaults(); given.Auth.User != "bob" {
		t.Errorf("Auth given was replaced by the URL's: %v", given.Auth)
	}
}

// TestRenderOffWithAuth: a blog behind basic authentication is not
// rendered (the browser would get the 401 page), with one warning.
func TestRenderOffWithAuth(t *testing.T) {
	o := Options{Auth: &BasicAuth{User: "ann", Password: "s3cret"}, Render: RenderAlways}
	o.Blog.URL = "https://blog.example/"
	o = o.withDefaults()
	c := newCrawl(o, newCrawlPolicy(), o.Now(), nil)
	for range 2 {
		if r := c.w.renderer(context.Background()); r != nil {
			t.Fatal("a browser is used for a blog behind basic authentication")
		}
	}
	if len(c.res.Warnings) != 1 {
		t.Errorf("warnings %q, want one", c.res.Warnings)
	}
}

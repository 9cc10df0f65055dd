package fetch_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// TestBasicAuthOnlyToOwnOrigin: the credentials reach the blog's origin,
// robots.txt included, and never another origin, whether linked to or
// reached by a redirect (another port of the same host is another origin).
func TestBasicAuthOnlyToOwnOrigin(t *testing.T) {
	var otherAuth atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			otherAuth.Add(1)
		}
		w.Write([]byte("other"))
	}))
	defer other.Close()
	blog := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "ann" || p != "s3cret" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		if r.URL.Path == "/away" {
			http.Redirect(w, r, other.URL+"/landing", http.StatusFound)
			return
		}
		w.Write([]byte("blog"))
	}))
	defer blog.Close()
	c := newClient(t, fetch.Options{Auth: &fetch.BasicAuth{User: "ann", Password: "s3cret", Origins: []string{blog.URL}}})
	ctx := context.Background()
	if resp, err := c.Get(ctx, blog.URL+"/post"); err != nil || string(resp.Body) != "blog" {
		t.Fatalf("own origin: %v", err)
	}
	if resp, err := c.Get(ctx, blog.URL+"/away"); err != nil || string(resp.Body) != "other" {
		t.Fatalf("redirect: %v", err)
	}
	if _, err := c.Get(ctx, other.URL+"/linked"); err != nil {
		t.Fatal(err)
	}
	if n := otherAuth.Load(); n != 0 {
		t.Errorf("the other origin got %d requests with credentials", n)
	}
	if s := (&fetch.BasicAuth{User: "ann", Password: "s3cret"}).String(); s != "ann:[redacted]" {
		t.Errorf("String() = %q", s)
	}
}

package fetch_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// TestConditionalRequestSendsBaseETag: a validator kept with mod_deflate's
// suffix ("v1-gzip") is asked for with its base ETag, which the
// application behind Apache compares; one without a suffix as it is.
func TestConditionalRequestSendsBaseETag(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("If-None-Match"))
		mu.Unlock()
		w.WriteHeader(http.StatusNotModified)
	})
	c := newClient(t, fetch.Options{IgnoreRobots: true})
	for _, etag := range []string{`"v1-gzip"`, `"v2-br"`, `"v3"`} {
		if _, err := c.Do(context.Background(), fetch.Request{URL: srv.URL + "/feed/", ETag: etag}); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{`"v1"`, `"v2"`, `"v3"`}
	if len(got) != len(want) {
		t.Fatalf("If-None-Match sent %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("If-None-Match sent %q, want %q", got, want)
			break
		}
	}
}

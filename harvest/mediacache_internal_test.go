package harvest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/blogharvest/blogharvest"
)

// TestMediaFetchedOncePerCrawl: two posts show the same picture and the
// same missing one; the server is asked once for each, and both entries
// carry the picture and a problem for the missing one.
func TestMediaFetchedOncePerCrawl(t *testing.T) {
	var logo, gone atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/logo.png", func(w http.ResponseWriter, r *http.Request) {
		logo.Add(1)
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\nlogo"))
	})
	mux.HandleFunc("/gone.png", func(w http.ResponseWriter, r *http.Request) {
		gone.Add(1)
		http.NotFound(w, r)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := loopbackCrawl(t, srv.URL)
	c.w.fetch.cfg.media = mediaConfig{maxBytes: 1 << 20, maxPerEntry: 10} // the page worker captures media
	var entries []*blogharvest.Entry
	for _, p := range []string{"/a/", "/b/"} {
		e := &blogharvest.Entry{URL: srv.URL + p, Content: `<p>Post.</p><img src="/logo.png"><img src="/gone.png">`}
		c.w.captureMedia(context.Background(), e)
		entries = append(entries, e)
	}
	if logo.Load() != 1 || gone.Load() != 1 {
		t.Errorf("server asked %d times for the picture and %d for the missing one; want once each", logo.Load(), gone.Load())
	}
	for _, e := range entries {
		if len(e.Files) != 1 || string(e.Files[0].Body) != "\x89PNG\r\n\x1a\nlogo" || len(e.Problems) != 1 {
			t.Errorf("%s: %d files, problems %q; want the picture and one problem", e.URL, len(e.Files), e.Problems)
		}
	}
}

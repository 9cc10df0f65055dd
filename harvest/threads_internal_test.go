package harvest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
)

// TestPollThreads: of three watched comment thread APIs, one answering
// as before (304 to its ETag), one whose thread got a comment, and one
// whose JSON changes on every request (a counter), only the second marks
// its post changed; the third is asked twice and no longer watched, the
// others stay watched with what they answered now.
func TestPollThreads(t *testing.T) {
	var hits atomic.Int64
	comments := `{"data":[{"id":1,"nick":"Ann","comment":"First."}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/same":
			w.Header().Set("ETag", `"s1"`)
			if r.Header.Get("If-None-Match") == `"s1"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			fmt.Fprint(w, comments)
		case "/commented":
			fmt.Fprint(w, `{"data":[{"id":1,"nick":"Ann","comment":"First."},{"id":2,"nick":"Bob","comment":"Second."}]}`)
		case "/counter":
			fmt.Fprintf(w, `{"views":%d}`, hits.Add(1))
		}
	}))
	defer srv.Close()
	// An internal service on another loopback port: a watch list read
	// from a tampered archive or state may name it; it is never asked
	// (the fetch client's address guard, the one the browser's proxy
	// applies too).
	var internal atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { internal.Add(1) }))
	defer other.Close()
	old := digestOf([]byte(comments))
	st := State{CrawlState: blogharvest.CrawlState{Threads: map[string][]blogharvest.Validators{
		srv.URL + "/a/": {{URL: srv.URL + "/same", ETag: `"s1"`, Digest: old}},
		srv.URL + "/b/": {{URL: srv.URL + "/commented", Digest: old}},
		srv.URL + "/c/": {{URL: srv.URL + "/counter", Digest: digestOf([]byte(`{"views":0}`))}},
		srv.URL + "/d/": {{URL: other.URL + "/admin.json", Digest: old}},
	}}}
	o := Options{Blog: blogharvest.Blog{ID: "t", URL: srv.URL + "/"}, State: st}.withDefaults()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c := newCrawl(o, updatePolicy(o, now.Add(-time.Hour), now), now, nil)
	if err := c.newClient(); err != nil {
		t.Fatal(err)
	}
	if !c.pollThreads(context.Background()) {
		t.Fatal("no thread changed")
	}
	if len(c.threadsChanged) != 1 || !c.threadsChanged[srv.URL+"/b/"] {
		t.Errorf("changed %v, want only %s/b/", c.threadsChanged, srv.URL)
	}
	if n := hits.Load(); n != 2 {
		t.Errorf("the counter was asked %d times, want 2", n)
	}
	if n := internal.Load(); n != 0 {
		t.Errorf("a watched URL on a non-public address other than the blog's was asked %d times", n)
	}
	items := map[string]string{srv.URL + "/a/": "", srv.URL + "/b/": "", srv.URL + "/c/": ""}
	next := c.threadState(items)
	if len(next[srv.URL+"/a/"]) != 1 || len(next[srv.URL+"/b/"]) != 1 || len(next[srv.URL+"/c/"]) != 0 {
		t.Errorf("next watch %v: want /a/ and /b/ (not rendered again: asked again next time), not /c/", next)
	}
	if next[srv.URL+"/b/"][0].Digest != old {
		t.Errorf("a changed thread whose post was not rendered again keeps its old digest, got %v", next[srv.URL+"/b/"])
	}
}

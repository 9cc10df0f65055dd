// Package fixturetest serves the project's fixture blogs altered for a
// test: what no generated blog shows, such as a page stating more comments
// than any source holds. It is imported by tests only.
package fixturetest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/blogharvest/blogharvest/internal/fixture"
)

// ShortfallBlog serves the demo blog with one post whose page states
// (JSON-LD commentCount) three comments more than it and its comment feed
// hold: a shortfall no source can fill. It returns the server, the post's
// URL and the count it states.
func ShortfallBlog(t testing.TB) (srv *httptest.Server, post string, stated int) {
	t.Helper()
	site := fixture.MustNew("wordpress")
	h := site.Handler()
	var target atomic.Value // the post's path, set once the server's URL is known
	target.Store("")
	var count atomic.Int64 // the count the page states, read by the handler: a request may come before it is set
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != target.Load().(string) {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		ld := fmt.Sprintf(`<script type="application/ld+json">{"@context":"https://schema.org","@type":"BlogPosting","commentCount":%d}</script></head>`, count.Load())
		fmt.Fprint(w, strings.Replace(rec.Body.String(), "</head>", ld, 1))
	}))
	t.Cleanup(srv.Close)
	for _, p := range site.Truth(srv.URL).Posts {
		if len(p.Comments) > 0 && p.Kind == "post" {
			post, stated = p.URL, len(p.Comments)+3
			count.Store(int64(stated))
			target.Store(strings.TrimPrefix(p.URL, srv.URL))
			break
		}
	}
	return srv, post, stated
}

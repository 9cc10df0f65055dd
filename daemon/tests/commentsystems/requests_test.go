package commentsystems_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
)

// requestLog records the requests a server received, for counting what
// a crawl cost at the servers. Safe for concurrent use.
type requestLog struct {
	mu   sync.Mutex
	reqs []loggedRequest
}

// loggedRequest is one request a server received.
type loggedRequest struct {
	method string
	url    *url.URL // path and query, as sent
}

func (r loggedRequest) String() string { return r.method + " " + r.url.RequestURI() }

// wrap returns h recording every request in l.
func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := *r.URL
		l.mu.Lock()
		l.reqs = append(l.reqs, loggedRequest{method: r.Method, url: &u})
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// take returns the requests recorded since the last take and forgets
// them.
func (l *requestLog) take() []loggedRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.reqs
	l.reqs = nil
	return out
}

// countingProxy returns a loopback server passing every request on to
// target (an origin: scheme://host:port) unchanged, Host header
// included, and recording it in l. It closes when the test ends.
func countingProxy(t *testing.T, target string, l *requestLog) *httptest.Server {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := httputil.NewSingleHostReverseProxy(u)
	p.ErrorHandler = func(w http.ResponseWriter, _ *http.Request, _ error) {
		w.WriteHeader(http.StatusBadGateway) // the service not up yet: startService asks again
	}
	srv := httptest.NewServer(l.wrap(p))
	t.Cleanup(srv.Close)
	return srv
}

// requestKinds sorts what an update crawl asked the blog's and the
// comment service's servers for (reqs, both logs) by what the test
// knows of them: the blog's feeds and robots.txt, the comment threads
// (thread, the system's own word for its thread API), and anything else.
func requestKinds(reqs []loggedRequest, thread func(loggedRequest) bool) (feeds, threads, other []string) {
	for _, r := range reqs {
		p := r.url.Path
		switch {
		case r.method == http.MethodGet && (p == "/feed.xml" || p == "/rss/" || p == "/robots.txt"):
			feeds = append(feeds, r.String())
		case r.method == http.MethodGet && thread(r):
			threads = append(threads, r.String())
		default:
			other = append(other, r.String())
		}
	}
	slices.Sort(feeds)
	slices.Sort(threads)
	slices.Sort(other)
	return feeds, threads, other
}

// describeRequests is reqs as lines for a test's log.
func describeRequests(feeds, threads, other []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d requests: %d feeds and robots.txt, %d comment threads, %d other", len(feeds)+len(threads)+len(other), len(feeds), len(threads), len(other))
	for _, group := range [][]string{feeds, threads, other} {
		for _, r := range group {
			b.WriteString("\n\t" + r)
		}
	}
	return b.String()
}

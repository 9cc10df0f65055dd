package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/blogharvest/blogharvest/harvest/feed"
)

// replay serves one corpus blog on loopback for every host of the blog,
// following the corpus README's rules, with the posts feed cut to its
// newest half.
type replay struct {
	blog     *corpusBlog
	feedURL  *url.URL
	feed     []byte      // the cut feed
	kept     []feed.Item // the feed items served
	heldOut  []feed.Item // the older items cut away
	srv      *httptest.Server
	requests atomic.Int64
}

// newReplay reads a blog's feed, cuts it and starts the server.
func newReplay(b *corpusBlog) (*replay, error) {
	f, raw, err := b.parseFeed()
	if err != nil {
		return nil, err
	}
	r := &replay{blog: b}
	if r.feedURL, err = url.Parse(b.Feed); err != nil {
		return nil, fmt.Errorf("blog %s: feed url: %w", b.Name, err)
	}
	if err := r.cut(f, raw); err != nil {
		return nil, fmt.Errorf("blog %s: %w", b.Name, err)
	}
	r.srv = httptest.NewServer(r)
	return r, nil
}

// Close stops the server.
func (r *replay) Close() { r.srv.Close() }

// entryRE finds the items of an RSS feed and the entries of an Atom feed.
var entryRE = regexp.MustCompile(`(?s)<item[\s>].*?</item>|<entry[\s>].*?</entry>`)

// cut keeps the newest half of the feed's items (by date; the newer half
// gets the odd one) and drops the others from the XML.
func (r *replay) cut(f *feed.Feed, raw []byte) error {
	locs := entryRE.FindAllIndex(raw, -1)
	if len(locs) != len(f.Items) {
		return fmt.Errorf("cut feed: %d item elements, %d parsed items", len(locs), len(f.Items))
	}
	order := make([]int, len(f.Items))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return before(itemDate(f.Items[order[a]]), itemDate(f.Items[order[b]])) })
	drop := map[int]bool{}
	for _, i := range order[:len(order)/2] {
		drop[i] = true
		r.heldOut = append(r.heldOut, f.Items[i])
	}
	var b bytes.Buffer
	last := 0
	for i, loc := range locs {
		if drop[i] {
			b.Write(raw[last:loc[0]])
			last = loc[1]
		} else {
			r.kept = append(r.kept, f.Items[i])
		}
	}
	b.Write(raw[last:])
	r.feed = b.Bytes()
	return nil
}

// itemDate is an item's publication date, else its update date.
func itemDate(it feed.Item) time.Time {
	if !it.Published.IsZero() {
		return it.Published
	}
	return it.Updated
}

// ServeHTTP answers GET for the blog's files (corpus README): /x/ is
// x/index.html, /x is the file x or a redirect to /x/ for a folder, query
// strings are ignored, everything else is 404. The feed URL serves the cut
// feed, and 404 with a query (no feed paging: older entries stay hidden).
func (r *replay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.requests.Add(1)
	host := hostOnly(req.Host)
	if strings.EqualFold(host, r.feedURL.Hostname()) && req.URL.Path == r.feedURL.Path {
		if req.URL.RawQuery != "" {
			http.NotFound(w, req)
			return
		}
		serve(w, req, "application/xml", r.feed)
		return
	}
	f := r.blog.fileAt(host, req.URL.Path)
	fi, err := os.Stat(f)
	switch {
	case f == "" || err != nil:
		http.NotFound(w, req)
	case fi.IsDir():
		http.Redirect(w, req, (&url.URL{Path: req.URL.Path + "/"}).EscapedPath(), http.StatusMovedPermanently)
	default:
		r.serveFile(w, req, f)
	}
}

// serveFile sends one corpus file with its sniffed content type.
func (r *replay) serveFile(w http.ResponseWriter, req *http.Request, f string) {
	body, err := os.ReadFile(f)
	if err != nil || len(body) == 0 {
		http.NotFound(w, req)
		return
	}
	serve(w, req, contentType(f, body), body)
}

// serve writes a 200 response.
func serve(w http.ResponseWriter, req *http.Request, ctype string, body []byte) {
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(http.StatusOK)
	if req.Method != http.MethodHead {
		w.Write(body)
	}
}

// hostOnly strips a port from a Host header.
func hostOnly(h string) string {
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.Contains(h[i:], "]") {
		return h[:i]
	}
	return h
}

// loopback is an http.RoundTripper that sends every request, http or
// https, for any host, to one loopback server, keeping the original Host:
// the crawler sees the blog's own absolute URLs and nothing leaves the
// machine.
type loopback struct {
	addr string
	base http.RoundTripper
}

var _ http.RoundTripper = (*loopback)(nil)

// newLoopback returns a transport to the server at srv.
func newLoopback(srv *httptest.Server) *loopback {
	return &loopback{addr: srv.Listener.Addr().String(), base: &http.Transport{}}
}

// RoundTrip rewrites the request to the loopback server.
func (l *loopback) RoundTrip(req *http.Request) (*http.Response, error) {
	out := req.Clone(req.Context())
	out.URL.Scheme, out.URL.Host = "http", l.addr
	out.Host = req.URL.Host
	resp, err := l.base.RoundTrip(out)
	if resp != nil {
		resp.Request = req
	}
	return resp, err
}

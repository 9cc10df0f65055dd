package harvest_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest"
)

// corpusDir is the shared test corpus, relative to this package.
const corpusDir = "../../shared/corpus"

// corpusBlog is the part of a corpus blog.json the tests read.
type corpusBlog struct {
	Name     string   `json:"name"`
	URL      string   `json:"url"`
	Feed     string   `json:"feed"`
	FeedKind string   `json:"feed_kind"`
	Hosts    []string `json:"hosts"`
	Posts    int      `json:"posts"`
}

// replay serves one corpus blog's site/<host>/<path> files for every host
// of the blog, per the corpus README rules, with the posts feed cut to
// its newest half.
type replay struct {
	dir     string // the blog's folder
	blog    corpusBlog
	feed    []byte   // the cut feed
	heldOut []string // links of the feed entries cut away (resolving to a file), canonical
	kept    []string
}

// loadReplay reads a corpus blog; it skips the test when the corpus is absent.
func loadReplay(t testing.TB, name string) *replay {
	t.Helper()
	dir := filepath.Join(corpusDir, name)
	raw, err := os.ReadFile(filepath.Join(dir, "blog.json"))
	if os.IsNotExist(err) {
		t.Skipf("corpus blog %s absent", name)
	}
	if err != nil {
		t.Fatal(err)
	}
	r := &replay{dir: dir}
	if err := json.Unmarshal(raw, &r.blog); err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(r.fileFor(mustParse(t, r.blog.Feed)))
	if err != nil {
		t.Fatalf("feed file: %v", err)
	}
	r.cutFeed(t, orig)
	return r
}

func mustParse(t testing.TB, raw string) *url.URL {
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// fileFor maps a URL to its file under site/ (README "site/" rules).
func (r *replay) fileFor(u *url.URL) string {
	p := u.Path
	if p == "" || strings.HasSuffix(p, "/") {
		p += "index.html"
	}
	return filepath.Join(r.dir, "site", strings.ToLower(u.Hostname()), filepath.FromSlash(p))
}

// entryRE finds the items of an RSS or Atom feed.
var entryRE = regexp.MustCompile(`(?s)<item[ >].*?</item>|<entry[ >].*?</entry>`)

// cutFeed keeps the newest half of the feed's entries (feeds list newest
// first) and records the links of both halves.
func (r *replay) cutFeed(t testing.TB, orig []byte) {
	locs := entryRE.FindAllIndex(orig, -1)
	keep := (len(locs) + 1) / 2
	for i, loc := range locs {
		link := entryLink(orig[loc[0]:loc[1]])
		c, err := harvest.Canonical(link)
		if err != nil {
			continue
		}
		if _, err := os.Stat(r.fileFor(mustParse(t, c))); err != nil {
			continue // not captured in the corpus
		}
		if i < keep {
			r.kept = append(r.kept, c)
		} else {
			r.heldOut = append(r.heldOut, c)
		}
	}
	if len(locs) == 0 {
		r.feed = orig
		return
	}
	var b bytes.Buffer
	b.Write(orig[:locs[0][0]])
	for _, loc := range locs[:keep] {
		b.Write(orig[loc[0]:loc[1]])
	}
	b.Write(orig[locs[len(locs)-1][1]:])
	r.feed = b.Bytes()
}

// entryLink returns an RSS <link> or the Atom rel="alternate" href of one entry.
func entryLink(entry []byte) string {
	d := xml.NewDecoder(bytes.NewReader(entry))
	d.Strict = false
	for {
		tok, err := d.Token()
		if err != nil {
			return ""
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "link" {
			continue
		}
		rel, href := "alternate", ""
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "rel":
				rel = a.Value
			case "href":
				href = a.Value
			}
		}
		if href != "" && rel == "alternate" {
			return href
		}
		if href == "" {
			var s string
			if d.DecodeElement(&s, &se) == nil && strings.TrimSpace(s) != "" {
				return strings.TrimSpace(s)
			}
		}
	}
}

// hrefRE finds link targets in HTML, well enough for a test oracle.
var hrefRE = regexp.MustCompile(`href\s*=\s*["']([^"'#]+)`)

// reachable returns the held-out URLs that following links from the home
// page and the pages of the kept feed entries reaches (a breadth-first walk
// over the captured files, independent of the crawler); the others cannot
// be found by links (corpus README, "Evaluating discovery").
func (r *replay) reachable(t testing.TB) map[string]bool {
	seen := map[string]bool{canonicalOrEmpty(r.blog.Feed): true} // the uncut feed is not served
	queue := append([]string{canonicalOrEmpty(r.blog.URL)}, r.kept...)
	for _, u := range queue {
		seen[u] = true
	}
	for len(queue) > 0 {
		u := mustParse(t, queue[0])
		queue = queue[1:]
		body, err := os.ReadFile(r.fileFor(u))
		if err != nil {
			continue
		}
		for _, m := range hrefRE.FindAllSubmatch(body, -1) {
			ref, err := u.Parse(string(m[1]))
			if err != nil {
				continue
			}
			c := canonicalOrEmpty(ref.String())
			if c == "" || seen[c] || !r.onBlog(ref) {
				continue
			}
			if st, err := os.Stat(r.fileFor(mustParse(t, c))); err == nil && !st.IsDir() {
				seen[c] = true
				queue = append(queue, c)
			}
		}
	}
	out := map[string]bool{}
	for _, u := range r.heldOut {
		out[u] = seen[u]
	}
	return out
}

func canonicalOrEmpty(raw string) string {
	c, _ := harvest.Canonical(raw)
	return c
}

// onBlog reports whether u is on one of the blog's hosts.
func (r *replay) onBlog(u *url.URL) bool {
	for _, h := range r.blog.Hosts {
		if strings.EqualFold(u.Hostname(), h) {
			return true
		}
	}
	return false
}

// ServeHTTP answers for every host of the blog from its site/ folder.
func (r *replay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	u := *req.URL
	u.Host = req.Host
	u.RawQuery = ""
	if feedURL := mustParseOK(r.blog.Feed); feedURL != nil && strings.EqualFold(feedURL.Host, u.Host) && feedURL.Path == u.Path {
		w.Header().Set("Content-Type", "application/xml")
		w.Write(r.feed)
		return
	}
	name := r.fileFor(&u)
	if st, err := os.Stat(name); err == nil && st.IsDir() {
		http.Redirect(w, req, u.Path+"/", http.StatusMovedPermanently)
		return
	}
	body, err := os.ReadFile(name)
	if err != nil {
		http.NotFound(w, req)
		return
	}
	w.Header().Set("Content-Type", contentType(name, body))
	w.Write(body)
}

func mustParseOK(raw string) *url.URL {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	return u
}

// feedRoot finds the first element of a feed after declarations and comments.
var feedRoot = regexp.MustCompile(`^(?s)\s*(?:<\?.*?\?>\s*|<!--.*?-->\s*)*<(rss|feed|rdf:RDF)[\s>]`)

// contentType is XML for .xml/.rss/.atom/.rdf and sniffed feeds, else HTML.
func contentType(name string, body []byte) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".xml", ".rss", ".atom", ".rdf":
		return "application/xml"
	}
	if feedRoot.Match(body) {
		return "application/xml"
	}
	return "text/html; charset=utf-8"
}

// replayTransport sends every request, whatever its scheme and host, to
// the replay server on loopback, keeping the original Host.
type replayTransport struct {
	addr string
	next http.RoundTripper
}

func (rt replayTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r2 := req.Clone(req.Context())
	r2.URL.Scheme, r2.URL.Host, r2.Host = "http", rt.addr, req.URL.Host
	resp, err := rt.next.RoundTrip(r2)
	if resp != nil {
		resp.Request = req
	}
	return resp, err
}

// start serves the replay on loopback and returns a transport reaching it.
func (r *replay) start(t testing.TB) http.RoundTripper {
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return replayTransport{addr: srv.Listener.Addr().String(), next: srv.Client().Transport}
}

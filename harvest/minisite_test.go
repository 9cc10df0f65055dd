package harvest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"
)

// miniSite is a small hand-written blog served on loopback: each path's
// document, with "{{base}}" replaced by the server's own URL. A path that
// names no document answers 404; "/x" answers a 301 to "/x/" when "/x/" is
// a document, as a static host does.
type miniSite struct {
	docs      map[string]string
	redirects map[string]string // path → path an HTTP 301 sends it to
}

func newMiniSite() *miniSite {
	return &miniSite{docs: map[string]string{}, redirects: map[string]string{}}
}

func (s *miniSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	base := "http://" + r.Host
	if to, ok := s.redirects[r.URL.Path]; ok {
		http.Redirect(w, r, base+to, http.StatusMovedPermanently)
		return
	}
	doc, ok := s.docs[r.URL.Path]
	if !ok {
		if _, dir := s.docs[r.URL.Path+"/"]; dir {
			http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
			return
		}
		http.NotFound(w, r)
		return
	}
	ct := "text/html; charset=utf-8"
	if t := strings.TrimSpace(doc); strings.HasPrefix(t, "<?xml") || strings.HasPrefix(t, "<rss") {
		ct = "application/xml"
	}
	w.Header().Set("Content-Type", ct)
	fmt.Fprint(w, strings.ReplaceAll(doc, "{{base}}", base))
}

// start serves the site on loopback.
func (s *miniSite) start(t testing.TB) *httptest.Server {
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv
}

// miniItem is one item of a miniSite's RSS feed.
type miniItem struct {
	path, title, body, guid string
	date                    time.Time
	comments                int // slash:comments; -1 for none
}

// rss writes an RSS 2.0 feed of items (newest first, as given).
func rss(title, lang string, items []miniItem) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:slash="http://purl.org/rss/1.0/modules/slash/" xmlns:atom="http://www.w3.org/2005/Atom"><channel>
<title>%s</title><link>{{base}}/</link><description>%s</description><language>%s</language>
`, title, title, lang)
	for _, it := range items {
		guid := it.guid
		if guid == "" {
			guid = "{{base}}" + it.path
		}
		fmt.Fprintf(&b, "<item><title>%s</title><link>{{base}}%s</link><guid isPermaLink=\"false\">%s</guid><pubDate>%s</pubDate>",
			it.title, it.path, guid, it.date.Format(time.RFC1123Z))
		if it.comments >= 0 {
			fmt.Fprintf(&b, "<slash:comments>%d</slash:comments>", it.comments)
		}
		fmt.Fprintf(&b, "<description><![CDATA[%s]]></description></item>\n", it.body)
	}
	b.WriteString("</channel></rss>\n")
	return b.String()
}

// prose returns n paragraphs of distinct text about topic, for articles
// long enough to read as posts.
func prose(topic string, n int) string {
	var b strings.Builder
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "<p>Paragraph %d about %s: we walked along the canal in the morning light, counted the herons "+
			"on the far bank, and wrote down what the lock keeper told us about %s and the old mills of the valley.</p>\n",
			k, topic, topic)
	}
	return b.String()
}

// sortedKeys returns m's keys in order, for stable messages.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

package daemon_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// rawBlog is a small blog served from raw bytes, so tests can put any byte
// into a page or a feed: a home page, an RSS feed of summaries and one HTML
// page per post.
type rawBlog struct {
	feedTitle string
	feedType  string // Content-Type of the feed
	posts     []rawPost
	user      string // when set, every request needs basic auth user:pass
	pass      string
	extra     string // HTML appended to every post page (links to elsewhere)
	cycle     bool   // the first post's comment feed has two comments answering each other
	away      string // when set, /away/ redirects there

	mu     sync.Mutex
	served map[string][]byte // path → bytes served
}

// rawPost is one post: its path, title and article body (raw bytes).
type rawPost struct{ path, title, body string }

func newRawBlog(n int) *rawBlog {
	b := &rawBlog{feedTitle: "Raw blog", feedType: "application/rss+xml; charset=utf-8", served: map[string][]byte{}}
	for i := range n {
		b.posts = append(b.posts, rawPost{
			path:  fmt.Sprintf("/2025/0%d/post-%d/", i%9+1, i+1),
			title: fmt.Sprintf("Post number %d about rivers", i+1),
			body: strings.Repeat(fmt.Sprintf("<p>Paragraph of post %d on the river and its bridges, with enough words "+
				"to be an article worth extracting from the page.</p>\n", i+1), 6),
		})
	}
	return b
}

func (b *rawBlog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if b.user != "" {
		if u, p, ok := r.BasicAuth(); !ok || u != b.user || p != b.pass {
			w.Header().Set("WWW-Authenticate", `Basic realm="blog"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
	}
	base := "http://" + r.Host
	var body []byte
	switch p := r.URL.Path; p {
	case "/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		body = b.home(base)
	case "/feed.xml":
		w.Header().Set("Content-Type", b.feedType)
		body = b.feed(base)
	case "/away/":
		if b.away != "" {
			http.Redirect(w, r, b.away, http.StatusFound)
			return
		}
		http.NotFound(w, r)
		return
	case "/comments-0.xml":
		w.Header().Set("Content-Type", "application/atom+xml")
		body = []byte(cycleComments)
	default:
		i := b.find(p)
		if i < 0 {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		body = b.page(base, b.posts[i])
	}
	b.mu.Lock()
	b.served[r.URL.Path] = body
	b.mu.Unlock()
	w.Write(body)
}

func (b *rawBlog) find(p string) int {
	for i, post := range b.posts {
		if post.path == p {
			return i
		}
	}
	return -1
}

func (b *rawBlog) home(base string) []byte {
	var s strings.Builder
	fmt.Fprintf(&s, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Raw blog</title>\n"+
		"<link rel=\"alternate\" type=\"application/rss+xml\" href=\"%s/feed.xml\"></head><body><h1>Raw blog</h1><ul>\n", base)
	for _, p := range b.posts {
		fmt.Fprintf(&s, "<li><a href=\"%s%s\">%s</a></li>\n", base, p.path, html.EscapeString(p.title))
	}
	s.WriteString("</ul></body></html>\n")
	return []byte(s.String())
}

func (b *rawBlog) feed(base string) []byte {
	var s strings.Builder
	fmt.Fprintf(&s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" xmlns:wfw=\"http://wellformedweb.org/CommentAPI/\"><channel><title>%s</title><link>%s/</link><description>Small</description>\n",
		b.feedTitle, base)
	start := time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)
	for i, p := range b.posts {
		fmt.Fprintf(&s, "<item><title>%s</title><link>%s%s</link><guid isPermaLink=\"false\">raw-%d</guid><pubDate>%s</pubDate>"+
			"<description>The start of post %d […]</description>",
			p.title, base, p.path, i, start.Add(time.Duration(i)*24*time.Hour).Format(time.RFC1123Z), i+1)
		if b.cycle && i == 0 {
			fmt.Fprintf(&s, "<wfw:commentRss>%s/comments-0.xml</wfw:commentRss>", base)
		}
		s.WriteString("</item>\n")
	}
	s.WriteString("</channel></rss>\n")
	return []byte(s.String())
}

func (b *rawBlog) page(base string, p rawPost) []byte {
	return []byte(fmt.Sprintf("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title></head>\n"+
		"<body><header><a href=\"%s/\">Raw blog</a></header><main><article class=\"post\"><h1 class=\"entry-title\">%s</h1>\n"+
		"<div class=\"entry-content\">\n%s</div></article></main>%s<footer>Footer text</footer></body></html>\n",
		p.title, base, p.title, p.body, b.extra))
}

// cycleComments is a comment feed whose two comments answer each other:
// no archivable record can hold them.
const cycleComments = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:thr="http://purl.org/syndication/thread/1.0">
<title>Comments</title><id>urn:c</id><updated>2025-01-02T00:00:00Z</updated>
<entry><id>urn:c:1</id><title>One</title><author><name>Ann</name></author><updated>2025-01-02T00:00:00Z</updated>
<content type="html">The first comment, answering the second.</content><thr:in-reply-to ref="urn:c:2"/></entry>
<entry><id>urn:c:2</id><title>Two</title><author><name>Bob</name></author><updated>2025-01-02T01:00:00Z</updated>
<content type="html">The second comment, answering the first.</content><thr:in-reply-to ref="urn:c:1"/></entry>
</feed>
`

// servedSum returns the sha256 of what was served at path.
func (b *rawBlog) servedSum(path string) [32]byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return sha256.Sum256(b.served[path])
}

// archiveFiles returns every regular file under root with its content.
func archiveFiles(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			data, _ := os.ReadFile(p)
			out[p] = data
		}
		return nil
	})
	return out
}

// TestControlCharactersInPageText: a page whose text holds U+0001 and U+000C
// is archived, its record text without them, one warning, its raw page
// bytes as served, and check passes.
func TestControlCharactersInPageText(t *testing.T) {
	b := newRawBlog(4)
	b.posts[1].body = "<p>Before\x01 the bell\x0c after the form feed.</p>\n" + b.posts[1].body
	srv := httptest.NewServer(b)
	defer srv.Close()
	out := t.TempDir()
	code, stdout, stderr := daemontest.Run(t, "crawl", "-url", srv.URL+"/", "-out", out, "-delay", "1ms", "-render", "never")
	if code != 0 {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, stdout, stderr)
	}
	files := archiveFiles(t, out)
	want := b.servedSum(b.posts[1].path)
	var raw, marc, warned int
	for p, data := range files {
		if filepath.Base(p) == "capture.log" {
			warned += strings.Count(string(data), "# problem: text: characters not allowed in XML removed from full_content")
		}
		if sha256.Sum256(data) == want {
			raw++
		}
		if strings.HasSuffix(p, ".xml") && strings.Contains(string(data), "form feed") {
			marc++
			if strings.ContainsAny(string(data), "\x01\x0c") {
				t.Errorf("%s holds a control character", p)
			}
		}
	}
	if raw == 0 {
		t.Errorf("the raw page is not in the archive byte for byte")
	}
	if marc == 0 {
		t.Errorf("no record holds the page's text\n%s", stderr)
	}
	if warned != 1 {
		t.Errorf("%d capture logs record the removal, want 1", warned)
	}
	if code, stdout, _ := daemontest.Run(t, "check", out); code != 0 {
		t.Errorf("check: exit %d\n%s", code, stdout)
	}
}

// TestControlCharacterInFeedTitle: one U+0001 in the feed's title (and one
// in an item's title) no longer fails the harvest; the blog is archived and
// the archived feed keeps the bytes as served.
func TestControlCharacterInFeedTitle(t *testing.T) {
	b := newRawBlog(4)
	b.feedTitle = "Raw\x01 blog"
	b.posts[2].title = "Post\x01 three"
	srv := httptest.NewServer(b)
	defer srv.Close()
	out := t.TempDir()
	code, stdout, stderr := daemontest.Run(t, "crawl", "-url", srv.URL+"/", "-out", out, "-delay", "1ms", "-render", "never")
	if code != 0 {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, stdout, stderr)
	}
	blogs, _ := filepath.Glob(filepath.Join(out, "*", "blog", "v1", "bagit.txt"))
	entries, _ := filepath.Glob(filepath.Join(out, "*", "entries", "*", "*", "v1", "bagit.txt"))
	if len(blogs) != 1 || len(entries) != 4 {
		t.Errorf("%d blog and %d entry AIPs, want 1 and 4\n%s", len(blogs), len(entries), stderr)
	}
	want := b.servedSum("/feed.xml")
	found := false
	for p, data := range archiveFiles(t, out) {
		found = found || sha256.Sum256(data) == want
		if !strings.Contains(p, "objects") && strings.Contains(string(data), "\x01") {
			t.Errorf("%s holds U+0001", p)
		}
	}
	if !found {
		t.Error("the feed is not archived as served")
	}
	if !strings.Contains(stderr, "2 characters not allowed in XML removed before parsing") {
		t.Errorf("no warning names the repair:\n%s", stderr)
	}
	if code, stdout, _ := daemontest.Run(t, "check", out); code != 0 {
		t.Errorf("check: exit %d\n%s", code, stdout)
	}
}

// TestLatin1BytesInUTF8 serves a UTF-8 feed and UTF-8 pages holding three
// Latin-1 bytes: every other non-ASCII character comes out right, and only
// the three bytes are replaced, each by its windows-1252 reading.
func TestLatin1BytesInUTF8(t *testing.T) {
	b := newRawBlog(4)
	good := "café naïve Zürich 日本語"
	b.posts[1].title = "Good " + good + " and bad \xe9t\xe9 \x93q\x94"
	b.posts[1].body = "<p>Body " + good + " and bad \xe9t\xe9 \x93q\x94 end.</p>\n" + b.posts[1].body
	srv := httptest.NewServer(b)
	defer srv.Close()
	out := t.TempDir()
	code, stdout, stderr := daemontest.Run(t, "crawl", "-url", srv.URL+"/", "-out", out, "-delay", "1ms", "-render", "never")
	if code != 0 {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, stdout, stderr)
	}
	wantTitle := "Good " + good + " and bad été “q”"
	wantBody := "Body " + good + " and bad été “q” end."
	var title, body int
	for p, data := range archiveFiles(t, out) {
		if !strings.HasSuffix(p, ".xml") {
			continue
		}
		s := string(data)
		title += strings.Count(s, wantTitle)
		body += strings.Count(s, wantBody)
		for _, bad := range []string{"Ã", "â€", "\ufffd"} {
			if strings.Contains(s, bad) {
				t.Errorf("%s holds mojibake %q", p, bad)
			}
		}
	}
	if title == 0 || body == 0 {
		t.Errorf("title found %d times, body %d times in the records\n%s", title, body, stderr)
	}
}

// TestReplyCycleKeepsThePost: a post whose comment feed holds two
// comments answering each other (issue 38, finding 3) is archived with
// both comments; the link of the one added first is removed (it then
// answers the post), which the log, the entry's problems (its AIP) and the
// ledger's comment shortfall say. Before, the record was invalid and the
// post was lost: "entry not archived … parent links form a cycle", exit 1.
func TestReplyCycleKeepsThePost(t *testing.T) {
	t.Parallel()
	b := newRawBlog(4)
	b.cycle = true
	srv := httptest.NewServer(b)
	defer srv.Close()
	dir, code, stdout, stderr := crawlRaw(t, srv.URL)
	if code != 0 || strings.Contains(stderr, "entry not archived") {
		t.Errorf("crawl: exit %d, want 0\n%s\n%s", code, stdout, stderr)
	}
	post := srv.URL + b.posts[0].path
	if !strings.Contains(stderr, "reply cycle") || !strings.Contains(stderr, post) {
		t.Errorf("the log does not name the reply cycle and the post:\n%s", stderr)
	}
	entries, _ := filepath.Glob(filepath.Join(dir, "archive", "raw", "entries", "*", "*", "v1", "bagit.txt"))
	if len(entries) != 4 {
		t.Errorf("%d entry AIPs, want 4", len(entries))
	}
	var mets, capture []byte
	for _, e := range entries {
		if data, _ := os.ReadFile(filepath.Join(filepath.Dir(e), "data", "METS.xml")); bytes.Contains(data, []byte("answering the second")) {
			mets = data
			capture, _ = os.ReadFile(filepath.Join(filepath.Dir(e), "data", "logs", "capture.log"))
		}
	}
	for _, text := range []string{"The first comment, answering the second.", "The second comment, answering the first."} {
		if !bytes.Contains(mets, []byte(text)) {
			t.Errorf("the post's METS lacks %q", text)
		}
	}
	if !bytes.Contains(capture, []byte("# problem: comments: a reply cycle of 2 comment(s)")) {
		t.Errorf("the post's capture log names no reply cycle:\n%s", capture)
	}
	ledger, _ := filepath.Glob(filepath.Join(dir, "archive", "raw", "blog", "v1", "data", "logs", "ledger.tsv"))
	var found bool
	for _, f := range ledger {
		data, _ := os.ReadFile(f)
		for _, line := range strings.Split(string(data), "\n") {
			found = found || strings.HasPrefix(line, post) && strings.Contains(line, "reply cycle")
		}
	}
	if !found {
		t.Errorf("no ledger line of %s names the reply cycle (ledger files %q)", post, ledger)
	}
	if code, out, stderr := daemontest.Run(t, "check", filepath.Join(dir, "archive")); code != 0 {
		t.Errorf("check: exit %d\n%s%s", code, out, stderr)
	}
}

// crawlRaw crawls the blog at url with a config naming it "raw" (delay
// 1 ms, no rendering) into a new folder, and returns the folder (its
// archive in "archive") and the crawl's exit code and output.
func crawlRaw(t *testing.T, url string) (dir string, code int, stdout, stderr string) {
	t.Helper()
	dir = t.TempDir()
	cfg := filepath.Join(dir, "blogs.yaml")
	y := fmt.Sprintf("archive: %s\nstate: %s\nblogs:\n  - id: raw\n    url: %s/\n    delay: 1ms\n    render: never\n",
		filepath.Join(dir, "archive"), filepath.Join(dir, "schedule.db"), url)
	if err := os.WriteFile(cfg, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = daemontest.Run(t, "crawl", "-config", cfg)
	return dir, code, stdout, stderr
}

package commentsystems_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// This file tests the crawl against real, self-hosted JavaScript comment
// systems installed from their registries (.ci/run installs them into
// commentSystemsDir), each run on a random loopback port with its own
// stock client script embedded in a blog page the test serves, seeded
// with nested comments through the system's own API. The real binary
// crawls the blog in the default render mode; every seeded comment must
// be archived, with its parent, and a comment added later through the
// API must be archived by the next crawl.
//
// Tested: Waline (its Node server with SQLite and its client, from npm)
// and Ghost (the CMS is the blog; its native comments are drawn by its
// stock client, comments-ui, in an iframe from its members API; all from
// npm, with the Node.js 22 that Ghost 6 needs from npm too).
//
// Tried and not tested here, and why (2026-11, on this machine's
// registries): Artalk's Go server (the module proxy refuses
// github.com/artalk/artalk/v2 and github.com/ArtalkJS/Artalk[/v2] at
// v2.9.1 and v2.8.7, so only its npm client installs); Remark42 (its Go
// backend installs, but its stock client, embed.js, is built by its
// Docker image and is on no registry); Twikoo (its self-hosted server
// tkserver is not on npm here; twikoo-func runs on Tencent CloudBase
// only); Commento (gitlab.com/commento/commento@v1.8.0 is served but holds
// only the client: the server is the separate module .../api, which the
// proxy does not serve); Comentario (refused by the proxy); Cusdis,
// schnack and Chatfall (not on npm here); Isso (PyPI only, not
// reachable, and not in Debian).

// commentSystemsDir is where .ci/run installs the comment systems:
// $BLOGHARVEST_COMMENTSYSTEMS, else blogharvest-comments in the user's
// cache directory.
func commentSystemsDir() string {
	if d := os.Getenv("BLOGHARVEST_COMMENTSYSTEMS"); d != "" {
		return d
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home := os.Getenv("HOME")
		if home == "" {
			home = "/root"
		}
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(cache, "blogharvest-comments")
}

// commentSystem is a running comment service with its stock client.
type commentSystem interface {
	// embed is the HTML a blog page holds to show the thread of path:
	// the mount element and the client's scripts (served under /assets/).
	embed(path string) string
	// assets serves the client's files, under /assets/.
	assets() http.Handler
	// origin is the service's origin (the crawl must be allowed it).
	origin() string
	// post adds a comment to the thread of path through the service's
	// API, as a reply to parent (nil for a top-level comment), and
	// returns it.
	post(t *testing.T, path, author, text string, parent *seeded) *seeded
	// requests is the log of the requests the service received (through
	// a counting proxy in front of it).
	requests() *requestLog
	// thread reports whether r asks the service for a comment thread:
	// the comments of one post (the test's own knowledge of the
	// service's API, not the crawler's).
	thread(r loggedRequest) bool
}

// blogHost is a comment system that is itself the blog (a CMS whose
// native comments its own script draws): it publishes the posts and
// serves the blog, instead of the test's commentBlog embedding it.
type blogHost interface {
	// publish publishes a post for each of paths (named by their last
	// segment) and returns the blog's URL (no trailing slash) and the
	// posts' paths on it, in the same order.
	publish(t *testing.T, paths []string) (string, []string)
}

// seeded is a comment posted through a service's API.
type seeded struct {
	id, author, text string
	parent           *seeded
	root             *seeded // the thread's top-level comment (Waline's rid)
}

func (s *seeded) key() string { return s.author + "\x00" + textsim.NormalizeText(s.text) }

// TestCrawlArchivesRealCommentSystems crawls a blog whose comments are
// served by each installed comment system, checks precision, recall and
// reply parents, then adds a comment through the API and checks that the
// second crawl archives it as a new version of its post. Ghost's blog has
// a fourth post (longThreads) whose two comments have six replies each:
// its comments app gives three with each comment, the rest behind "Show 3
// more replies".
func TestCrawlArchivesRealCommentSystems(t *testing.T) {
	if testing.Short() {
		t.Skip("starts comment services, processes and a browser")
	}
	t.Parallel()
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("no chromium")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node: the comment systems are Node.js services")
	}
	// The two systems are independent (a service, a blog and crawls each):
	// they run at once.
	t.Run("waline", func(t *testing.T) {
		t.Parallel()
		if logs, _ := crawlCommentSystem(t, startWaline(t), threadPlan); !strings.Contains(logs, "reason=\"api-widget") {
			t.Errorf("no render logged for the script widget (reason=api-widget)\n%s", daemontest.LastLines(logs, 30))
		}
	})
	t.Run("ghost", func(t *testing.T) {
		t.Parallel()
		crawlCommentSystem(t, startGhost(t), append(slices.Clone(threadPlan), longThreads))
	})
}

// plannedComment is a comment to seed: its author, text and parent.
type plannedComment struct {
	author, text string
	parent       int // index of the parent in the post's list; -1 for none
}

// threadPosts are the posts seeded, in the order of a plan's threads.
var threadPosts = []string{"/posts/rye-bread/", "/posts/sourdough-starter/", "/posts/winter-proofing/", "/posts/long-fermentation/"}

// longThreads is a post of two comments with six replies each (the last
// answering the one before): more than Ghost's comments app gives with a
// comment (three), the rest behind its "Show 3 more replies".
var longThreads = func() []plannedComment {
	names := []string{"Ann Lee", "Bob Ray", "Chloé Martin", "Dev Patel", "Eve Stone", "Frank Ode", "Grace Hu"}
	var out []plannedComment
	for i, topic := range []string{"an overnight fridge proof", "a forty-eight hour ferment"} {
		top := len(out)
		out = append(out, plannedComment{names[i], fmt.Sprintf("We tried %s and the flavour changed completely.", topic), -1})
		for k := 0; k < 6; k++ {
			parent := top
			if k == 5 {
				parent = len(out) - 1
			}
			out = append(out, plannedComment{names[(i+k+1)%len(names)], fmt.Sprintf("Reply %d about %s: the dough needs a cooler spot.", k+1, topic), parent})
		}
	}
	return out
}()

// threadPlan is the comments seeded on each post: top-level comments and
// replies to them (nesting three deep on the first post).
var threadPlan = [][]plannedComment{
	{
		{"Ann Lee", "I tried the recipe with rye flour and the crumb came out denser but richer.", -1},
		{"Bob Ray", "Rye needs more water in my experience, about ten percent more.", 0},
		{"Ann Lee", "Good point, I will raise the hydration next time and report back.", 1},
		{"Chloé Martin", "Has anyone baked this in a cast iron pot instead of a tin?", -1},
		{"Dev Patel", "Yes, with the lid on for the first twenty minutes it works well.", 3},
		{"Eve Stone", "The photos of the scoring pattern were really helpful, thanks.", -1},
	},
	{
		{"Frank Ode", "The section about sourdough starters cleared up a lot for me.", -1},
		{"Grace Hu", "Mine smells of acetone after three days, is that normal?", -1},
		{"Hal Berg", "That usually means it is hungry: feed it twice a day for a while.", 1},
		{"Grace Hu", "Feeding it twice a day fixed it within a week, thank you.", 2},
	},
	{
		{"Ivy Novak", "Short and useful post about proofing times in winter.", -1},
		{"Jon Park", "I proof in the oven with only the light on, around twenty-six degrees.", 0},
	},
}

// crawlCommentSystem seeds threads (threadPosts in order) through sys's
// API, serves a blog embedding its client, crawls it twice with the real
// binary and checks what was archived. It returns the first crawl's logs
// and the archive.
func crawlCommentSystem(t *testing.T, sys commentSystem, threads [][]plannedComment) (logs, archive string) {
	posts := slices.Clone(threadPosts[:len(threads)])
	truth := map[string][]*seeded{}
	blogURL := ""
	if host, ok := sys.(blogHost); ok {
		blogURL, posts = host.publish(t, posts)
	}
	for k, plan := range threads {
		var made []*seeded
		for _, c := range plan {
			var parent *seeded
			if c.parent >= 0 {
				parent = made[c.parent]
			}
			made = append(made, sys.post(t, posts[k], c.author, c.text, parent))
		}
		truth[posts[k]] = made
	}
	blogLog := sys.requests() // a CMS serves the blog itself
	if blogURL == "" {
		blogLog = &requestLog{}
		blog := httptest.NewServer(blogLog.wrap(commentBlog(sys, posts)))
		defer blog.Close()
		blogURL = blog.URL
	}
	out := t.TempDir()
	start := time.Now()
	logs = crawlBlog(t, blogURL, sys.origin(), out, false)
	t.Logf("first crawl: %s, %s", time.Since(start).Round(time.Second), renderCounts(logs))
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(line, `"more\" controls`) || strings.Contains(line, "comment thread") || strings.Contains(line, "comments short") {
			t.Log(line) // threads given in part: "more" pressed, the rest read from the API, or short
		}
	}
	if !strings.Contains(logs, "msg=render ") {
		t.Errorf("no page rendered (msg=render)\n%s", daemontest.LastLines(logs, 30))
	}
	scoreComments(t, blogURL, truth, exportComments(t, out))

	// A comment added through the API is archived by the next crawl, an
	// update started from the archive (crawl -out into an archive holding
	// the blog, as the daemon's scheduled runs): no feed of the blog
	// changes, the comment API its rendered page called does (the Blog
	// AIP keeps the watch: harvest's threads.go).
	added := sys.post(t, posts[1], "Kim Sato", "I added a comment after the first crawl, with a question about rye.", truth[posts[1]][0])
	truth[posts[1]] = append(truth[posts[1]], added)
	update := crawlBlog(t, blogURL, sys.origin(), out, false)
	t.Logf("update: %s", renderCounts(update))
	if !strings.Contains(update, "mode=update") {
		t.Errorf("the second crawl is no update from the archive\n%s", daemontest.LastLines(update, 30))
	}
	got := exportComments(t, out)
	if _, ok := got[blogURL+posts[1]][added.key()]; !ok {
		t.Errorf("the comment added through the API after the first crawl is not in the archive's latest version of %s", posts[1])
	}
	scoreComments(t, blogURL, truth, got)
	versions, _ := filepath.Glob(filepath.Join(out, "*", "entries", "*", "*sourdough-starter*", "v*"))
	if len(versions) != 2 {
		t.Errorf("%s: %d versions archived, want 2 (the second with the new comment): %v", posts[1], len(versions), versions)
	}
	checkUnchangedCrawls(t, sys, blogLog, blogURL, sys.origin(), out)
	return logs, out
}

// checkUnchangedCrawls runs two more updates of the blog, with nothing
// changed since the one that archived a changed thread: each must cost
// what an unchanged blog costs, the feed and the watched comment threads
// asked for conditionally, nothing rendered, no post page read, none of
// the comment app's other API calls (counts, settings, tiers) asked for.
// The watch the changed thread left must be the archive's (crawl -out
// starts from it), so that the thread is not seen changed again. Both
// cost the same. The requests are counted at the servers (blogLog,
// sys.requests()).
func checkUnchangedCrawls(t *testing.T, sys commentSystem, blogLog *requestLog, blogURL, service, out string) {
	t.Helper()
	var first []string
	for k := 1; k <= 2; k++ {
		blogLog.take()
		sys.requests().take()
		start := time.Now()
		logs := crawlBlog(t, blogURL, service, out, false)
		took := time.Since(start).Round(100 * time.Millisecond)
		reqs := blogLog.take()
		if sys.requests() != blogLog {
			reqs = append(reqs, sys.requests().take()...)
		}
		feeds, threads, other := requestKinds(reqs, sys.thread)
		t.Logf("unchanged crawl %d (%s): %s\n%s", k, took, renderCounts(logs), describeRequests(feeds, threads, other))
		if strings.Contains(logs, "msg=render ") {
			t.Errorf("unchanged crawl %d rendered a page:\n%s", k, daemontest.LastLines(logs, 30))
		}
		if len(other) > 0 || len(feeds) == 0 || len(threads) == 0 {
			t.Errorf("unchanged crawl %d: want the feed and the watched comment threads only (at least one), got %s", k, describeRequests(feeds, threads, other))
		}
		all := slices.Concat(feeds, threads, other)
		if k == 1 {
			first = all
		} else if !slices.Equal(first, all) {
			t.Errorf("the second unchanged crawl asked for %q, the first for %q", all, first)
		}
	}
}

// renderCounts returns the requests= and renders= parts of a crawl's
// "harvest finished" log line: the requests the crawl's client made, and
// how many pages were rendered, per reason.
func renderCounts(logs string) string {
	for _, line := range strings.Split(logs, "\n") {
		if i := strings.Index(line, "renders="); i >= 0 && strings.Contains(line, "harvest finished") {
			req := ""
			if k := strings.Index(line, " requests="); k >= 0 {
				req = strings.Fields(line[k:])[0] + " "
			}
			return req + line[i:]
		}
	}
	return "no renders= in the logs"
}

// crawlBlog runs `blogharvest crawl -url blog -out out -allow service`
// in the default render mode (with full, a NewCrawl; without, an update
// when out holds the blog) and returns its logs.
func crawlBlog(t *testing.T, blog, service, out string, full bool) string {
	t.Helper()
	args := []string{"crawl", "-url", blog + "/", "-out", out, "-delay", "1ms", "-allow", service}
	if full {
		args = append(args, "-full")
	}
	cmd := exec.Command(daemontest.Binary(), args...)
	logs, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("crawl: %v\n%s", err, daemontest.LastLines(string(logs), 30))
	}
	return string(logs)
}

// exportedComment is a comment of `blogharvest export -format jsonl`.
type exportedComment struct {
	ID       string `json:"id"`
	Author   string `json:"author"`
	ParentID string `json:"parent_id"`
	Text     string `json:"text"`
}

// exportComments reads the latest version of every entry of the archive
// through `blogharvest export`: by post permalink, its comments by key
// (author and normalised text), each with its parent's key ("" for none).
func exportComments(t *testing.T, archive string) map[string]map[string]string {
	t.Helper()
	blogs, _ := filepath.Glob(filepath.Join(archive, "*", "entries"))
	out := map[string]map[string]string{}
	for _, b := range blogs {
		data, err := exec.Command(daemontest.Binary(), "export", "-format", "jsonl", filepath.Dir(b)).Output()
		if err != nil {
			t.Fatalf("export %s: %v", b, err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var e struct {
				Permalink string            `json:"permalink"`
				Comments  []exportedComment `json:"comments"`
			}
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				t.Fatalf("export: %v", err)
			}
			byID := map[string]string{}
			for _, c := range e.Comments {
				byID[c.ID] = c.Author + "\x00" + textsim.NormalizeText(c.Text)
			}
			m := map[string]string{}
			for _, c := range e.Comments {
				m[c.Author+"\x00"+textsim.NormalizeText(c.Text)] = byID[c.ParentID]
			}
			out[e.Permalink] = m
		}
	}
	return out
}

// scoreComments compares what was archived with the truth: precision and
// recall at least 0.95 over all posts, and every matched comment's parent
// right.
func scoreComments(t *testing.T, blog string, truth map[string][]*seeded, got map[string]map[string]string) {
	t.Helper()
	archived, want, matched, parents := 0, 0, 0, 0
	for path, cs := range truth {
		g := got[blog+path]
		archived += len(g)
		want += len(cs)
		for _, c := range cs {
			parent, ok := g[c.key()]
			if !ok {
				t.Errorf("%s: %q by %s not archived", path, c.text, c.author)
				continue
			}
			matched++
			wantParent := ""
			if c.parent != nil {
				wantParent = c.parent.key()
			}
			if parent != wantParent {
				t.Errorf("%s: %q by %s archived with parent %q, want %q", path, c.text, c.author, parent, wantParent)
			} else {
				parents++
			}
		}
	}
	precision, recall := ratio(matched, archived), ratio(matched, want)
	t.Logf("%d archived, %d seeded, %d matched (%d with the right parent): precision %.3f recall %.3f", archived, want, matched, parents, precision, recall)
	if precision < 0.95 || recall < 0.95 {
		t.Errorf("precision %.3f, recall %.3f: want both ≥ 0.95", precision, recall)
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// commentBlog serves a small blog whose posts embed sys's thread: a home
// page, an RSS feed (without comment counts, as static generators write
// them) and the posts.
func commentBlog(sys commentSystem, posts []string) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/assets/", sys.assets())
	title := func(p string) string {
		return strings.ReplaceAll(strings.Trim(strings.TrimPrefix(p, "/posts/"), "/"), "-", " ")
	}
	body := func(p string) string {
		t := title(p)
		return fmt.Sprintf("<p>This post is about %s. It explains, step by step, what we learned from baking every weekend for a year.</p>"+
			"<p>Flour, water, salt and time are all it takes; the rest is patience and a warm kitchen. We kept notes on %s for months.</p>", t, t)
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch {
		case r.URL.Path == "/":
			var b strings.Builder
			b.WriteString(`<!doctype html><html><head><title>Crumb notes</title><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><body><h1>Crumb notes</h1><ul>`)
			for _, p := range posts {
				fmt.Fprintf(&b, `<li><a href="%s">%s</a></li>`, p, html.EscapeString(title(p)))
			}
			b.WriteString(`</ul></body></html>`)
			fmt.Fprint(w, b.String())
		case r.URL.Path == "/feed.xml":
			w.Header().Set("Content-Type", "application/rss+xml")
			base := "http://" + r.Host
			var b strings.Builder
			fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Crumb notes</title><link>%s/</link><description>Baking</description>`, base)
			for k, p := range posts {
				d := time.Date(2025, 3, 10-k, 9, 0, 0, 0, time.UTC).Format(time.RFC1123Z)
				fmt.Fprintf(&b, `<item><title>%s</title><link>%s%s</link><guid>%s%s</guid><pubDate>%s</pubDate><description>%s</description></item>`,
					html.EscapeString(title(p)), base, p, base, p, d, html.EscapeString(body(p)))
			}
			b.WriteString(`</channel></rss>`)
			fmt.Fprint(w, b.String())
		default:
			for k, p := range posts {
				if r.URL.Path != p {
					continue
				}
				d := time.Date(2025, 3, 10-k, 9, 0, 0, 0, time.UTC)
				fmt.Fprintf(w, `<!doctype html><html><head><title>%s</title></head><body><header><a href="/">Crumb notes</a></header>
<main><article><h1>%s</h1><p class="byline">By Mara Quinn, <time datetime="%s">%s</time></p>%s</article>
%s</main><footer>© Crumb notes</footer></body></html>`,
					html.EscapeString(title(p)), html.EscapeString(title(p)), d.Format(time.RFC3339), d.Format("2 January 2006"), body(p), sys.embed(p))
				return
			}
			http.NotFound(w, r)
		}
	})
	return mux
}

// startService runs cmd (a service listening on 127.0.0.1:port) until
// the test ends, waiting until ready answers 200 (the service's log is
// shown when it does not).
func startService(t *testing.T, cmd *exec.Cmd, ready string) {
	t.Helper()
	var logs daemontest.SyncBuffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", cmd.Path, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	deadline := time.Now().Add(3 * time.Minute) // a loaded machine starts Node services slowly
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			t.Fatalf("%s exited before it was ready:\n%s", cmd.Path, daemontest.LastLines(logs.String(), 30))
		default:
		}
		if resp, err := http.Get(ready); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s not ready at %s within 3 minutes:\n%s", cmd.Path, ready, daemontest.LastLines(logs.String(), 30))
}

// postJSON posts v to u and decodes the answer into out.
func postJSON(t *testing.T, u string, v, out any) {
	t.Helper()
	body, _ := json.Marshal(v)
	resp, err := http.Post(u, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("POST %s: %v", u, err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("POST %s: %d, %v", u, resp.StatusCode, err)
	}
}

package capture_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	nethtml "golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/marctools"
	"github.com/blogharvest/blogharvest/marc"
)

// The live WordPress of ../shared/wordpress-live, beside the checkout (Debian's WordPress 6.1
// with the Theme Unit Test data). TestWordPressLive runs only when
// BLOGHARVEST_WORDPRESS=1, after `bash ../shared/wordpress-live/setup.sh start` from the checkout.
const (
	wpSwitch  = "BLOGHARVEST_WORDPRESS"
	wpSetup   = "../../../../shared/wordpress-live/setup.sh" // from daemon/tests/capture
	wpMutate  = "../../testdata/wordpress/mutate.php"        // daemon/testdata
	wpBlogID  = "wordpress"
	wpBudget  = 5 * time.Minute // the whole test, both harvests and the update runs
	wpMinDice = 0.9             // article text against WordPress's own, bigram Dice
)

// TestWordPressLive harvests a real WordPress: a first harvest with
// `crawl -url`, then the daemon (`run`) on a short schedule; it then changes
// the blog (a new post, a reply deep in the 10-level thread, an edited post)
// and expects exactly those changes to reach the archive. Everything is
// checked against what WordPress itself says (REST API and database).
func TestWordPressLive(t *testing.T) {
	wp := liveWordPress(t)
	began := time.Now()
	proxy := newOffsiteRecorder(t)
	dir := t.TempDir()
	if keep := os.Getenv("BLOGHARVEST_WORDPRESS_KEEP"); keep != "" {
		dir = keep // an empty folder that outlives the test, to read the archive after a failure
	}
	archive := filepath.Join(dir, "archive")
	mark := wp.accessLogSize(t)
	truth := wp.truth(t)

	// 1. The first harvest: an ad-hoc NewCrawl.
	crawlDone := wpCrawl(t, wp, archive, proxy, 150*time.Second)
	initial := readWPArchive(t, archive)
	t.Run("posts", func(t *testing.T) { checkPostSet(t, truth, initial) })
	t.Run("fields", func(t *testing.T) { checkFields(t, truth, initial) })
	t.Run("comments", func(t *testing.T) { checkComments(t, truth, initial) })
	t.Run("capture", func(t *testing.T) { checkCapture(t, wp, initial, mark) })
	t.Run("valid", func(t *testing.T) { checkValid(t, archive) })
	t.Run("warc", func(t *testing.T) { checkWARCs(t, archive) }) // warc_test.go
	t.Run("offsite", func(t *testing.T) { proxy.check(t) })
	if !crawlDone {
		t.Fatalf("the first harvest did not finish: the update phase cannot run")
	}

	// 2. The daemon: its first run is a NewCrawl on the same archive, which
	// must add nothing; then the blog changes and an UpdateCrawl follows.
	d := newWPDaemon(t, wp, dir, archive, proxy)
	d.waitRun(t, "the daemon's first (new) run", time.Time{}, time.Until(began.Add(wpBudget-90*time.Second)))
	second := readWPArchive(t, archive)
	t.Run("rerun-adds-nothing", func(t *testing.T) { checkSameVersions(t, initial, second, nil) })
	d.measureUnchanged(t, wp, "before the change", time.Until(began.Add(wpBudget-80*time.Second)))

	markChange := wp.accessLogSize(t)
	ch := wp.mutate(t, truth)
	changed := time.Now()
	d.waitRun(t, "the update run after the change", changed, time.Until(began.Add(wpBudget-30*time.Second)))
	if reqs := wp.harvestRequests(t, markChange); true {
		t.Logf("update run after the change: %d requests: %q", len(reqs), reqs)
	}
	third := readWPArchive(t, archive)
	truth2 := wp.truth(t)
	t.Run("update", func(t *testing.T) { checkUpdate(t, truth2, second, third, ch) })
	d.waitRun(t, "one more run", time.Now(), time.Until(began.Add(wpBudget-5*time.Second)))
	t.Run("quiet-run", func(t *testing.T) { checkSameVersions(t, third, readWPArchive(t, archive), nil) })
	d.measureUnchanged(t, wp, "after the update", time.Until(began.Add(wpBudget-5*time.Second)))
	if code := d.p.Stop(t, syscall.SIGTERM, 2*time.Minute); code != 0 {
		t.Errorf("daemon exit code after SIGTERM = %d, want 0", code)
	}
	t.Run("valid-after-update", func(t *testing.T) { checkValid(t, archive) })
	t.Run("offsite-after-update", func(t *testing.T) { proxy.check(t) })
	if took := time.Since(began); took > wpBudget {
		t.Errorf("the test took %v, more than %v", took.Round(time.Second), wpBudget)
	}
}

// --- the live WordPress -----------------------------------------------------

// wordPress is the running instance: its URL and its state directory.
type wordPress struct {
	url  string // "http://127.0.0.1:8080", no trailing slash
	dir  string // WP_DIR: MariaDB socket, Apache access log
	host string // host:port
}

// liveWordPress skips unless the switch is set, and fails when the switch is
// set but WordPress does not answer.
func liveWordPress(t *testing.T) *wordPress {
	t.Helper()
	if os.Getenv(wpSwitch) != "1" {
		t.Skipf("set %s=1 after `bash %s start` to harvest the live WordPress", wpSwitch, wpSetup)
	}
	if _, err := os.Stat(wpSetup); err != nil {
		t.Skipf("no live WordPress recipe: %v", err)
	}
	host := envOr("WP_HOST", "127.0.0.1") + ":" + envOr("WP_PORT", "8080")
	wp := &wordPress{url: "http://" + host, host: host}
	out, err := exec.Command("bash", wpSetup, "status").CombinedOutput()
	if err != nil {
		t.Fatalf("%s is set but WordPress is not running (`bash %s start`): %v\n%s", wpSwitch, wpSetup, err, out)
	}
	m := regexp.MustCompile(`(?m)^(\S+)/apache2\.pid: pid \d+ running`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("cannot find WP_DIR in `setup.sh status` (the test needs the Apache server):\n%s", out)
	}
	wp.dir = string(m[1])
	if resp, err := http.Get(wp.url + "/"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("WordPress at %s does not answer: %v", wp.url, err)
	} else {
		resp.Body.Close()
	}
	return wp
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// rest decodes every page of a REST collection route into out (a pointer to
// a slice), following X-WP-TotalPages.
func (wp *wordPress) rest(t *testing.T, route string, out any) {
	t.Helper()
	var all []json.RawMessage
	for page, pages := 1, 1; page <= pages; page++ {
		u := fmt.Sprintf("%s/?rest_route=%s&per_page=100&page=%d", wp.url, route, page)
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		var batch []json.RawMessage
		err = json.NewDecoder(resp.Body).Decode(&batch)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("REST %s: status %d, %v", u, resp.StatusCode, err)
		}
		all = append(all, batch...)
		pages, _ = strconv.Atoi(resp.Header.Get("X-WP-TotalPages"))
	}
	raw, _ := json.Marshal(all)
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("REST %s: %v", route, err)
	}
}

// sql runs a query as root over the MariaDB socket and returns its rows.
func (wp *wordPress) sql(t *testing.T, query string) [][]string {
	t.Helper()
	sock := filepath.Join(wp.dir, "mysql", "mysqld.sock")
	out, err := exec.Command("mariadb", "--socket="+sock, "-uroot", "-N", "-B", "wordpress", "-e", query).Output()
	if err != nil {
		t.Fatalf("mariadb %q: %v", query, err)
	}
	var rows [][]string
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if line != "" {
			rows = append(rows, strings.Split(line, "\t"))
		}
	}
	return rows
}

func (wp *wordPress) accessLog() string { return filepath.Join(wp.dir, "apache-access.log") }

func (wp *wordPress) accessLogSize(t *testing.T) int64 {
	fi, err := os.Stat(wp.accessLog())
	if err != nil {
		t.Fatalf("apache access log: %v", err)
	}
	return fi.Size()
}

// --- what WordPress says ----------------------------------------------------

type wpRendered struct {
	Rendered  string `json:"rendered"`
	Protected bool   `json:"protected"`
}

// wpPost is a post or page of the REST API.
type wpPost struct {
	ID         int        `json:"id"`
	Type       string     `json:"type"`
	Link       string     `json:"link"`
	Date       string     `json:"date"`
	DateGMT    string     `json:"date_gmt"`
	Author     int        `json:"author"`
	Categories []int      `json:"categories"`
	Tags       []int      `json:"tags"`
	Title      wpRendered `json:"title"`
	Content    wpRendered `json:"content"`
}

// wpComment is an approved comment of the REST API.
type wpComment struct {
	ID         int        `json:"id"`
	Post       int        `json:"post"`
	Parent     int        `json:"parent"`
	AuthorName string     `json:"author_name"`
	Date       string     `json:"date"`
	DateGMT    string     `json:"date_gmt"`
	Link       string     `json:"link"`
	Content    wpRendered `json:"content"`
}

type wpTerm struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// wpTruth is the blog as WordPress itself has it.
type wpTruth struct {
	posts    []wpPost // published posts and pages
	byID     map[int]*wpPost
	byURL    map[string]*wpPost
	comments []wpComment
	byCID    map[int]*wpComment
	cats     map[int]string
	tags     map[int]string
	users    map[int]string
	hidden   [][]string     // ID, slug, title of drafts and scheduled posts
	secret   map[int]string // post ID → the text behind its password
	banned   map[int]bool   // unapproved comments: the public never sees them
	unstable map[int]bool   // posts WordPress renders differently on each request (random gallery order)
	guarded  map[int]string // comment ID → text of a comment on a protected post (its feed shows only who and when)
	pings    map[int]bool   // approved pingbacks and trackbacks (shown on the page, not in REST)
}

func (wp *wordPress) truth(t *testing.T) *wpTruth {
	t.Helper()
	tr := &wpTruth{byID: map[int]*wpPost{}, byURL: map[string]*wpPost{}, byCID: map[int]*wpComment{},
		unstable: map[int]bool{}, secret: map[int]string{}, banned: map[int]bool{}, guarded: map[int]string{}, pings: map[int]bool{}}
	var posts, pages []wpPost
	wp.rest(t, "/wp/v2/posts", &posts)
	wp.rest(t, "/wp/v2/pages", &pages)
	tr.posts = append(posts, pages...)
	var again []wpPost
	wp.rest(t, "/wp/v2/posts", &again)
	for i := range again {
		if i < len(posts) && again[i].ID == posts[i].ID && again[i].Content.Rendered != posts[i].Content.Rendered {
			tr.unstable[posts[i].ID] = true
		}
	}
	for i := range tr.posts {
		tr.byID[tr.posts[i].ID] = &tr.posts[i]
		tr.posts[i].Link = normURL(tr.posts[i].Link)
		tr.byURL[tr.posts[i].Link] = &tr.posts[i]
	}
	wp.rest(t, "/wp/v2/comments", &tr.comments)
	for i := range tr.comments {
		tr.byCID[tr.comments[i].ID] = &tr.comments[i]
	}
	tr.cats, tr.tags, tr.users = wp.names(t, "/wp/v2/categories"), wp.names(t, "/wp/v2/tags"), wp.names(t, "/wp/v2/users")
	tr.hidden = wp.sql(t, "SELECT ID, post_name, post_title FROM wp_posts WHERE post_type IN ('post','page') AND post_status IN ('draft','future','pending','private')")
	for _, r := range wp.sql(t, "SELECT ID, REPLACE(REPLACE(post_content, '\\n', ' '), '\\t', ' ') FROM wp_posts WHERE post_password <> '' AND post_status = 'publish'") {
		id, _ := strconv.Atoi(r[0])
		tr.secret[id] = r[1]
	}
	for _, r := range wp.sql(t, "SELECT c.comment_ID, c.comment_approved, c.comment_type, p.post_password <> '', REPLACE(REPLACE(c.comment_content, '\\n', ' '), '\\t', ' ') FROM wp_comments c JOIN wp_posts p ON p.ID = c.comment_post_ID") {
		id, _ := strconv.Atoi(r[0])
		switch {
		case r[1] != "1":
			tr.banned[id] = true
		case r[3] == "1":
			tr.guarded[id] = r[4]
		case r[2] == "pingback" || r[2] == "trackback":
			tr.pings[id] = true
		}
	}
	if len(posts) == 0 || len(pages) == 0 || len(tr.comments) == 0 || len(tr.hidden) == 0 || len(tr.secret) == 0 {
		t.Fatalf("WordPress does not hold the Theme Unit Test data: %d posts, %d pages, %d comments, %d hidden, %d protected",
			len(posts), len(pages), len(tr.comments), len(tr.hidden), len(tr.secret))
	}
	return tr
}

func (wp *wordPress) names(t *testing.T, route string) map[int]string {
	var terms []wpTerm
	wp.rest(t, route, &terms)
	out := map[int]string{}
	for _, x := range terms {
		out[x.ID] = html.UnescapeString(x.Name)
	}
	return out
}

// --- running blogharvest ----------------------------------------------------

// wpCrawl runs `blogharvest crawl -url` and reports whether it finished (and
// succeeded) within limit.
func wpCrawl(t *testing.T, wp *wordPress, archive string, proxy *offsiteRecorder, limit time.Duration) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	// requisites: same-origin — the sample content embeds an image from a
	// public host (upload.wikimedia.org), which requisites: all would fetch
	// by design; this machine has no network and the offsite check counts
	// any request that tries to leave it.
	cmd := exec.CommandContext(ctx, daemontest.Binary(), "crawl", "-url", wp.url+"/", "-out", archive, "-id", wpBlogID,
		"-delay", "1ms", "-render", "never", "-requisites", "same-origin", "-organization", "Test Library")
	cmd.Env = proxy.env()
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	t0 := time.Now()
	err := cmd.Run()
	t.Logf("crawl -url took %v: %v\n%s", time.Since(t0).Round(time.Millisecond), err, daemontest.LastLines(logs.String(), 8))
	switch {
	case ctx.Err() != nil:
		t.Errorf("crawl -url %s did not finish within %v (the whole test has %v); the checks below see a partial archive", wp.url, limit, wpBudget)
		return false
	case err != nil:
		t.Errorf("crawl -url %s: %v", wp.url, err)
		return false
	}
	return true
}

// wpDaemon is `blogharvest run` on the live WordPress.
type wpDaemon struct {
	p      *daemontest.Proc
	listen string
}

func newWPDaemon(t *testing.T, wp *wordPress, dir, archive string, proxy *offsiteRecorder) *wpDaemon {
	t.Helper()
	d := &wpDaemon{listen: daemontest.FreeAddr(t)}
	config := filepath.Join(dir, "blogs.yaml")
	y := fmt.Sprintf(`archive: %s
state: %s
listen: %s
organization: Test Library
log: {format: json, level: info}
blogs:
  - id: %s
    url: %s/
    schedule: "@every 5s"
    delay: 1ms
    render: never
    requisites: same-origin # see wpCrawl
`, archive, filepath.Join(dir, "state", "schedule.db"), d.listen, wpBlogID, wp.url)
	if err := os.WriteFile(config, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	d.p = daemontest.StartEnv(t, proxy.env(), "run", "-config", config)
	return d
}

// wpStatus is the part of /status the test reads.
type wpStatus struct {
	Running   bool      `json:"running"`
	LastStart time.Time `json:"last_start"`
	LastEnd   time.Time `json:"last_end"`
	Outcome   string    `json:"outcome"`
	LastError string    `json:"last_error"`
	Runs      int       `json:"runs"`
}

func (d *wpDaemon) status() (wpStatus, bool) {
	resp, err := http.Get("http://" + d.listen + "/status")
	if err != nil {
		return wpStatus{}, false
	}
	defer resp.Body.Close()
	var body struct{ Blogs []wpStatus }
	if json.NewDecoder(resp.Body).Decode(&body) != nil || len(body.Blogs) != 1 {
		return wpStatus{}, false
	}
	return body.Blogs[0], true
}

// waitRun waits for a run that started after since to end, and expects it
// to have succeeded.
func (d *wpDaemon) waitRun(t *testing.T, what string, since time.Time, within time.Duration) {
	t.Helper()
	var st wpStatus
	daemontest.WaitFor(t, what, max(within, time.Second), func() bool {
		var ok bool
		st, ok = d.status()
		return ok && !st.Running && st.LastStart.After(since) && !st.LastEnd.Before(st.LastStart)
	})
	t.Logf("%s: run %d took %v, outcome %s", what, st.Runs, st.LastEnd.Sub(st.LastStart).Round(time.Millisecond), st.Outcome)
	if st.Outcome != "ok" {
		t.Errorf("%s: outcome %q, error %q", what, st.Outcome, st.LastError)
	}
}

// wpUnchangedBudget is what one update run of the unchanged WordPress may
// ask for: the posts feed and the site comment feed, conditionally
// (WordPress answers 304 to If-None-Match and If-Modified-Since); the
// daemon keeps robots.txt in memory between runs.
const wpUnchangedBudget = 2

// measureUnchanged waits for the next update run of the unchanged blog and
// counts the requests Apache saw from blogharvest per run meanwhile.
func (d *wpDaemon) measureUnchanged(t *testing.T, wp *wordPress, when string, within time.Duration) {
	t.Helper()
	st0, _ := d.status()
	mark := wp.accessLogSize(t)
	d.waitRun(t, "an unchanged update run "+when, time.Now(), within)
	st1, _ := d.status()
	runs := st1.Runs - st0.Runs
	if st1.Running {
		runs++ // begun: its requests may be in the log
	}
	paths := wp.harvestRequests(t, mark)
	if runs < 1 {
		t.Fatalf("unchanged update run %s: no run counted (%d → %d)", when, st0.Runs, st1.Runs)
	}
	t.Logf("unchanged update run %s: %d requests over %d run(s), %.1f per run: %q", when, len(paths), runs,
		float64(len(paths))/float64(runs), paths)
	if len(paths) > wpUnchangedBudget*runs {
		t.Errorf("unchanged WordPress: %d requests over %d run(s), want at most %d per run", len(paths), runs, wpUnchangedBudget)
	}
}

// harvestRequests returns the "status path" of each request from
// blogharvest that Apache logged after mark.
func (wp *wordPress) harvestRequests(t *testing.T, mark int64) []string {
	t.Helper()
	f, err := os.Open(wp.accessLog())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Seek(mark, io.SeekStart)
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if m := accessLine.FindStringSubmatch(sc.Text()); m != nil && strings.Contains(sc.Text(), "blogharvest") {
			out = append(out, m[2]+" "+m[1])
		}
	}
	return out
}

// --- the archive ------------------------------------------------------------

// wpAIP is one archived version of an entry, read back from its bag.
type wpAIP struct {
	dir      string
	version  string
	url      string              // bag-info External-Identifier
	attrs    map[string][]string // the entry record, by attribute name
	kind     string              // 980 $b
	comments []map[string][]string
	logs     string // every file under data/logs
}

// wpArchive is an archive read back: entries by permalink (versions in
// order) and the blog AIP's versions.
type wpArchive struct {
	entries map[string][]*wpAIP
	blog    []string // blog AIP dirs
	blogLog string   // the newest blog AIP's logs
	all     []string // every bag dir
}

func readWPArchive(t *testing.T, root string) *wpArchive {
	t.Helper()
	a := &wpArchive{entries: map[string][]*wpAIP{}}
	bags, _ := filepath.Glob(filepath.Join(root, wpBlogID, "entries", "*", "*", "v*", "bag-info.txt"))
	for _, bi := range bags {
		e := readWPAIP(t, filepath.Dir(bi))
		a.entries[e.url] = append(a.entries[e.url], e)
		a.all = append(a.all, e.dir)
	}
	for _, vs := range a.entries {
		sort.Slice(vs, func(i, j int) bool { return versionNum(vs[i].version) < versionNum(vs[j].version) })
	}
	a.blog, _ = filepath.Glob(filepath.Join(root, wpBlogID, "blog", "v*"))
	sort.Slice(a.blog, func(i, j int) bool {
		return versionNum(filepath.Base(a.blog[i])) < versionNum(filepath.Base(a.blog[j]))
	})
	a.all = append(a.all, a.blog...)
	if n := len(a.blog); n > 0 {
		a.blogLog = readLogs(a.blog[n-1])
	}
	return a
}

var percentEscape = regexp.MustCompile(`%[0-9a-fA-F]{2}`)

// normURL writes percent escapes in upper case (RFC 3986 §6.2.2.1), so that
// WordPress's lower-case links and the crawler's upper-case ones compare.
func normURL(u string) string { return percentEscape.ReplaceAllStringFunc(u, strings.ToUpper) }

func versionNum(v string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(v, "v"))
	return n
}

func readWPAIP(t *testing.T, dir string) *wpAIP {
	t.Helper()
	e := &wpAIP{dir: dir, version: filepath.Base(dir), logs: readLogs(dir)}
	info, err := os.ReadFile(filepath.Join(dir, "bag-info.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(info), "\n") {
		if v, ok := strings.CutPrefix(line, "External-Identifier: "); ok {
			e.url = normURL(strings.TrimSpace(v))
		}
	}
	for _, r := range metsRecords(t, filepath.Join(dir, "data", "METS.xml")) {
		kind := ""
		if f := r.Fields("980"); len(f) > 0 {
			kind = f[0].Value('a')
		}
		switch kind {
		case marc.TypeComment:
			e.comments = append(e.comments, marc.Attributes(r))
		case marc.TypeBlogPost:
			e.attrs = marc.Attributes(r)
			e.kind = r.Fields("980")[0].Value('b')
		}
	}
	if e.attrs == nil {
		t.Errorf("%s: no entry record (980 $a %s) in METS.xml", dir, marc.TypeBlogPost)
		e.attrs = map[string][]string{}
	}
	return e
}

// metsRecords parses every MARCXML record in the dmdSecs of a METS file.
func metsRecords(t *testing.T, path string) []*marc.Record {
	t.Helper()
	recs, err := marctools.FromMETS(path)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// readLogs concatenates the files under a bag's data/logs.
func readLogs(dir string) string {
	var b strings.Builder
	filepath.WalkDir(filepath.Join(dir, "data", "logs"), func(p string, de os.DirEntry, err error) error {
		if err == nil && !de.IsDir() {
			data, _ := os.ReadFile(p)
			b.Write(data)
		}
		return nil
	})
	return b.String()
}

func first(attrs map[string][]string, name string) string {
	if v := attrs[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// --- checks of a harvest ----------------------------------------------------

// checkPostSet: every published post and page archived once, nothing else.
func checkPostSet(t *testing.T, tr *wpTruth, a *wpArchive) {
	for _, p := range tr.posts {
		vs := a.entries[p.Link]
		switch {
		case len(vs) == 0:
			t.Errorf("%s %d %s (%q): not archived", p.Type, p.ID, p.Link, plain(p.Title.Rendered))
		case len(vs) > 1:
			t.Errorf("%s %s: %d versions after one harvest of an unchanged blog", p.Type, p.Link, len(vs))
		}
	}
	for u, vs := range a.entries {
		if tr.byURL[u] == nil {
			t.Errorf("archived %s (%s, title %q) is no published post or page of WordPress (duplicate or non-public)",
				u, vs[0].dir, first(vs[0].attrs, "title"))
		}
	}
	for _, h := range tr.hidden {
		short := regexp.MustCompile(`[?&](p|page_id)=` + h[0] + `(&|$)`)
		for u, vs := range a.entries {
			if h[1] != "" && strings.Contains(u, "/"+h[1]+"/") || short.MatchString(u) || first(vs[0].attrs, "title") == h[2] {
				t.Errorf("non-public post %s %q archived as %s", h[0], h[2], u)
			}
		}
	}
	counts := map[string]int{}
	for _, p := range tr.posts {
		counts[p.Type]++
	}
	t.Logf("WordPress: %d posts, %d pages; archive: %d entries", counts["post"], counts["page"], len(a.entries))
}

// checkFields compares each archived entry with WordPress's own values.
func checkFields(t *testing.T, tr *wpTruth, a *wpArchive) {
	var dices []float64
	for _, p := range tr.posts {
		vs := a.entries[p.Link]
		if len(vs) == 0 {
			continue
		}
		e := vs[len(vs)-1]
		if d, ok := checkEntry(t, tr, &p, e); ok {
			dices = append(dices, d)
		}
	}
	sort.Float64s(dices)
	if n := len(dices); n > 0 {
		t.Logf("article Dice over %d entries: min %.3f, median %.3f", n, dices[0], dices[n/2])
	}
}

// checkEntry checks one entry and returns its article Dice, if compared.
func checkEntry(t *testing.T, tr *wpTruth, p *wpPost, e *wpAIP) (float64, bool) {
	t.Helper()
	at := e.attrs
	if e.kind != p.Type {
		t.Errorf("%s: archived as kind %q (980 $b), WordPress says %q", p.Link, e.kind, p.Type)
	}
	if got, want := norm(first(at, "title")), norm(plain(p.Title.Rendered)); got != want {
		t.Errorf("%s: title %q, WordPress %q", p.Link, got, want)
	}
	// A page shows neither author nor date in the theme: checked when archived.
	post := p.Type == "post"
	if got, want := norm(first(at, "author")), norm(tr.users[p.Author]); got != want && (post || got != "") {
		t.Errorf("%s: author %q, WordPress %q", p.Link, got, want)
	}
	// The imported data has post_date_gmt 7 h off post_date although the
	// site's zone is UTC: the page shows the one, the feed the other.
	got := first(at, "date_created")
	if !sameInstant(got, wpTime(p.DateGMT)) && !sameInstant(got, wpTime(p.Date)) && (post || got != "") {
		t.Errorf("%s: date_created %q, WordPress %s (GMT) / %s (site time)", p.Link, got, p.DateGMT, p.Date)
	}
	if post {
		checkTerms(t, p.Link, "categories", at["categories"], termNames(tr.cats, p.Categories))
		checkTerms(t, p.Link, "tags", at["tags"], termNames(tr.tags, p.Tags))
	}
	text := plain(first(at, "full_content"))
	if secret, ok := tr.secret[p.ID]; ok {
		checkProtected(t, p, at, text, secret)
		return 0, false
	}
	d := dice(text, plain(p.Content.Rendered))
	if tr.unstable[p.ID] {
		d = wordDice(text, plain(p.Content.Rendered)) // order varies between renders
	}
	if d < wpMinDice {
		t.Errorf("%s: article Dice %.3f < %.2f against REST content.rendered\n archive: %.200q\n wordpress: %.200q",
			p.Link, d, wpMinDice, text, plain(p.Content.Rendered))
	}
	if first(at, "access_restriction") != "" {
		t.Errorf("%s: public post archived with access_restriction %q", p.Link, first(at, "access_restriction"))
	}
	return d, true
}

// checkProtected: a password-protected post is archived as the public sees
// it, with 506 set, and never with the text behind the password.
func checkProtected(t *testing.T, p *wpPost, at map[string][]string, text, secret string) {
	t.Helper()
	if first(at, "access_restriction") == "" {
		t.Errorf("%s: password-protected post without access_restriction (506)", p.Link)
	}
	if d := dice(text, plain(secret)); d > 0.5 {
		t.Errorf("%s: the archive holds the text behind the password (Dice %.2f)", p.Link, d)
	}
}

func checkTerms(t *testing.T, link, attr string, got, want []string) {
	t.Helper()
	g, w := normSet(got), normSet(want)
	if strings.Join(g, "|") != strings.Join(w, "|") {
		t.Errorf("%s: %s %q, WordPress %q", link, attr, g, w)
	}
}

func termNames(names map[int]string, ids []int) []string {
	var out []string
	for _, id := range ids {
		out = append(out, names[id])
	}
	return out
}

func normSet(vs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range vs {
		if v = norm(v); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}

// checkComments: every approved comment archived in its entry, with
// author, date, text and parent; nothing the public cannot see.
func checkComments(t *testing.T, tr *wpTruth, a *wpArchive) {
	found := map[int]map[string][]string{}
	for u, vs := range a.entries {
		for _, c := range vs[len(vs)-1].comments {
			id := commentID(first(c, "uri"))
			switch {
			case tr.banned[id]:
				t.Errorf("%s: unapproved comment %d archived: the public cannot see it", u, id)
			case tr.guarded[id] != "":
				if d := dice(plain(first(c, "full_content")), plain(tr.guarded[id])); d > 0.5 {
					t.Errorf("%s: comment %d on a protected post archived with its hidden text (Dice %.2f)", u, id, d)
				}
			case id == 0 || tr.byCID[id] == nil && !tr.pings[id]:
				t.Errorf("%s: archived comment %q by %q is no approved comment of WordPress", u, first(c, "uri"), first(c, "author"))
			case found[id] != nil:
				t.Errorf("%s: comment %d archived twice", u, id)
			}
			found[id] = c
		}
	}
	for i := range tr.comments {
		checkComment(t, tr, &tr.comments[i], found[tr.comments[i].ID], a)
	}
	checkThreads(t, tr, found)
	t.Logf("WordPress: %d approved comments (+%d pings); archive: %d comment records", len(tr.comments), len(tr.pings), len(found))
}

var (
	commentFragment = regexp.MustCompile(`#(?:div-)?comment-(\d+)$`) // div-comment-N: the comment's body on the page
	commentPage     = regexp.MustCompile(`comment-page-\d+`)
)

func commentID(uri string) int {
	m := commentFragment.FindStringSubmatch(uri)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

func checkComment(t *testing.T, tr *wpTruth, c *wpComment, got map[string][]string, a *wpArchive) {
	t.Helper()
	post := tr.byID[c.Post]
	if got == nil {
		where := "post not archived"
		if post != nil && len(a.entries[post.Link]) > 0 {
			where = fmt.Sprintf("its entry holds %d comments", len(a.entries[post.Link][len(a.entries[post.Link])-1].comments))
		}
		t.Errorf("comment %d (%s) by %q: not archived (%s)", c.ID, c.Link, c.AuthorName, where)
		return
	}
	if want := fmt.Sprintf("#comment-%d", c.ID); !strings.HasSuffix(first(got, "uri"), want) {
		t.Errorf("comment %d: uri %q is not its WordPress permalink (…%s, as in %s)", c.ID, first(got, "uri"), want, c.Link)
	}
	if post != nil && !strings.HasPrefix(first(got, "is_child_of_post"), post.Link) {
		t.Errorf("comment %d: is_child_of_post %q, WordPress post %s", c.ID, first(got, "is_child_of_post"), post.Link)
	}
	if norm(first(got, "author")) != norm(html.UnescapeString(c.AuthorName)) {
		t.Errorf("comment %d: author %q, WordPress %q", c.ID, first(got, "author"), c.AuthorName)
	}
	d := first(got, "date_added")
	if !sameInstant(d, wpTime(c.DateGMT)) && !sameInstant(d, wpTime(c.Date)) {
		t.Errorf("comment %d: date_added %q, WordPress %s (GMT) / %s (site time)", c.ID, d, c.DateGMT, c.Date)
	}
	if dd := dice(plain(first(got, "full_content")), plain(c.Content.Rendered)); dd < wpMinDice {
		t.Errorf("comment %d: text Dice %.3f\n archive: %.150q\n wordpress: %.150q", c.ID, dd,
			plain(first(got, "full_content")), plain(c.Content.Rendered))
	}
	parent := commentID(first(got, "is_child_of_comment"))
	if parent != c.Parent {
		t.Errorf("comment %d: parent %d (is_child_of_comment %q), WordPress parent %d", c.ID, parent, first(got, "is_child_of_comment"), c.Parent)
	}
}

// checkThreads: the deepest thread is as deep in the archive as in
// WordPress, and posts whose comments span several comment pages have all.
func checkThreads(t *testing.T, tr *wpTruth, found map[int]map[string][]string) {
	t.Helper()
	deepest, depth := 0, 0
	for _, c := range tr.comments {
		if d := tr.depth(c.ID); d > depth {
			deepest, depth = c.ID, d
		}
	}
	got := 0
	for id := deepest; id != 0 && found[id] != nil; id = commentID(first(found[id], "is_child_of_comment")) {
		got++
	}
	if got != depth {
		t.Errorf("comment %d is at depth %d in WordPress, the archive links %d levels above it", deepest, depth, got)
	}
	pages := map[int]map[string]bool{}
	for _, c := range tr.comments {
		if pages[c.Post] == nil {
			pages[c.Post] = map[string]bool{}
		}
		pages[c.Post][commentPage.FindString(c.Link)] = true
	}
	for post, ps := range pages {
		if len(ps) < 2 {
			continue
		}
		for _, c := range tr.comments {
			if c.Post == post && found[c.ID] == nil {
				t.Errorf("post %d has comments on %d comment pages: comment %d (%s) missing", post, len(ps), c.ID, c.Link)
			}
		}
	}
	t.Logf("deepest thread: comment %d at depth %d; archive follows %d levels", deepest, depth, got)
}

func (tr *wpTruth) depth(id int) int {
	d := 0
	for c := tr.byCID[id]; c != nil && d < 100; c = tr.byCID[c.Parent] {
		d++
	}
	return d
}

// checkCapture: feed paging and wp-sitemap.xml used (capture logs and the
// server's access log), and every captured URL on the blog's host.
func checkCapture(t *testing.T, wp *wordPress, a *wpArchive, mark int64) {
	for _, want := range []string{wp.url + "/wp-sitemap.xml", wp.url + "/feed/?paged=2"} {
		if !strings.Contains(a.blogLog, want) {
			t.Errorf("blog AIP capture log does not show %s", want)
		}
	}
	hosts := map[string]int{}
	for _, vs := range a.entries {
		for _, e := range vs {
			capturedHosts(e.logs, hosts)
		}
	}
	capturedHosts(a.blogLog, hosts)
	for h, n := range hosts {
		if h != wp.host {
			t.Errorf("capture logs name %d URLs on %s (only %s may be fetched)", n, h, wp.host)
		}
	}
	checkAccessLog(t, wp, mark)
}

var (
	logURL       = regexp.MustCompile(`https?://([^/\s:]+(?::\d+)?)`)
	problemFetch = regexp.MustCompile(`fetch (https?://[^/\s:]+(?::\d+)?)`)
	accessLine   = regexp.MustCompile(`"GET (\S+) HTTP/[\d.]+" (\d+)`)
)

// capturedHosts counts the hosts of the URL column and of the problems
// (attempted fetches) in a capture log.
func capturedHosts(log string, hosts map[string]int) {
	for _, line := range strings.Split(log, "\n") {
		switch {
		case strings.HasPrefix(line, "# problem:"):
			if m := problemFetch.FindStringSubmatch(line); m != nil {
				hosts[logURL.FindStringSubmatch(m[1])[1]]++
			}
		case strings.HasPrefix(line, "#"), line == "":
		default:
			f := strings.Split(line, "\t")
			if m := logURL.FindStringSubmatch(f[len(f)-1]); m != nil {
				hosts[m[1]]++
			}
		}
	}
}

// checkAccessLog reads what Apache saw of the harvest: the feed's pages and
// the sitemap, and how many requests.
func checkAccessLog(t *testing.T, wp *wordPress, mark int64) {
	t.Helper()
	f, err := os.Open(wp.accessLog())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Seek(mark, io.SeekStart)
	status, paths := map[string]int{}, map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if m := accessLine.FindStringSubmatch(sc.Text()); m != nil && strings.Contains(sc.Text(), "blogharvest") {
			status[m[2]]++
			paths[m[1]]++
		}
	}
	for _, p := range []string{"/wp-sitemap.xml", "/feed/?paged=2", "/robots.txt"} {
		if paths[p] == 0 {
			t.Errorf("Apache saw no request for %s", p)
		}
	}
	total, dup := 0, 0
	for _, n := range paths {
		total += n
		if n > 1 {
			dup += n - 1
		}
	}
	t.Logf("Apache saw %d requests from blogharvest (%d repeated), statuses %v", total, dup, status)
}

// checkValid runs `blogharvest check` and xmllint with the official XSDs on
// every AIP.
func checkValid(t *testing.T, archive string) {
	out, err := exec.Command(daemontest.Binary(), "check", archive).CombinedOutput()
	if err != nil {
		t.Errorf("blogharvest check: %v\n%s", err, daemontest.LastLines(string(out), 20))
	}
	mets, _ := filepath.Glob(filepath.Join(archive, wpBlogID, "*", "*", "*", "v*", "data", "METS.xml"))
	blog, _ := filepath.Glob(filepath.Join(archive, wpBlogID, "blog", "v*", "data", "METS.xml"))
	mets = append(mets, blog...)
	if len(mets) == 0 {
		t.Fatal("no METS.xml in the archive")
	}
	if _, err := exec.LookPath("xmllint"); err != nil {
		t.Fatalf("xmllint is needed to cross-check the AIPs: %v", err)
	}
	for len(mets) > 0 {
		n := min(len(mets), 200)
		args := append([]string{"--noout", "--nonet", "--schema", "../../../schemas/driver.xsd"}, mets[:n]...)
		out, err := exec.Command("xmllint", args...).CombinedOutput()
		for _, line := range strings.Split(string(out), "\n") {
			if line != "" && !strings.HasSuffix(line, " validates") && !strings.Contains(line, "Skipping import") {
				t.Errorf("xmllint: %s", line)
			}
		}
		if err != nil {
			t.Errorf("xmllint: %v", err)
		}
		mets = mets[n:]
	}
}

// --- the change -------------------------------------------------------------

// wpChange is what mutate.php did.
type wpChange struct {
	PostID         int    `json:"post_id"`
	PostURL        string `json:"post_url"`
	CommentID      int    `json:"comment_id"`
	CommentPostURL string `json:"comment_post_url"`
	EditedURL      string `json:"edited_url"`
	token          string
	parent         int // the comment replied to
}

// mutate publishes a post, replies to the comment one level above the
// deepest of the thread, and edits the newest post older than a day that is
// neither the commented nor a protected one.
func (wp *wordPress) mutate(t *testing.T, tr *wpTruth) *wpChange {
	t.Helper()
	ch := &wpChange{token: fmt.Sprintf("e2e%d", time.Now().UnixNano())}
	deepest, depth := 0, 0
	for _, c := range tr.comments {
		if d := tr.depth(c.ID); d > depth {
			deepest, depth = c.ID, d
		}
	}
	ch.parent = tr.byCID[deepest].Parent
	if depth < 3 || ch.parent == 0 {
		t.Fatalf("no deep comment thread in WordPress (deepest: comment %d at depth %d)", deepest, depth)
	}
	// The newest post older than a day: an edit, not a post the crawler
	// re-reads anyway because it is new (the test's own earlier posts).
	var edit *wpPost
	for i := range tr.posts {
		p := &tr.posts[i]
		if p.Type == "post" && p.ID != tr.byCID[deepest].Post && tr.secret[p.ID] == "" && p.Content.Rendered != "" &&
			time.Since(wpTime(p.DateGMT)) > 24*time.Hour && (edit == nil || wpTime(p.DateGMT).After(wpTime(edit.DateGMT))) {
			edit = p
		}
	}
	if edit == nil {
		t.Fatal("no public post older than a day to edit")
	}
	out, err := exec.Command("php", wpMutate, "--url="+wp.url, fmt.Sprintf("--reply-to=%d", ch.parent),
		fmt.Sprintf("--edit=%d", edit.ID), "--token="+ch.token).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("php %s: %v\n%s", wpMutate, err, ee.Stderr)
		}
		t.Fatalf("php %s: %v", wpMutate, err)
	}
	if err := json.Unmarshal(out, ch); err != nil {
		t.Fatalf("php %s printed %q: %v", wpMutate, out, err)
	}
	ch.PostURL, ch.CommentPostURL, ch.EditedURL = normURL(ch.PostURL), normURL(ch.CommentPostURL), normURL(ch.EditedURL)
	t.Logf("changed the blog: new post %s, reply %d to comment %d on %s, edited %s", ch.PostURL, ch.CommentID, ch.parent, ch.CommentPostURL, ch.EditedURL)
	return ch
}

// checkUpdate: the update run archived the new post, and a new version of
// the commented and of the edited post holding the change; nothing else.
func checkUpdate(t *testing.T, tr *wpTruth, before, after *wpArchive, ch *wpChange) {
	changed := map[string]bool{ch.PostURL: true, ch.CommentPostURL: true, ch.EditedURL: true}
	checkSameVersions(t, before, after, changed)
	if vs := after.entries[ch.PostURL]; len(vs) != 1 {
		t.Errorf("new post %s: %d versions archived, want 1", ch.PostURL, len(vs))
	} else if p := tr.byURL[ch.PostURL]; p != nil {
		checkEntry(t, tr, p, vs[0])
	}
	for _, u := range []string{ch.CommentPostURL, ch.EditedURL} {
		if got, was := len(after.entries[u]), len(before.entries[u]); got != was+1 {
			t.Errorf("%s: %d versions after the change, %d before: want one new version", u, got, was)
		}
	}
	if vs := after.entries[ch.EditedURL]; len(vs) > 0 {
		if p := tr.byURL[ch.EditedURL]; p != nil {
			checkEntry(t, tr, p, vs[len(vs)-1])
		}
		if !strings.Contains(first(vs[len(vs)-1].attrs, "full_content"), ch.token) {
			t.Errorf("%s: the newest version lacks the edited paragraph", ch.EditedURL)
		}
	}
	if vs := after.entries[ch.CommentPostURL]; len(vs) > 0 {
		var got map[string][]string
		for _, c := range vs[len(vs)-1].comments {
			if commentID(first(c, "uri")) == ch.CommentID {
				got = c
			}
		}
		if c := tr.byCID[ch.CommentID]; c != nil {
			checkComment(t, tr, c, got, after)
		}
		if n, was := len(vs[len(vs)-1].comments), len(vs[0].comments); n != was+1 && len(vs) > 1 {
			t.Errorf("%s: %d comments in the new version, %d in the first: want one more", ch.CommentPostURL, n, was)
		}
	}
	if n, was := len(after.blog), len(before.blog); n > was+1 {
		t.Errorf("blog AIP: %d versions after one update run, %d before", n, was)
	}
}

// checkSameVersions: no entry outside changed got a new version, and no
// entry appeared or vanished outside changed; with changed nil (the blog did
// not change) the blog AIP got no new version either. A new version whose
// article has the very words of the one before, reordered, is logged, not
// failed: WordPress itself shuffles some lists on every request.
func checkSameVersions(t *testing.T, before, after *wpArchive, changed map[string]bool) {
	t.Helper()
	for u, vs := range after.entries {
		if changed[u] || len(vs) == len(before.entries[u]) {
			continue
		}
		t.Errorf("%s: %d versions, %d before: an unchanged entry must not get a new AIP or version", u, len(vs), len(before.entries[u]))
	}
	for u := range before.entries {
		if len(after.entries[u]) == 0 {
			t.Errorf("%s: vanished from the archive", u)
		}
	}
	if changed == nil && len(after.blog) != len(before.blog) {
		t.Errorf("blog AIP: %d versions, %d before, although the blog did not change", len(after.blog), len(before.blog))
	}
}

// --- text -------------------------------------------------------------------

// plain returns the text of an HTML fragment, without scripts and styles;
// block elements separate words, inline ones do not.
func plain(s string) string {
	z := nethtml.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	skip := 0
	for {
		tt := z.Next()
		switch tt {
		case nethtml.ErrorToken:
			return strings.TrimSpace(b.String())
		case nethtml.TextToken:
			if skip == 0 {
				b.Write(z.Text())
			}
		case nethtml.StartTagToken, nethtml.EndTagToken, nethtml.SelfClosingTagToken:
			n, _ := z.TagName()
			tag := string(n)
			switch {
			case (tag == "script" || tag == "style") && tt == nethtml.StartTagToken:
				skip++
			case (tag == "script" || tag == "style") && tt == nethtml.EndTagToken:
				skip = max(skip-1, 0)
			}
			if !inlineTags[tag] {
				b.WriteByte(' ')
			}
		}
	}
}

// inlineTags do not separate words.
var inlineTags = map[string]bool{"a": true, "abbr": true, "b": true, "bdi": true, "bdo": true, "cite": true,
	"code": true, "del": true, "dfn": true, "em": true, "i": true, "ins": true, "kbd": true, "mark": true,
	"q": true, "s": true, "samp": true, "small": true, "span": true, "strong": true, "sub": true, "sup": true,
	"time": true, "u": true, "var": true}

// norm collapses white space.
func norm(s string) string { return strings.Join(strings.Fields(s), " ") }

// dice is the Sørensen–Dice coefficient of the word-bigram sets of a and b
// (word sets for texts of one word).
func dice(a, b string) float64 {
	x, y := bigrams(a), bigrams(b)
	if len(x) == 0 && len(y) == 0 {
		return 1
	}
	common := 0
	for g := range x {
		if y[g] {
			common++
		}
	}
	return 2 * float64(common) / float64(len(x)+len(y))
}

// wordDice is the Dice coefficient of the word sets, for texts whose order
// WordPress shuffles.
func wordDice(a, b string) float64 {
	x, y := map[string]bool{}, map[string]bool{}
	for _, w := range wordRE.FindAllString(strings.ToLower(a), -1) {
		x[w] = true
	}
	for _, w := range wordRE.FindAllString(strings.ToLower(b), -1) {
		y[w] = true
	}
	common := 0
	for w := range x {
		if y[w] {
			common++
		}
	}
	if len(x)+len(y) == 0 {
		return 1
	}
	return 2 * float64(common) / float64(len(x)+len(y))
}

var wordRE = regexp.MustCompile(`[\p{L}\p{N}]+`)

func bigrams(s string) map[string]bool {
	words := wordRE.FindAllString(strings.ToLower(s), -1)
	out := map[string]bool{}
	if len(words) == 1 {
		out[words[0]] = true
	}
	for i := 1; i < len(words); i++ {
		out[words[i-1]+" "+words[i]] = true
	}
	return out
}

// wpTime parses a REST date (site time zone UTC, or a _gmt field).
func wpTime(s string) time.Time {
	v, _ := time.Parse("2006-01-02T15:04:05", s)
	return v
}

func sameInstant(got string, want time.Time) bool {
	v, err := time.Parse(time.RFC3339, got)
	return err == nil && v.Equal(want)
}

// --- traffic leaving the machine --------------------------------------------

// offsiteRecorder is the HTTP(S) proxy the harvests are given: Go sends
// every request not for a loopback host through it, so each one it sees is
// an attempt to leave 127.0.0.1. It answers 403 and records the host.
type offsiteRecorder struct {
	srv   *http.Server
	addr  string
	mu    sync.Mutex
	hosts map[string]int
}

func newOffsiteRecorder(t *testing.T) *offsiteRecorder {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &offsiteRecorder{addr: ln.Addr().String(), hosts: map[string]int{}}
	r.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.hosts[req.Host]++
		r.mu.Unlock()
		http.Error(w, "off-site request refused by the test", http.StatusForbidden)
	})}
	go r.srv.Serve(ln)
	t.Cleanup(func() { r.srv.Close() })
	return r
}

// env is the process environment that routes off-site traffic to r.
func (r *offsiteRecorder) env() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch strings.ToUpper(k) {
		case "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY":
			continue
		}
		env = append(env, kv)
	}
	p := "http://" + r.addr
	return append(env, "HTTP_PROXY="+p, "HTTPS_PROXY="+p, "NO_PROXY=")
}

func (r *offsiteRecorder) check(t *testing.T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for h, n := range r.hosts {
		t.Errorf("%d requests tried to leave the machine for %s", n, h)
	}
}

package lifecycle_test

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/toolskip"
	"github.com/blogharvest/blogharvest/report"
)

// post is one post of the test's blog, generated: the engines build it.
type post struct {
	slug, title string
	date        time.Time
	paras       []string
	tags        []string
}

// words are the vocabulary of the generated posts.
var words = strings.Fields(`river mill lock keeper heron willow bridge towpath barge meadow orchard granary
	cobble lantern ferry weir sluice reed otter kingfisher heather moor valley quarry chapel market baker
	carpenter weaver loom spindle cider apple pear plum hedge lane gate stile field furrow harvest sheaf
	thresher winter spring summer autumn morning evening storm rain frost snow thaw flood drought lantern
	letter ledger almanac map compass survey boundary parish census school teacher pupil slate chalk
	story song fiddle dance festival fair cattle sheep drover shepherd dog collie pasture barn loft hay
	stone slate timber nail hammer anvil forge smith wheel cart axle harness saddle bridle lamp oil wick
	candle hearth kettle bread butter cheese dairy churn pail well pump trough cistern cellar attic roof
	gutter chimney smoke ash ember coal peat turf bog fen marsh dyke embankment canal aqueduct tunnel`)

// makePosts generates n posts, one every four days from March 2021, each
// with its own title, tags and four to six paragraphs of words drawn by a
// seeded generator (the same posts on every run).
func makePosts(n int) []post {
	return makePostsOf(n, words, rand.New(rand.NewPCG(42, 7)), time.Date(2021, 3, 2, 9, 15, 0, 0, time.UTC))
}

// makePostsOf generates n posts of vocabulary words with r, one every
// four days from start.
func makePostsOf(n int, words []string, r *rand.Rand, start time.Time) []post {
	var out []post
	for i := range n {
		a, b := words[r.IntN(len(words))], words[r.IntN(len(words))]
		p := post{slug: fmt.Sprintf("%s-and-%s-%d", a, b, i), title: fmt.Sprintf("The %s and the %s, part %d", a, b, i+1),
			date: start.AddDate(0, 0, 4*i).Add(time.Duration(i) * time.Hour), tags: []string{a, b}}
		for range 4 + r.IntN(3) {
			var s []string
			for range 40 + r.IntN(30) {
				s = append(s, words[r.IntN(len(words))])
			}
			sentence := strings.Join(s, " ")
			p.paras = append(p.paras, strings.ToUpper(sentence[:1])+sentence[1:]+".")
		}
		out = append(out, p)
	}
	return out
}

// site is what the blog's server serves: a built folder and the 301s of
// the "with redirects" case (path → path).
type site struct {
	dir       string
	redirects map[string]string
	handler   http.Handler // serves every request instead, when set (a parking page)
}

// blogServer serves one site at a time at one loopback address, Go's
// file server over the engine's output.
type blogServer struct {
	cur      atomic.Pointer[site]
	URL      string
	requests atomic.Int64 // requests served so far
}

func (b *blogServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.requests.Add(1)
	s := b.cur.Load()
	if s.handler != nil {
		s.handler.ServeHTTP(w, r)
		return
	}
	if to, ok := s.redirects[r.URL.Path]; ok {
		http.Redirect(w, r, to, http.StatusMovedPermanently)
		return
	}
	http.FileServer(http.Dir(s.dir)).ServeHTTP(w, r)
}

// newBlogServer listens on a free loopback address; the engines build
// for its URL before it serves anything.
func newBlogServer(t *testing.T) *blogServer {
	t.Helper()
	b := &blogServer{}
	b.cur.Store(&site{dir: t.TempDir()})
	ln := daemontest.Listen(t)
	srv := &http.Server{Handler: b, ReadHeaderTimeout: time.Minute}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	b.URL = "http://" + ln.Addr().String()
	return b
}

// needEngines skips the test when an engine is not installed.
func needEngines(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			toolskip.Missing(t, n, "Debian: apt-get install -y "+n)
		}
	}
}

// run runs an engine in dir, failing the test with its output.
func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "TZ=UTC")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

// quire is a second Pelican theme, written by the test: Debian's Pelican
// ships one stock theme, simple (notmyidea was removed for its non-free
// files: /usr/share/doc/pelican/README.Debian). Its own page skeleton,
// article and home page; the other pages fall back to simple's templates
// (Pelican's loader), inside quire's skeleton.
var quire = map[string]string{
	"base.html": `<!DOCTYPE html>
<html lang="{{ DEFAULT_LANG }}"><head><meta charset="utf-8"><title>{% block title %}{{ SITENAME }}{% endblock %}</title>
{% if FEED_ALL_ATOM %}<link href="{{ FEED_DOMAIN }}/{{ FEED_ALL_ATOM }}" type="application/atom+xml" rel="alternate" title="{{ SITENAME }}">{% endif %}
</head><body class="quire"><div class="masthead"><a href="{{ SITEURL }}/">{{ SITENAME }}</a>
<div class="sections">{% for cat, null in categories %}<a href="{{ SITEURL }}/{{ cat.url }}">{{ cat }}</a> {% endfor %}</div></div>
<div class="page">{% block content %}{% endblock %}</div><div class="colophon">Set in Quire</div></body></html>`,
	"article.html": `{% extends "base.html" %}{% block title %}{{ article.title|striptags }} · {{ SITENAME }}{% endblock %}
{% block content %}<article class="entry"><h2 class="entry-heading">{{ article.title }}</h2>
<div class="entry-meta">Posted <span class="when" title="{{ article.date.isoformat() }}">{{ article.locale_date }}</span>
by <a class="byline" href="{{ SITEURL }}/{{ article.author.url }}">{{ article.author }}</a></div>
<div class="entry-body">{{ article.content }}</div>
<footer class="entry-tags">Tagged {% for tag in article.tags %}<a rel="tag" href="{{ SITEURL }}/{{ tag.url }}">{{ tag }}</a> {% endfor %}</footer></article>{% endblock %}`,
	"index.html": `{% extends "base.html" %}{% block content %}<div class="stream">{% for article in articles_page.object_list %}
<div class="teaser"><h3><a href="{{ SITEURL }}/{{ article.url }}">{{ article.title }}</a></h3>{{ article.summary }}</div>{% endfor %}</div>{% endblock %}`,
}

// buildPelican builds posts with Pelican for siteURL, with its stock
// theme simple or the test's quire: posts at /<slug>.html, an Atom feed
// at /feeds/all.atom.xml. It returns the output folder.
func buildPelican(t *testing.T, posts []post, siteURL, theme string) string {
	t.Helper()
	src := t.TempDir()
	if theme != "simple" {
		for name, body := range quire {
			p := filepath.Join(src, theme, "templates", name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte(body), 0o644)
		}
		theme = filepath.Join(src, theme)
	}
	content := filepath.Join(src, "content")
	os.MkdirAll(content, 0o755)
	for _, p := range posts {
		var b strings.Builder
		fmt.Fprintf(&b, "%s\n%s\n\n:date: %s\n:slug: %s\n:tags: %s\n:category: notes\n:author: Ada Quill\n\n",
			p.title, strings.Repeat("#", len(p.title)), p.date.Format("2006-01-02 15:04"), p.slug, strings.Join(p.tags, ", "))
		for _, para := range p.paras {
			b.WriteString(para + "\n\n")
		}
		os.WriteFile(filepath.Join(content, p.slug+".rst"), []byte(b.String()), 0o644)
	}
	conf := fmt.Sprintf(`AUTHOR = 'Ada Quill'
SITENAME = 'Towpath notes'
SITEURL = %q
TIMEZONE = 'UTC'
DEFAULT_LANG = 'en'
THEME = %q
FEED_DOMAIN = SITEURL
FEED_ALL_ATOM = 'feeds/all.atom.xml'
CATEGORY_FEED_ATOM = None
TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = None
AUTHOR_FEED_RSS = None
DEFAULT_PAGINATION = False
RELATIVE_URLS = False
`, siteURL, theme)
	os.WriteFile(filepath.Join(src, "pelicanconf.py"), []byte(conf), 0o644)
	out := filepath.Join(src, "output")
	run(t, src, "pelican", "content", "-s", "pelicanconf.py", "-o", out, "-q")
	return out
}

// hugoLayouts are the theme of the Hugo build, written by the test: a
// home page listing the posts, a page per post, the home's RSS feed
// (Hugo's own template) named in every head.
var hugoLayouts = map[string]string{
	"_default/baseof.html": `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{{ block "title" . }}{{ .Site.Title }}{{ end }}</title>
{{ with .Site.Home.OutputFormats.Get "rss" }}<link rel="alternate" type="application/rss+xml" href="{{ .Permalink }}" title="{{ $.Site.Title }}">{{ end }}
</head><body><header class="site"><a href="{{ .Site.BaseURL }}">{{ .Site.Title }}</a></header>
<main>{{ block "main" . }}{{ end }}</main><footer>Built with Hugo</footer></body></html>`,
	"_default/single.html": `{{ define "title" }}{{ .Title }} · {{ .Site.Title }}{{ end }}{{ define "main" }}<article class="post">
<h1 class="post-title">{{ .Title }}</h1><p class="post-meta"><time datetime="{{ .Date.Format "2006-01-02T15:04:05Z07:00" }}">{{ .Date.Format "January 2, 2006" }}</time>
by <span class="author">{{ .Params.author }}</span></p><div class="post-content">{{ .Content }}</div>
<p class="tags">{{ range .Params.tags }}<a rel="tag" href="{{ "tags/" | absURL }}{{ . | urlize }}/">{{ . }}</a> {{ end }}</p></article>{{ end }}`,
	"_default/list.html": `{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href="{{ .Permalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}`,
	"index.html": `{{ define "main" }}<ul class="posts">{{ range where .Site.RegularPages "Section" "posts" }}<li><a href="{{ .Permalink }}">{{ .Title }}</a>
<time>{{ .Date.Format "2006-01-02" }}</time></li>{{ end }}</ul>{{ end }}`,
}

// buildHugo builds posts with Hugo for siteURL: posts at
// /<yyyy>/<mm>/<slug>/, an RSS feed at /index.xml whose guids are the
// permalinks. It returns the output folder.
func buildHugo(t *testing.T, posts []post, siteURL string) string {
	t.Helper()
	src := t.TempDir()
	for name, body := range hugoLayouts {
		p := filepath.Join(src, "layouts", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	conf := fmt.Sprintf("baseURL = %q\ntitle = \"Towpath notes\"\nlanguageCode = \"en\"\n[permalinks]\n  posts = \"/:year/:month/:slug/\"\n", siteURL+"/")
	os.WriteFile(filepath.Join(src, "config.toml"), []byte(conf), 0o644)
	dir := filepath.Join(src, "content", "posts")
	os.MkdirAll(dir, 0o755)
	for _, p := range posts {
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntitle: %q\ndate: %s\nslug: %q\nauthor: \"Ada Quill\"\ntags: [%q, %q]\n---\n\n",
			p.title, p.date.Format(time.RFC3339), p.slug, p.tags[0], p.tags[1])
		for _, para := range p.paras {
			b.WriteString(para + "\n\n")
		}
		os.WriteFile(filepath.Join(dir, p.slug+".md"), []byte(b.String()), 0o644)
	}
	out := filepath.Join(src, "public")
	run(t, src, "hugo", "--quiet", "--destination", out)
	return out
}

func pelicanURL(base string, p post) string { return base + "/" + p.slug + ".html" }
func hugoURL(base string, p post) string    { return base + p.date.Format("/2006/01/") + p.slug + "/" }

// crawl runs `crawl -url -out` into archive through the binary and
// returns its output.
func crawl(t *testing.T, base, archive string, more ...string) string {
	t.Helper()
	args := append([]string{"crawl", "-url", base + "/", "-out", archive, "-id", "towpath", "-delay", "1ms",
		"-render", "never", "-requisites", "none"}, more...)
	p := daemontest.Start(t, args...)
	select {
	case <-p.Done:
	case <-time.After(5 * time.Minute):
		t.Fatalf("crawl %v did not end within 5 minutes", more)
	}
	if code := p.Cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("crawl %v: exit %d\n%s", more, code, daemontest.LastLines(p.Logs.String(), 40))
	}
	return p.Logs.String()
}

// entry is one entry folder of the archive.
type entry struct {
	dir             string
	versions        int
	first, latest   string // External-Identifier of v1 and of the newest version
	latestMETS      string
	latestBag       string // the newest version's folder, relative to the archive root
	permalinksInAll []string
}

// entries returns the archive's entry folders of the blog, by folder.
func entries(t *testing.T, archive string) map[string]*entry {
	t.Helper()
	out := map[string]*entry{}
	dirs, _ := filepath.Glob(filepath.Join(archive, "towpath", "entries", "*", "*"))
	for _, d := range dirs {
		e := &entry{dir: d}
		for n := 1; ; n++ {
			info, err := os.ReadFile(filepath.Join(d, "v"+strconv.Itoa(n), "bag-info.txt"))
			if err != nil {
				break
			}
			e.versions = n
			id := field(string(info), "External-Identifier")
			if n == 1 {
				e.first = id
			}
			e.latest = id
			e.permalinksInAll = append(e.permalinksInAll, id)
			rel, _ := filepath.Rel(archive, filepath.Join(d, "v"+strconv.Itoa(n)))
			e.latestBag = filepath.ToSlash(rel)
			mets, _ := os.ReadFile(filepath.Join(d, "v"+strconv.Itoa(n), "data", "METS.xml"))
			e.latestMETS = string(mets)
		}
		out[d] = e
	}
	return out
}

// field returns the value of a bag-info.txt label.
func field(info, label string) string {
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(line, label+": "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// versions counts the entry versions of es.
func versions(es map[string]*entry) int {
	n := 0
	for _, e := range es {
		n += e.versions
	}
	return n
}

// ledger returns the rows of the newest Blog AIP's ledger by URL: fate,
// detail, via.
func ledger(t *testing.T, archive string) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(daemontest.NewestBlogAIP(t, filepath.Join(archive, "towpath")), "data", "logs", "ledger.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) >= 4 {
			out[f[0]] = f[1:4]
		}
	}
	return out
}

// checkFields reads the newest version of the entry of every post back
// from its METS (report.ReadPost) and fails the test on a field worse
// than the post's own: the title, the day, the author, the text of every
// paragraph.
func checkFields(t *testing.T, archive string, es map[string]*entry, posts []post, urlOf func(post) string) {
	t.Helper()
	st := &aip.Local{Root: archive}
	for _, p := range posts {
		var found *entry
		for _, e := range es {
			if e.latest == urlOf(p) {
				found = e
			}
		}
		if found == nil {
			t.Errorf("%s: no entry preserves it", urlOf(p))
			continue
		}
		got, err := report.ReadPost(st, found.latestBag)
		if err != nil {
			t.Errorf("%s: %v", found.latestBag, err)
			continue
		}
		if got.Title != p.title || !strings.HasPrefix(got.Created, p.date.Format("2006-01-02")) || got.Author != "Ada Quill" {
			t.Errorf("%s: title %q, created %q, author %q; want %q, %s, Ada Quill", urlOf(p), got.Title, got.Created, got.Author,
				p.title, p.date.Format("2006-01-02"))
		}
		for _, para := range p.paras {
			if !strings.Contains(got.Text, para[:60]) {
				t.Errorf("%s: the archived text lacks %q…", urlOf(p), para[:60])
				break
			}
		}
	}
}

// TestRedesign: a Pelican blog archived with its stock theme simple, then
// served with another theme (quire): the update (crawl -out from the archive)
// and a new crawl of the whole blog (-full) write no new entry and no new
// version, and every post's fields, read back from the archive, are the
// post's own; check is clean after each run.
func TestRedesign(t *testing.T) {
	needEngines(t, "pelican")
	t.Parallel()
	posts := makePosts(12)
	srv := newBlogServer(t)
	archive := t.TempDir()
	srv.cur.Store(&site{dir: buildPelican(t, posts, srv.URL, "simple")})
	crawl(t, srv.URL, archive)
	daemontest.CheckArchive(t, archive)
	before := entries(t, archive)
	if len(before) != len(posts) {
		t.Fatalf("the first crawl archived %d entries, want %d", len(before), len(posts))
	}
	checkFields(t, archive, before, posts, func(p post) string { return pelicanURL(srv.URL, p) })

	// The redesign brings one new post: the update reads its page with the
	// rules learned from the old theme, finds they no longer fit and
	// learns them again before archiving it (harvest/refit.go).
	all := makePosts(13)
	all[12].date = time.Now().UTC().Truncate(time.Minute) // published after the first crawl
	srv.cur.Store(&site{dir: buildPelican(t, all, srv.URL, "quire")})
	logs := crawl(t, srv.URL, archive)
	daemontest.CheckArchive(t, archive)
	grown := entries(t, archive)
	t.Logf("redesign and a new post, update: entries %d → %d, entry versions %d → %d", len(before), len(grown), versions(before), versions(grown))
	if !strings.Contains(logs, "no longer fit") {
		t.Errorf("the update after the redesign did not learn the rules again:\n%s", daemontest.LastLines(logs, 30))
	}
	if len(grown) != len(all) || versions(grown) != len(all) {
		t.Errorf("after the redesign and a new post: %d entries, %d versions; want %d and %d", len(grown), versions(grown), len(all), len(all))
	}
	checkFields(t, archive, grown, all, func(p post) string { return pelicanURL(srv.URL, p) })
	before, posts = grown, all
	for _, more := range [][]string{nil, {"-full"}} {
		crawl(t, srv.URL, archive, more...)
		daemontest.CheckArchive(t, archive)
		after := entries(t, archive)
		t.Logf("redesign, crawl %v: entries %d → %d, entry versions %d → %d", more, len(before), len(after), versions(before), versions(after))
		if len(after) != len(before) {
			t.Errorf("after the theme switch (crawl %v): %d entries; want the %d of before", more, len(after), len(before))
		}
		// Neither run writes a version: the update reads the unchanged
		// feed; a new crawl of the whole blog (-full) reads every page anew
		// and, on this theme, files a tag the feed lists as a category,
		// which the archive's split of the same terms overrides
		// (daemon/fieldsworse.go, doc/lifecycle.md).
		if versions(after) != versions(before) {
			t.Errorf("after the theme switch (crawl %v): %d versions; want the %d of before", more, versions(after), versions(before))
		}
		checkFields(t, archive, after, posts, func(p post) string { return pelicanURL(srv.URL, p) })
	}
}

// TestMove: a Pelican blog (theme simple) rebuilt with Hugo at the same address (new
// URLs, a new feed path, the old feed gone), with and without 301s from
// the old URLs to the new: the update finds the feed again, archives no
// post twice (as many entry folders as before), matches every post (its
// Hugo URL preserved in the folder of its Pelican URL, with the old URL
// among its aliases), records each move in the ledger, and check is
// clean; an update after that writes nothing new.
func TestMove(t *testing.T) {
	needEngines(t, "pelican", "hugo")
	for _, redirects := range []bool{false, true} {
		t.Run(fmt.Sprintf("redirects=%v", redirects), func(t *testing.T) {
			t.Parallel()
			posts := makePosts(12)
			srv := newBlogServer(t)
			archive := t.TempDir()
			srv.cur.Store(&site{dir: buildPelican(t, posts, srv.URL, "simple")})
			crawl(t, srv.URL, archive)
			before := entries(t, archive)
			if len(before) != len(posts) {
				t.Fatalf("the Pelican crawl archived %d entries, want %d", len(before), len(posts))
			}
			hugo := &site{dir: buildHugo(t, posts, srv.URL), redirects: map[string]string{}}
			if redirects {
				for _, p := range posts {
					hugo.redirects["/"+p.slug+".html"] = hugoURL(srv.URL, p)
				}
			}
			srv.cur.Store(hugo)
			logs := crawl(t, srv.URL, archive)
			daemontest.CheckArchive(t, archive)
			after := entries(t, archive)
			rows := ledger(t, archive)
			if !strings.Contains(logs, "the posts feed moved") {
				t.Errorf("the run's log does not say the feed moved:\n%s", daemontest.LastLines(logs, 30))
			}
			if r := rows[srv.URL+"/feeds/all.atom.xml"]; len(r) < 2 || r[0] != "redirect" || !strings.HasPrefix(r[1], srv.URL+"/index.xml") {
				t.Errorf("the old feed's ledger row is %q, want a redirect to %s/index.xml", r, srv.URL)
			}
			how := "title, date and text"
			if redirects {
				how = "redirect from the archived URL"
			}
			matched, recorded, duplicates, least := 0, 0, 0, 1.0
			for _, p := range posts {
				oldURL, newURL := pelicanURL(srv.URL, p), hugoURL(srv.URL, p)
				holders := 0
				for _, e := range after {
					if contains(e.permalinksInAll, oldURL) || contains(e.permalinksInAll, newURL) {
						holders++
					}
					if e.first == oldURL && e.latest == newURL && strings.Contains(e.latestMETS, oldURL) {
						matched++
					}
				}
				if holders > 1 {
					duplicates++
					t.Errorf("%s is archived in %d entry folders", p.title, holders)
				}
				if r := rows[oldURL]; len(r) >= 2 && r[0] == "redirect" && strings.HasPrefix(r[1], newURL) && strings.Contains(r[1], how) {
					recorded++
					if _, s, ok := strings.Cut(r[1], "similarity "); ok {
						if v, err := strconv.ParseFloat(strings.TrimRight(s, ")"), 64); err == nil {
							least = min(least, v)
						}
					}
				} else {
					t.Errorf("ledger row of %s: %q, want a redirect to %s matched by %s", oldURL, r, newURL, how)
				}
			}
			t.Logf("move (redirects %v): entries %d → %d, entry versions %d → %d, posts matched %d/%d, moves in the ledger %d, posts in two folders %d, least text similarity of a match %.2f",
				redirects, len(before), len(after), versions(before), versions(after), matched, len(posts), recorded, duplicates, least)
			if len(after) != len(before) {
				t.Errorf("%d entry folders after the move, want the %d of before", len(after), len(before))
			}
			if float64(matched) < 0.98*float64(len(posts)) {
				t.Errorf("%d of %d posts matched with their archived entry, want at least 98%%", matched, len(posts))
			}
			checkFields(t, archive, after, posts, func(p post) string { return hugoURL(srv.URL, p) })
			// locate finds the moved post by its new URL, in its old folder.
			p0 := posts[0]
			code, out, errs := daemontest.Run(t, "locate", archive, hugoURL(srv.URL, p0))
			if dir := blogharvest.EntryKey(pelicanURL(srv.URL, p0), p0.title); code != 0 || !strings.Contains(out, dir+"/v2") {
				t.Errorf("locate %s: exit %d, %q %q; want the v2 of its entry folder %s", hugoURL(srv.URL, p0), code, out, errs, dir)
			}

			crawl(t, srv.URL, archive)
			daemontest.CheckArchive(t, archive)
			again := entries(t, archive)
			t.Logf("move, an update after it: entries %d → %d, entry versions %d → %d", len(after), len(again), versions(after), versions(again))
			if len(again) != len(after) || versions(again) != versions(after) {
				t.Errorf("an update after the move: %d entries, %d versions; want %d and %d", len(again), versions(again), len(after), versions(after))
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

package harvest_test

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/internal/fixture"
	"github.com/blogharvest/blogharvest/internal/toolskip"
	"github.com/blogharvest/blogharvest/warc"
)

// TestWARCRecordsSayWhatHappened crawls two fixture blogs with their page
// requisites, the demo's (wordpress, without a browser, as `demo` and the
// daemon tests crawl it) and the JavaScript-comments blog (rendered in
// Chromium, whose own requests reach the server through the crawl's
// proxy; once more with Cache-Control: no-cache on every response, so
// that the browser revalidates what its cache holds and the server
// answers 304), writes every record as AIPs, and reads every WARC of the
// archive back against what the server saw (issue 40):
//   - no record is WARC-Concurrent-To a record of another target URI;
//   - every revisit record names by WARC-Refers-To a response record of
//     the archive holding its payload (same URI as its
//     WARC-Refers-To-Target-URI, same date, same payload digest) and has a
//     request record of its own: a fetch that took place;
//   - no URL has more request records than the server answered requests
//     for it, and for page requisites the two are equal — each fetch is
//     recorded once, none twice (no copied records), none left out —
//     except for requests the browser sent whose responses it could not
//     hand over (still loading when the page was captured, on a busy
//     machine) while the crawl archives its own fetch of the file: the
//     crawl names each of those in its log, and only those may make up
//     the difference.
func TestWARCRecordsSayWhatHappened(t *testing.T) {
	if testing.Short() {
		t.Skip("two whole crawls, one with a browser")
	}
	for _, c := range []struct {
		fixture string
		render  string
		posts   int  // newest posts kept; 0: all
		noCache bool // every response says Cache-Control: no-cache: the browser revalidates what it holds (304)
	}{
		{"wordpress", harvest.RenderNever, 0, false},
		{"jscomments", harvest.RenderAuto, 6, false},
		{"jscomments", harvest.RenderAuto, 6, true},
	} {
		name := c.fixture
		if c.noCache {
			name += "-no-cache"
		}
		t.Run(name, func(t *testing.T) {
			if c.render != harvest.RenderNever {
				if _, err := exec.LookPath("chromium"); err != nil {
					toolskip.Missing(t, "chromium", err)
				}
			}
			t.Parallel()
			site, err := fixture.New(c.fixture)
			if err != nil {
				t.Fatal(err)
			}
			if c.posts > 0 {
				site.KeepNewest(c.posts)
			}
			served := &servedLog{n: map[string]int{}}
			h := served.wrap(site.Handler())
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if c.noCache {
					w.Header().Set("Cache-Control", "no-cache")
				}
				h.ServeHTTP(w, r)
			}))
			t.Cleanup(srv.Close)
			o := options(c.fixture, srv.URL)
			o.Render, o.Requisites, o.MaxMediaPerEntry, o.Delay = c.render, harvest.RequisitesAll, 0, time.Millisecond
			unrecorded := &unrecordedLog{n: map[string]int{}}
			o.Logger = slog.New(unrecorded)
			_, out := crawl(t, o)
			root := writeAll(t, out)
			if len(requisiteURLs(out)) == 0 {
				t.Error("no page requisite captured with requisites: all (the fixture's pages link stylesheets)")
			}
			checkRecordsAgainstServer(t, root, srv.URL, served.snapshot(), requisiteURLs(out), unrecorded.snapshot())
		})
	}
}

// unrecordedLog is a slog handler counting, by request URI, the requests
// the crawl logs as sent by the browser with no record of their own (the
// crawl's own capture of the file standing for them).
type unrecordedLog struct {
	mu sync.Mutex
	n  map[string]int
}

func (l *unrecordedLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *unrecordedLog) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *unrecordedLog) WithGroup(string) slog.Handler            { return l }
func (l *unrecordedLog) Handle(_ context.Context, r slog.Record) error {
	if !strings.HasPrefix(r.Message, "browser request not recorded") {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "url" {
			if u, err := url.Parse(a.Value.String()); err == nil {
				l.mu.Lock()
				l.n[u.RequestURI()]++
				l.mu.Unlock()
			}
		}
		return true
	})
	return nil
}

func (l *unrecordedLog) snapshot() map[string]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := make(map[string]int, len(l.n))
	for k, v := range l.n {
		m[k] = v
	}
	return m
}

// servedLog counts the requests a server answered, by request URI.
type servedLog struct {
	mu sync.Mutex
	n  map[string]int
}

func (l *servedLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.n[r.URL.RequestURI()]++
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (l *servedLog) snapshot() map[string]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := make(map[string]int, len(l.n))
	for k, v := range l.n {
		m[k] = v
	}
	return m
}

// writeAll writes the crawl's blog and entries as AIPs into a new archive,
// checks it, and returns its root.
func writeAll(t *testing.T, out *output) string {
	t.Helper()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	w := &aip.Writer{Root: t.TempDir(), Organization: "test", Now: func() time.Time { return now }}
	defer w.Close()
	ctx := context.Background()
	for _, b := range out.Blogs {
		if _, err := w.WriteBlog(ctx, b); err != nil {
			t.Fatalf("write blog: %v", err)
		}
	}
	for _, e := range out.Entries {
		if _, err := w.WriteEntry(ctx, e); err != nil {
			t.Fatalf("write %s: %v", e.URL, err)
		}
	}
	for _, err := range aip.Check(w.Root) {
		t.Errorf("aip check: %v", err)
	}
	return w.Root
}

// requisiteURLs returns the URLs of the crawl's page requisites.
func requisiteURLs(out *output) map[string]bool {
	m := map[string]bool{}
	add := func(fs []blogharvest.File) {
		for _, f := range fs {
			if f.Role == blogharvest.RoleRequisite {
				m[blogharvest.NormalizeURL(f.URL)] = true
				for _, x := range f.Exchanges {
					m[blogharvest.NormalizeURL(x.URL)] = true
				}
			}
		}
	}
	for _, b := range out.Blogs {
		add(b.Files)
	}
	for _, e := range out.Entries {
		add(e.Files)
	}
	return m
}

// checkRecordsAgainstServer reads every WARC under root and compares its
// records with each other and with served, the requests the server at
// base answered by request URI; unrecorded counts the browser's requests
// the crawl named as unrecorded, by request URI. It returns the type of
// every record, by id.
func checkRecordsAgainstServer(t *testing.T, root, base string, served map[string]int, requisites map[string]bool, unrecorded map[string]int) map[string]string {
	t.Helper()
	type rec struct {
		warc.Record
		file string
	}
	var all []rec
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(p, ".warc.gz") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rs, err := warc.Read(data)
		if err != nil {
			t.Errorf("%s: %v", p, err)
		}
		rel, _ := filepath.Rel(root, p)
		for _, r := range rs {
			all = append(all, rec{r, rel})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]rec{}
	for _, r := range all {
		byID[r.ID] = r
	}
	requests := map[string]int{}   // request URI → request records
	requestOf := map[string]bool{} // record id → a request record is concurrent to it
	var revisits, metadata, requisiteReqs, requisiteServed int
	for _, r := range all {
		if c, ok := byID[r.ConcurrentTo]; ok && c.TargetURI != r.TargetURI {
			t.Errorf("%s: %s record of %s is WARC-Concurrent-To the %s record of %s", r.file, r.Type, r.TargetURI, c.Type, c.TargetURI)
		} else if r.ConcurrentTo != "" && !ok {
			t.Errorf("%s: %s record of %s is WARC-Concurrent-To %s, no record of the archive", r.file, r.Type, r.TargetURI, r.ConcurrentTo)
		}
		switch r.Type {
		case "request":
			requestOf[r.ConcurrentTo] = true
			if strings.HasPrefix(r.TargetURI, base) {
				u, err := url.Parse(r.TargetURI)
				if err != nil {
					t.Errorf("%s: request record of %q: %v", r.file, r.TargetURI, err)
					continue
				}
				requests[u.RequestURI()]++
			}
		case "metadata":
			metadata++
		}
	}
	for _, r := range all {
		if r.Type != "revisit" {
			continue
		}
		revisits++
		o, ok := byID[r.RefersTo]
		switch {
		case !ok:
			t.Errorf("%s: revisit of %s refers to %q, no record of the archive", r.file, r.TargetURI, r.RefersTo)
		case o.Type != "response" || o.TargetURI != r.RefersToURI || o.Date.UTC().Format(time.RFC3339) != r.RefersToDate ||
			r.PayloadDigest != "" && "sha256:"+o.PayloadSHA256 != r.PayloadDigest:
			t.Errorf("%s: revisit of %s (refers to %s at %s, %s) names the %s record of %s at %s holding %s", r.file, r.TargetURI,
				r.RefersToURI, r.RefersToDate, r.PayloadDigest, o.Type, o.TargetURI, o.Date.UTC().Format(time.RFC3339), o.PayloadSHA256)
		}
		if !requestOf[r.ID] {
			t.Errorf("%s: revisit of %s has no request record: no fetch it records", r.file, r.TargetURI)
		}
	}
	// A response record without its request is a capture nobody made
	// then (a capture reused from an earlier version is not copied: its
	// new version names the record, issue 40).
	notModified := 0
	for _, r := range all {
		if r.Type == "response" && r.Status == http.StatusNotModified {
			notModified++
		}
		if r.Type == "response" && !requestOf[r.ID] {
			t.Errorf("%s: response record of %s (%s) has no request record: a capture this crawl did not make", r.file, r.TargetURI, r.ID)
		}
	}
	var uris []string
	for u := range requests {
		uris = append(uris, u)
	}
	sort.Strings(uris)
	for _, u := range uris {
		if requests[u] > served[u] {
			t.Errorf("%s: %d request records, the server answered %d requests", u, requests[u], served[u])
		}
	}
	for full := range requisites {
		if !strings.HasPrefix(full, base) {
			continue
		}
		pu, err := url.Parse(full)
		if err != nil {
			continue
		}
		u := pu.RequestURI()
		requisiteReqs += requests[u]
		requisiteServed += served[u]
		if requests[u] > served[u] || served[u] > requests[u]+unrecorded[u] {
			t.Errorf("requisite %s: %d request records (and %d browser requests named unrecorded), the server answered %d requests",
				u, requests[u], unrecorded[u], served[u])
		}
	}
	total := 0
	for _, n := range served {
		total += n
	}
	recorded := 0
	for _, n := range requests {
		recorded += n
	}
	t.Logf("%d records; %d request records of %d requests served (requisites: %d of %d, %d URLs); %d revisit, %d metadata records; %d response records of a 304",
		len(all), recorded, total, requisiteReqs, requisiteServed, len(requisites), revisits, metadata, notModified)
	types := map[string]string{}
	for _, r := range all {
		types[r.ID] = r.Type
	}
	return types
}

// TestWARCRecordsOfAnUpdate is TestWARCRecordsSayWhatHappened over two
// crawls of the demo blog archived as the daemon does (issue 40): a
// NewCrawl, then, after a new comment on a post with pictures, an
// UpdateCrawl that reuses the archive (Options.Archived: the post's
// pictures and comment feeds; the requisites packages) and re-reads every
// post of the feed's first page (the recheck is due, each asked for
// conditionally with the validators of its capture), every response
// saying Cache-Control: no-cache (so each held requisite is revalidated:
// the server answers 304). Every revisit record of the archive names by
// WARC-Refers-To a response record of the archive of the same URI (a 304
// revisit the response it revalidated, in an earlier package); every
// response and revisit record has its request record (no copied
// captures: a picture or comment feed reused from the earlier version is
// not recorded again, the reuse names the earlier record and version); no
// URL has more request records than requests served.
func TestWARCRecordsOfAnUpdate(t *testing.T) {
	if testing.Short() {
		t.Skip("two crawls of the demo blog")
	}
	t.Parallel()
	site, err := fixture.New("wordpress")
	if err != nil {
		t.Fatal(err)
	}
	served := &servedLog{n: map[string]int{}}
	h := served.wrap(site.Handler())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	first := newestActivity(site).Add(24 * time.Hour)
	o := options("wordpress", srv.URL)
	o.Requisites, o.MaxMediaPerEntry, o.Delay = harvest.RequisitesAll, 0, time.Millisecond
	o.Now = func() time.Time { return first }
	res, out := crawl(t, o)
	root := t.TempDir()
	w := &aip.Writer{Root: root, Organization: "test", Now: func() time.Time { return first }}
	defer w.Close()
	write := func(out *output) (written, unwritten *output) { // a record unchanged since its last version is not written
		t.Helper()
		written, unwritten = &output{}, &output{}
		for _, b := range out.Blogs {
			if r, err := w.WriteBlog(context.Background(), b); err != nil {
				t.Fatalf("write blog: %v", err)
			} else if r.Written {
				written.Blogs = append(written.Blogs, b)
			} else {
				unwritten.Blogs = append(unwritten.Blogs, b)
			}
		}
		for _, e := range out.Entries {
			if r, err := w.WriteEntry(context.Background(), e); err != nil {
				t.Fatalf("write %s: %v", e.URL, err)
			} else if r.Written {
				if r.Version > 1 {
					t.Logf("%s v%d: %d bytes written", e.URL, r.Version, r.Bytes)
				}
				written.Entries = append(written.Entries, e)
			} else {
				unwritten.Entries = append(unwritten.Entries, e)
			}
		}
		return written, unwritten
	}
	write(out)

	// A new comment on the newest post with pictures.
	var pictured *blogharvest.Entry
	for _, e := range out.Entries {
		if slices.ContainsFunc(e.Files, func(f blogharvest.File) bool { return f.Role == blogharvest.RoleMedia }) &&
			(pictured == nil || e.Created.After(pictured.Created)) {
			pictured = e
		}
	}
	if pictured == nil {
		t.Fatal("no entry with pictures")
	}
	slug := strings.Trim(path.Base(pictured.URL), "/")
	site.AddComment(slug, fixture.CommentSpec{Author: "Late Reader", Text: "The pictures are lovely.", Date: first.Add(time.Hour)})

	second := first.Add(48 * time.Hour)
	o.Now, o.State, o.RecheckPosts = func() time.Time { return second }, res.State, time.Hour
	o.Archived = func(e *blogharvest.Entry) []blogharvest.File {
		files, err := aip.ArchivedCaptures(&aip.Local{Root: root}, e)
		if err != nil {
			t.Errorf("archived captures of %s: %v", e.URL, err)
		}
		return files
	}
	o.ArchivedRequisites = func() []blogharvest.File {
		files, err := aip.ArchivedRequisites(&aip.Local{Root: root}, o.Blog.ID)
		if err != nil {
			t.Errorf("archived requisites: %v", err)
		}
		return files
	}
	up := &output{}
	if _, err := harvest.UpdateCrawl(context.Background(), o, res.Watermark, up.Emit); err != nil {
		t.Fatal(err)
	}
	var again *blogharvest.Entry
	for _, e := range up.Entries {
		if e.URL == pictured.URL {
			again = e
		}
	}
	if again == nil {
		t.Fatalf("the update did not emit %s", pictured.URL)
	}
	reused := 0
	for _, f := range again.Files {
		if f.Reused != "" && f.Role == blogharvest.RoleMedia {
			reused++
		}
	}
	if reused == 0 {
		t.Errorf("the update reused no picture of %s", pictured.URL)
	}
	w.Now = func() time.Time { return second }
	archived, unarchived := write(up)
	t.Logf("the update emitted %d entries and %d blog records; %d entries and %d blog records written", len(up.Entries), len(up.Blogs),
		len(archived.Entries), len(archived.Blogs))
	for _, err := range aip.Check(root) {
		t.Errorf("aip check: %v", err)
	}
	// Requisites recorded once per fetch: those of the records the update
	// archived, and of no record it did not. A post the update re-read
	// (its undated feed item cannot tell a change) and the archive found
	// unchanged gets no new version, and the fetches made for it no
	// record: the server's count is higher for those.
	reqs := requisiteURLs(archived)
	for u := range requisiteURLs(unarchived) {
		delete(reqs, u)
	}
	types := checkRecordsAgainstServer(t, root, srv.URL, served.snapshot(), reqs, nil)
	// The reused captures are not copied: each names its record, a
	// response record of the earlier version.
	for _, f := range again.Files {
		if f.Reused != "" && len(f.Exchanges) == 0 && (types[f.Reused] != "response" || f.ReusedIn == "") {
			t.Errorf("reused %s names record %s (%q) in %q: want a response record of the version holding it", f.URL, f.Reused, types[f.Reused], f.ReusedIn)
		}
	}
}

package lifecycle_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// goneServer serves one built site, answering 410 to one path when told.
type goneServer struct {
	dir  atomic.Pointer[string]
	gone atomic.Pointer[string] // a path answered 410 Gone; "" none
	URL  string
}

func (g *goneServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if p := g.gone.Load(); p != nil && *p == r.URL.Path {
		http.Error(w, "gone", http.StatusGone)
		return
	}
	http.FileServer(http.Dir(*g.dir.Load())).ServeHTTP(w, r)
}

// serve serves dir from now on, answering 410 to gonePath ("" none).
func (g *goneServer) serve(dir, gonePath string) {
	g.dir.Store(&dir)
	g.gone.Store(&gonePath)
}

// hashes returns the SHA-256 of every file under dir, by path.
func hashes(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		out[p] = hex.EncodeToString(sum[:])
		return nil
	})
	return out
}

// blogVersions counts the Blog AIP's versions.
func blogVersions(archive string) int {
	vs, _ := filepath.Glob(filepath.Join(archive, "towpath", "blog", "v*"))
	return len(vs)
}

// archiveGone returns the gone posts of the newest state the archive
// holds of the blog: the state file kept beside the bags after a run
// that wrote no Blog AIP, else the newest Blog AIP's.
func archiveGone(t *testing.T, archive string) map[string]blogharvest.GonePost {
	t.Helper()
	var files []string
	for _, pat := range []string{filepath.Join(archive, ".state", "towpath", "*"), filepath.Join(archive, "towpath", "blog", "v*", "data", "objects", "state", "*.json")} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	var newest struct {
		At   time.Time
		Gone map[string]blogharvest.GonePost
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var w struct {
			At   time.Time                       `json:"at"`
			Gone map[string]blogharvest.GonePost `json:"gone"`
		}
		if json.Unmarshal(data, &w) == nil && !w.At.Before(newest.At) {
			newest.At, newest.Gone = w.At, w.Gone
		}
	}
	return newest.Gone
}

var requestsRE = regexp.MustCompile(`requests=(\d+)`)

// requests reads the HTTP requests of a crawl's "harvest finished" line.
func requests(t *testing.T, logs string) int {
	t.Helper()
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(line, "harvest finished") {
			if m := requestsRE.FindStringSubmatch(line); m != nil {
				n, _ := strconv.Atoi(m[1])
				return n
			}
		}
	}
	t.Fatalf("no harvest finished line with requests in:\n%s", daemontest.LastLines(logs, 20))
	return 0
}

// TestWithdrawal: a post of an archived Pelican blog deleted (404, then
// 410 on the next run) is recorded withdrawn by the second run, in the
// ledger of a new Blog AIP version and its state file; its archived
// versions stay byte for byte; an unchanged run after that asks no more
// than the feed; the post put back is recorded restored; check is clean
// after every run. Each run is `crawl -out` into the same archive.
func TestWithdrawal(t *testing.T) {
	needEngines(t, "pelican")
	t.Parallel()
	posts := makePosts(6)
	g := &goneServer{}
	ln := daemontest.Listen(t)
	srv := &http.Server{Handler: g, ReadHeaderTimeout: time.Minute}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	g.URL = "http://" + ln.Addr().String()
	archive := t.TempDir()

	g.serve(buildPelican(t, posts, g.URL, "simple"), "")
	crawl(t, g.URL, archive)
	daemontest.CheckArchive(t, archive)
	if n := len(entries(t, archive)); n != len(posts) {
		t.Fatalf("the first crawl archived %d entries, want %d", n, len(posts))
	}
	before := hashes(t, filepath.Join(archive, "towpath", "entries"))
	deleted := posts[2]
	url := pelicanURL(g.URL, deleted)
	kept := append(append([]post{}, posts[:2]...), posts[3:]...)

	// Run 2: the post deleted (404), and gone from the feed.
	g.serve(buildPelican(t, kept, g.URL, "simple"), "")
	crawl(t, g.URL, archive)
	daemontest.CheckArchive(t, archive)
	if st := ledger(t, archive)[url]; len(st) > 0 && st[0] == "withdrawn" {
		t.Errorf("withdrawn after one run that met a 404: %v", st)
	}
	if gp, ok := archiveGone(t, archive)[url]; !ok || gp.FirstStatus != 404 || !gp.Confirmed.IsZero() {
		t.Errorf("after the first 404 the archive's state holds %+v (%v); want a suspected post, 404", gp, ok)
	}

	// Run 3: the post answers 410: withdrawn.
	blogs := blogVersions(archive)
	g.serve(buildPelican(t, kept, g.URL, "simple"), "/"+deleted.slug+".html")
	crawl(t, g.URL, archive)
	daemontest.CheckArchive(t, archive)
	row := ledger(t, archive)[url]
	if len(row) < 2 || row[0] != "withdrawn" || !strings.Contains(row[1], "HTTP 404") || !strings.Contains(row[1], "HTTP 410") {
		t.Errorf("after a 404 and a 410 on two runs, the ledger row of %s is %v; want withdrawn, with both answers", url, row)
	}
	if got := blogVersions(archive); got != blogs+1 {
		t.Errorf("the run that recorded the withdrawal: Blog AIP versions %d → %d; want one more", blogs, got)
	}
	if gp := archiveGone(t, archive)[url]; gp.Confirmed.IsZero() || gp.Status != 410 {
		t.Errorf("the state of the withdrawn post: %+v; want confirmed, 410", gp)
	}
	after := hashes(t, filepath.Join(archive, "towpath", "entries"))
	for p, h := range before {
		if after[p] != h {
			t.Errorf("%s changed after the withdrawal", p)
		}
	}
	if len(after) != len(before) {
		t.Errorf("entry files %d → %d after the withdrawal; want none added", len(before), len(after))
	}

	// Run 4: nothing changed: the feed alone is asked (the withdrawn post
	// waits a week), nothing is written.
	blogs = blogVersions(archive)
	out := crawl(t, g.URL, archive)
	n := requests(t, out)
	t.Logf("the unchanged run after the withdrawal: %d requests", n)
	if n > 2 {
		t.Errorf("an unchanged run after the withdrawal sent %d requests; want at most 2", n)
	}
	if got := blogVersions(archive); got != blogs {
		t.Errorf("an unchanged run wrote a Blog AIP (%d → %d versions)", blogs, got)
	}

	// Runs 5 and 6: the post is back, in the feed and at its URL: the
	// first run sees it listed again, the next asks it and records it
	// restored.
	g.serve(buildPelican(t, posts, g.URL, "simple"), "")
	crawl(t, g.URL, archive)
	crawl(t, g.URL, archive)
	daemontest.CheckArchive(t, archive)
	if row := ledger(t, archive)[url]; len(row) < 2 || row[0] != "restored" {
		t.Errorf("after the post came back, its ledger row is %v; want restored", row)
	}
	if gp, ok := archiveGone(t, archive)[url]; ok {
		t.Errorf("the restored post is still in the archive's state: %+v", gp)
	}
	if n := len(entries(t, archive)); n != len(posts) {
		t.Errorf("%d entries after the post came back; want the %d of before", n, len(posts))
	}
}

package daemon_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
	"github.com/blogharvest/blogharvest/internal/fixturetest"
)

// TestCrawlTwiceIntoOneArchiveUpdates: crawl -url U -out DIR on an archive
// that holds the blog runs an UpdateCrawl from what its latest Blog AIP
// holds, as the daemon's next run would. The blogharvest binary crawls the
// demo blog twice into one archive: the second run is mode=update and
// sends at most two requests (the posts feed and the blog-wide comment
// feed, conditionally), writing nothing; after a new comment the next run
// archives it as an update; -full forces a new crawl. Into a folder and
// into an S3 archive alike: the update starts from the Blog AIP read
// through the archive's store (aip.LatestBlog).
func TestCrawlTwiceIntoOneArchiveUpdates(t *testing.T) {
	for _, backend := range []string{"local", "s3"} {
		t.Run(backend, func(t *testing.T) {
			out := t.TempDir()
			if backend == "s3" {
				out, _ = daemontest.NewS3Archive(t)
			}
			testCrawlTwiceIntoOneArchiveUpdates(t, out)
		})
	}
}

func testCrawlTwiceIntoOneArchiveUpdates(t *testing.T, out string) {
	site := fixture.MustNew("wordpress")
	var hits atomic.Int64
	h := site.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	run := func(extra ...string) (string, int64) {
		t.Helper()
		hits.Store(0)
		args := append([]string{"crawl", "-url", srv.URL + "/", "-out", out, "-delay", "0", "-render", "never"}, extra...)
		b, err := exec.Command(daemontest.Binary(), args...).CombinedOutput()
		if err != nil {
			t.Fatalf("crawl %v: %v\n%s", extra, err, daemontest.LastLines(string(b), 20))
		}
		return string(b), hits.Load()
	}
	first, n1 := run()
	if !strings.Contains(first, "mode=new") {
		t.Fatalf("first run is not a new crawl:\n%s", daemontest.LastLines(first, 10))
	}
	second, n2 := run()
	t.Logf("first run: %d requests; second: %d requests", n1, n2)
	if !strings.Contains(second, "mode=update") || n2 > 2 || loggedRequests(t, second) != int(n2) {
		t.Errorf("second run: %d requests (logged %d), want an update of at most 2:\n%s", n2, loggedRequests(t, second), daemontest.LastLines(second, 10))
	}
	if !strings.Contains(second, "0 entry AIPs written") {
		t.Errorf("second run wrote something on an unchanged blog:\n%s", daemontest.LastLines(second, 5))
	}
	slug := strings.Trim(path.Base(site.Truth(srv.URL).Posts[0].URL), "/")
	site.AddComment(slug, fixture.CommentSpec{Author: "Rosa Update", Text: "A comment the update must find."})
	third, n3 := run()
	if !strings.Contains(third, "mode=update") || !strings.Contains(third, "1 entry AIPs written") || n3 >= n1 {
		t.Errorf("run after a new comment: %d requests (the new crawl sent %d), want an update writing one entry:\n%s", n3, n1, daemontest.LastLines(third, 10))
	}
	full, _ := run("-full")
	if !strings.Contains(full, "mode=new") {
		t.Errorf("-full did not force a new crawl:\n%s", daemontest.LastLines(full, 10))
	}
}

// loggedRequests reads requests=N from the "harvest finished" log line.
func loggedRequests(t *testing.T, logs string) int {
	t.Helper()
	m := regexp.MustCompile(`msg="harvest finished".* requests=(\d+)`).FindStringSubmatch(logs)
	if m == nil {
		t.Fatalf("no harvest finished line with requests=N:\n%s", daemontest.LastLines(logs, 20))
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestReportShowsCommentShortfall: a post of the demo blog whose page
// states (JSON-LD commentCount) three comments more than it and its
// comment feed hold is archived with the comments there are, and the
// shortfall, which no source can fill, is in the Blog AIP's ledger and in
// `blogharvest report`.
func TestReportShowsCommentShortfall(t *testing.T) {
	t.Parallel()
	srv, post, stated := fixturetest.ShortfallBlog(t)
	out := t.TempDir()
	b, err := exec.Command(daemontest.Binary(), "crawl", "-url", srv.URL+"/", "-out", out, "-id", "demo", "-delay", "0", "-render", "never").CombinedOutput()
	if err != nil {
		t.Fatalf("crawl: %v\n%s", err, daemontest.LastLines(string(b), 20))
	}
	rep, err := exec.Command(daemontest.Binary(), "report", out+"/demo", "-out", "-").CombinedOutput()
	if err != nil {
		t.Fatalf("report: %v\n%s", err, daemontest.LastLines(string(rep), 20))
	}
	want := fmt.Sprintf("stated %d (JSON-LD commentCount), archived %d", stated, stated-3)
	if !strings.Contains(string(rep), "Comments short") || !strings.Contains(string(rep), want) || !strings.Contains(string(rep), post) {
		t.Errorf("report lacks the shortfall %q of %s", want, post)
	}
	if !strings.Contains(string(b), "comments short") {
		t.Errorf("the crawl's log does not name the shortfall:\n%s", daemontest.LastLines(string(b), 10))
	}
}

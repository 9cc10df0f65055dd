// Package hostilebounds_test crawls hostile blogs (internal/hugeblog) with
// the real blogharvest binary and measures its peak memory (issue 38,
// findings 1 and 2): a sitemap index of 300 children of 900 000 URLs each,
// and a comments REST endpoint answering 19 MB pages of {"id":N}. Like
// every folder under daemon/tests it is a test binary of its own; it
// builds the binary itself (not daemontest.Main) so that another build
// can be named instead.
//
// BLOGHARVEST_BOUNDS_BINARY names a blogharvest binary to run instead of
// the one built from this tree (to show an older build failing); a
// watchdog kills the crawl past watchdogRSS, so that a build without the
// bounds fails quickly instead of taking the machine's memory.
package hostilebounds_test

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/internal/hugeblog"
)

// binary is the blogharvest command the tests run.
var binary string

// peakLimit is the peak resident memory a crawl of a hostile blog may
// reach (issue 38: at most 300 MB).
const peakLimit = 300 << 20

// watchdogRSS is the resident memory past which the watchdog kills a
// crawl.
const watchdogRSS = 1 << 30

func TestMain(m *testing.M) {
	code := func() int {
		if b := os.Getenv("BLOGHARVEST_BOUNDS_BINARY"); b != "" {
			binary = b
			return m.Run()
		}
		dir, err := os.MkdirTemp("", "blogharvest-bounds-")
		if err != nil {
			panic(err)
		}
		defer os.RemoveAll(dir)
		binary = filepath.Join(dir, "blogharvest")
		if out, err := exec.Command("go", "build", "-o", binary, "../../../cmd/blogharvest").CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building blogharvest: %v\n%s", err, out)
			return 1
		}
		return m.Run()
	}()
	os.Exit(code)
}

// run is one crawl of the binary: its output, exit error, peak resident
// memory (getrusage's ru_maxrss of the child) and whether the watchdog
// killed it.
type run struct {
	out    string
	err    error
	peak   int64
	killed bool
}

// crawl runs `blogharvest crawl -config` on a config of one blog at url
// with extra keys, archiving into out, under the watchdog, for at most
// five minutes.
func crawl(t *testing.T, url, extra, out string) run {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "blogs.yaml")
	y := fmt.Sprintf("archive: %q\nstate: %q\nblogs:\n  - id: hostile\n    url: %q\n    render: never\n    requisites: none\n    delay: 1ms\n%s",
		out, filepath.Join(filepath.Dir(cfg), "state.db"), url, extra)
	if err := os.WriteFile(cfg, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	cmd := exec.Command(binary, "crawl", "-config", cfg)
	cmd.Stdout, cmd.Stderr = &buf, &buf
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(5 * time.Minute)
	r := run{}
	for {
		select {
		case r.err = <-done:
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				r.peak = ru.Maxrss << 10 // kilobytes on Linux
			}
			r.out = buf.String()
			t.Logf("crawl: %s, peak RSS %d MB, exit %v", time.Since(start).Round(time.Millisecond), r.peak>>20, r.err)
			return r
		case <-tick.C:
			if rss := residentBytes(cmd.Process.Pid); rss > watchdogRSS && !r.killed {
				r.killed = true
				cmd.Process.Kill()
				t.Errorf("the crawl passed %d MB resident: killed", rss>>20)
			}
		case <-deadline:
			cmd.Process.Kill()
			t.Errorf("the crawl took more than five minutes: killed")
			deadline = nil
		}
	}
}

// residentBytes reads a process's resident memory (VmRSS); 0 when it
// cannot.
func residentBytes(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// files returns the archive's files whose slash path contains part.
func files(t *testing.T, root, part string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(filepath.ToSlash(p), part) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// ledger returns the text of the archive's newest Blog AIP ledger.
func ledger(t *testing.T, root string) string {
	t.Helper()
	ls := files(t, root, "/data/logs/ledger.tsv")
	if len(ls) == 0 {
		t.Fatal("no ledger.tsv in the archive")
	}
	b, err := os.ReadFile(ls[len(ls)-1])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// entryAIPs counts the entry AIPs of the archive (their METS files
// outside the blog's own folder).
func entryAIPs(t *testing.T, root string) int {
	n := 0
	for _, p := range files(t, root, "METS.xml") {
		if !strings.Contains(filepath.ToSlash(p), "/hostile/blog/") {
			n++
		}
	}
	return n
}

// TestSitemapFloodPeakMemory (finding 1): robots.txt names a sitemap
// index of 300 gzipped children, each listing 900 000 URLs (some 50 MB of
// XML apiece). With the default max_urls (100 000) the binary reads the
// first child as a stream, takes 100 000 URLs in, reads no other child,
// archives the three posts and writes the rest in the ledger; its peak
// resident memory stays under 300 MB. Before: past 3 GB after four
// children.
func TestSitemapFloodPeakMemory(t *testing.T) {
	t.Parallel()
	blog := &hugeblog.Blog{Posts: 3, SitemapChildren: 300, SitemapURLs: 900_000}
	srv := httptest.NewServer(blog)
	defer srv.Close()
	out := t.TempDir()
	r := crawl(t, srv.URL+"/", "    max_pages: 30\n", out)
	if r.err != nil || r.killed {
		t.Fatalf("crawl: %v\n%s", r.err, tail(r.out))
	}
	if r.peak > peakLimit {
		t.Errorf("peak resident memory %d MB, want at most %d MB", r.peak>>20, peakLimit>>20)
	}
	if n := entryAIPs(t, out); n != 3 {
		t.Errorf("%d entry AIPs, want the 3 posts", n)
	}
	led := ledger(t, out)
	row := strings.Split(grepLines(led, "/sitemaps/child-0.xml.gz\t"), "\t")
	if len(row) < 3 || row[1] != "over-budget" || !strings.HasSuffix(row[2], " URLs it lists not taken in: max_urls 100000 reached") {
		t.Errorf("the ledger does not say the first child's URLs were left out: %q", row)
	} else if n, _ := strconv.Atoi(strings.Fields(row[2])[0]); n < 800_000 {
		t.Errorf("the ledger counts %d of the first child's URLs left out, want at least 800000 (900000 less max_urls)", n)
	}
	if !strings.Contains(led, "/sitemaps/child-1.xml.gz\tover-budget\tsitemap not read: max_urls 100000 reached") {
		t.Errorf("the ledger does not say the second child was not read:\n%s", grepLines(led, "child-1."))
	}
}

// TestCommentFloodPeakMemory (finding 2): a post stating 100 000 comments
// whose comments endpoint answers every page with 19 MB of {"id":N}
// objects (about 1.7 million) and announces 1 000 pages. With the default
// bounds the binary stops reading the first answer at 8 MB
// (max_comment_answer_bytes), archives the post with the comments its
// comment feed holds, names the bound in the ledger, and its peak
// resident memory stays under 300 MB. Before: past 3 GB after two
// answers.
func TestCommentFloodPeakMemory(t *testing.T) {
	t.Parallel()
	blog := &hugeblog.Blog{Posts: 1, Comments: 100_000, FloodBytes: 19 << 20}
	srv := httptest.NewServer(blog)
	defer srv.Close()
	out := t.TempDir()
	r := crawl(t, srv.URL+"/", os.Getenv("BOUNDS_EXTRA"), out)
	if r.err != nil || r.killed {
		t.Fatalf("crawl: %v\n%s", r.err, tail(r.out))
	}
	if r.peak > peakLimit {
		t.Errorf("peak resident memory %d MB, want at most %d MB", r.peak>>20, peakLimit>>20)
	}
	if n := entryAIPs(t, out); n != 1 {
		t.Errorf("%d entry AIPs, want the post", n)
	}
	led := ledger(t, out)
	for _, want := range []string{"stated 100000 (feed slash:comments), archived 10", "its comment feed holds 10",
		"its comments API holds 0", "answer 1 over max_comment_answer_bytes 8388608: not read"} {
		if !strings.Contains(led, want) {
			t.Errorf("the ledger lacks %q:\n%s", want, grepLines(led, "post-0"))
		}
	}
}

// tail returns the last lines of a command's output.
func tail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-30):], "\n")
}

// grepLines returns the lines of s containing part.
func grepLines(s, part string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, part) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

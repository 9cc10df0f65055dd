package process_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// threadBlog is a blog of two posts, each with a comment feed (Atom,
// threaded) of n comments: every fifth answers the one before it.
type threadBlog struct{ n int }

func (b threadBlog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	base := "http://" + r.Host
	switch p := r.URL.Path; {
	case p == "/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Thread blog</title>"+
			"<link rel=\"alternate\" type=\"application/rss+xml\" href=\"%s/feed.xml\"></head><body><h1>Thread blog</h1><ul>"+
			"<li><a href=\"%s/post-1/\">Post one</a></li><li><a href=\"%s/post-2/\">Post two</a></li></ul></body></html>\n", base, base, base)
	case p == "/feed.xml":
		w.Header().Set("Content-Type", "application/rss+xml; charset=utf-8")
		fmt.Fprintf(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" xmlns:wfw=\"http://wellformedweb.org/CommentAPI/\" "+
			"xmlns:slash=\"http://purl.org/rss/1.0/modules/slash/\"><channel><title>Thread blog</title><link>%s/</link><description>Threads</description>\n", base)
		for i := 1; i <= 2; i++ {
			fmt.Fprintf(w, "<item><title>Post %d on long threads</title><link>%s/post-%d/</link><guid isPermaLink=\"false\">thread-%d</guid>"+
				"<pubDate>%s</pubDate><description>The start of post %d</description><wfw:commentRss>%s/comments-%d.xml</wfw:commentRss>"+
				"<slash:comments>%d</slash:comments></item>\n",
				i, base, i, i, time.Date(2025, 1, i, 9, 0, 0, 0, time.UTC).Format(time.RFC1123Z), i, base, i, b.n)
		}
		fmt.Fprint(w, "</channel></rss>\n")
	case strings.HasPrefix(p, "/post-"):
		i := strings.Trim(strings.TrimPrefix(p, "/post-"), "/")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Post %s on long threads</title></head>"+
			"<body><main><article><h1 class=\"entry-title\">Post %s on long threads</h1><div class=\"entry-content\">%s</div></article></main></body></html>\n",
			i, i, strings.Repeat("<p>A paragraph on why some threads run to thousands of comments, and what a reader makes of them.</p>\n", 5))
	case strings.HasPrefix(p, "/comments-"):
		post := strings.TrimSuffix(strings.TrimPrefix(p, "/comments-"), ".xml")
		w.Header().Set("Content-Type", "application/atom+xml")
		fmt.Fprintf(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" "+
			"xmlns:thr=\"http://purl.org/syndication/thread/1.0\"><title>Comments on post %s</title><id>urn:t:%s</id>"+
			"<updated>2025-02-01T00:00:00Z</updated>\n", post, post)
		start := time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC)
		for c := 1; c <= b.n; c++ {
			reply := ""
			if c%5 == 0 {
				reply = fmt.Sprintf("<thr:in-reply-to ref=\"urn:t:%s:%d\"/>", post, c-1)
			}
			fmt.Fprintf(w, "<entry><id>urn:t:%s:%d</id><title>c%d</title><author><name>Reader %d</name></author>"+
				"<updated>%s</updated><link href=\"%s/post-%s/#c%d\"/><content type=\"html\">Comment %d says something.</content>%s</entry>\n",
				post, c, c, c%97, start.Add(time.Duration(c)*time.Minute).Format(time.RFC3339), base, post, c, c, reply)
		}
		fmt.Fprint(w, "</feed>\n")
	default:
		http.NotFound(w, r)
	}
}

// threadComments returns how many comments each post of the blog has
// (BLOGHARVEST_THREAD_COMMENTS, 300 unless set: issue 38 finding 5 had
// 10 000).
func threadComments(t *testing.T) int {
	if s := os.Getenv("BLOGHARVEST_THREAD_COMMENTS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("BLOGHARVEST_THREAD_COMMENTS=%q", s)
		}
		return n
	}
	return 300
}

// runPeak runs the blogharvest binary with args and returns its exit
// code, its output and its peak resident set (MiB; 0 when /proc cannot
// tell). BLOGHARVEST_TEST_BINARY, when set, names another build to run
// (to measure the figures before a change).
func runPeak(t *testing.T, args ...string) (int, string, int64) {
	t.Helper()
	bin := daemontest.Binary()
	if b := os.Getenv("BLOGHARVEST_TEST_BINARY"); b != "" {
		bin = b
	}
	cmd := exec.Command(bin, args...)
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	peak := daemontest.WatchPeak(cmd.Process.Pid)
	err := cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, msg.String(), <-peak >> 10
}

// TestBigCommentThread crawls a blog of two posts with n comments each
// (threadComments) through the binary, and checks the archive: every
// comment of each post is in its Entry AIP (a dmdSec each), check is
// clean, and neither process's peak resident set passes 300 MiB (issue 38
// finding 5: 2.69 GB for the crawl, 2.65 GB for check at n = 10 000).
func TestBigCommentThread(t *testing.T) {
	t.Parallel()
	n := threadComments(t)
	srv := httptest.NewServer(threadBlog{n: n})
	defer srv.Close()
	out := t.TempDir()
	start := time.Now()
	code, msg, crawlPeak := runPeak(t, "crawl", "-url", srv.URL+"/", "-out", out, "-delay", "1ms", "-render", "never")
	crawlTime := time.Since(start)
	if code != 0 {
		t.Fatalf("crawl: exit %d\n%s", code, msg)
	}
	mets, _ := filepath.Glob(filepath.Join(out, "*", "entries", "*", "*", "v1", "data", "METS.xml"))
	if len(mets) != 2 {
		t.Fatalf("%d Entry AIPs, want 2\n%s", len(mets), msg)
	}
	for _, m := range mets {
		data, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Count(data, []byte(`<mets:dmdSec ID="dmd-comment-`)); got != n {
			t.Errorf("%s: %d comments archived, the post has %d", m, got, n)
		}
		t.Logf("%s: %d bytes of METS for %d comments", filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(m)))), len(data), n)
	}
	start = time.Now()
	code, msg, checkPeak := runPeak(t, "check", out)
	checkTime := time.Since(start)
	if code != 0 {
		t.Errorf("check: exit %d\n%s", code, msg)
	}
	t.Logf("%d comments per post: crawl %v, peak RSS %d MiB; check %v, peak RSS %d MiB", n, crawlTime.Round(time.Millisecond),
		crawlPeak, checkTime.Round(time.Millisecond), checkPeak)
	if crawlPeak > 300 || checkPeak > 300 {
		t.Errorf("peak RSS: crawl %d MiB, check %d MiB; want at most 300 MiB each", crawlPeak, checkPeak)
	}
}

// Package rendertest holds what the tests of package render share across
// their test binaries: a test web server with the pages of testdata and the
// JSON endpoints their scripts call (Site), the usual browser options for
// it (Options), a browser's process tree read from /proc (ProcessTree),
// stand-in browser scripts (BrowserScript) and a quiet logger.
//
// render's own tests (those that share one browser, or kill its processes)
// and the test-only harvest/render/tests/ownbrowser (tests that start a
// browser of their own, with options of their own) import it, each a test
// binary with go test's 10-minute limit to itself; nothing else does.
//
// Where to change what: a test page or endpoint, here (testdata/ and
// NewSite); the options every test browser starts with, Options.
package rendertest

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/render"
)

//go:embed testdata
var testdata embed.FS

// pages is testdata/ as the server's root.
var pages = func() fs.FS {
	f, err := fs.Sub(testdata, "testdata")
	if err != nil {
		panic(err)
	}
	return f
}()

// Options are the browser options of render's tests: blog.test and
// comments.test mapped to the two sites (so a frame of one in the other is
// cross-site, as a Disqus thread is), two tabs, a screenshot, the suite's
// extra selector and a quiet logger.
func Options(blog, comments *Site) render.Options {
	return render.Options{
		Tabs: 2,
		// Generous: a page that settles returns as soon as it is captured,
		// and on a loaded machine a tall page's screenshot or a 40 MiB
		// download takes many seconds.
		Timeout:        2 * time.Minute,
		HostRules:      fmt.Sprintf("MAP blog.test %s, MAP comments.test %s", blog.Host(), comments.Host()),
		Screenshot:     true,
		ExtraSelectors: []string{".suite"},
		Logger:         QuietLogger(),
	}
}

// QuietLogger logs warnings to stderr with -v and nothing otherwise.
func QuietLogger() *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// BrowserScript writes an executable shell script named chromium, of the
// body given, into a fresh directory of t and returns its path.
func BrowserScript(t testing.TB, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "chromium")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// BrokenBrowser is a browser that says why it cannot start and exits. It
// waits a little before exiting: chromedp reads the output concurrently
// with its wait for the process, which closes the pipe at exit, so the
// words of a process that exits at once may be lost on a loaded machine.
const BrokenBrowser = `echo "chromium: cannot open the profile (a broken browser)" >&2; sleep 3; exit 1`

// Site is a test web server: the pages of testdata/ (embedded) plus the
// JSON endpoints their scripts call. It counts the requests per path.
type Site struct {
	srv     *httptest.Server
	mu      sync.Mutex
	hits    map[string]int
	waiters map[string][]chan struct{} // closed at the next request of the path
}

// NewSite starts a Site on loopback; Close stops it.
func NewSite() *Site {
	s := &Site{hits: map[string]int{}, waiters: map[string][]chan struct{}{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/comments", s.comments)
	mux.HandleFunc("/api/batch", s.batch)
	mux.HandleFunc("/api/post", s.post)
	mux.HandleFunc("/api/hang", s.hang)
	mux.HandleFunc("/api/tick", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("{}")) })
	mux.HandleFunc("/api/slowjs", s.slowJS)
	mux.HandleFunc("/img/", s.image)
	mux.HandleFunc("/api/big", big)
	mux.Handle("/", http.FileServerFS(pages))
	s.srv = httptest.NewServer(s.count(mux))
	return s
}

// Host is the server's host:port.
func (s *Site) Host() string { return strings.TrimPrefix(s.srv.URL, "http://") }

// Close stops the server.
func (s *Site) Close() { s.srv.Close() }

func (s *Site) count(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		for _, c := range s.waiters[r.URL.Path] {
			close(c)
		}
		delete(s.waiters, r.URL.Path)
		s.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// NextHit returns a channel closed when path is next requested.
func (s *Site) NextHit(path string) <-chan struct{} {
	c := make(chan struct{})
	s.mu.Lock()
	s.waiters[path] = append(s.waiters[path], c)
	s.mu.Unlock()
	return c
}

// HitCount returns how often path was requested.
func (s *Site) HitCount(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

type comment struct {
	Author string `json:"author"`
	Text   string `json:"text"`
}

// comments answers n comments after delay milliseconds.
func (s *Site) comments(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.FormValue("n"))
	delay, _ := strconv.Atoi(r.FormValue("delay"))
	if !wait(r, time.Duration(delay)*time.Millisecond) {
		return
	}
	var cs []comment
	for i := range n {
		cs = append(cs, comment{fmt.Sprintf("Reader %d", i+1), fmt.Sprintf("Comment number %d.", i+1)})
	}
	writeJSON(w, cs)
}

// batch answers page of pages batches of size comments.
func (s *Site) batch(w http.ResponseWriter, r *http.Request) {
	page, _ := strconv.Atoi(r.FormValue("page"))
	size, _ := strconv.Atoi(r.FormValue("size"))
	pages, _ := strconv.Atoi(r.FormValue("pages"))
	out := struct {
		Comments []comment `json:"comments"`
		More     bool      `json:"more"`
	}{More: page+1 < pages}
	for i := range size {
		if page < pages {
			out.Comments = append(out.Comments, comment{fmt.Sprintf("Reader %d-%d", page, i), "A batched comment."})
		}
	}
	writeJSON(w, out)
}

func (s *Site) post(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, map[string]string{"title": "Built by script", "body": "This article exists only after JavaScript ran."})
}

// hang never answers: a long poll that outlives the render.
func (s *Site) hang(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	<-r.Context().Done()
}

// slowJS answers a script after delay milliseconds.
func (s *Site) slowJS(w http.ResponseWriter, r *http.Request) {
	delay, _ := strconv.Atoi(r.FormValue("delay"))
	if !wait(r, time.Duration(delay)*time.Millisecond) {
		return
	}
	w.Header().Set("Content-Type", "text/javascript")
	fmt.Fprint(w, `document.getElementById('state').textContent = 'done';`)
}

// image answers a 1×1 PNG.
func (s *Site) image(w http.ResponseWriter, r *http.Request) {
	var buf bytes.Buffer
	_ = png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1)))
	w.Header().Set("Content-Type", "image/png")
	w.Write(buf.Bytes())
}

// wait sleeps for d unless the client goes away first.
func wait(r *http.Request, d time.Duration) bool {
	select {
	case <-time.After(d):
		return true
	case <-r.Context().Done():
		return false
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// big answers mb (query) mebibytes of text.
func big(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.URL.Query().Get("mb"))
	w.Header().Set("Content-Type", "text/plain")
	line := []byte(strings.Repeat("x", 1023) + "\n")
	for i := 0; i < n*1024; i++ {
		w.Write(line)
	}
}

// Process is one entry of /proc.
type Process struct {
	PID, PPID int
	RSSKB     int64
	Cmdline   string
}

// ProcessTree returns root and its descendants, read from /proc.
func ProcessTree(root int) []Process {
	all := map[int][]Process{}
	var self *Process
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		p, ok := readProcess(d)
		if !ok {
			continue
		}
		if p.PID == root {
			self = &p
		}
		all[p.PPID] = append(all[p.PPID], p)
	}
	if self == nil {
		return nil
	}
	out := []Process{*self}
	for i := 0; i < len(out); i++ {
		out = append(out, all[out[i].PID]...)
	}
	return out
}

// readProcess reads the pid, parent, resident set and command line of the
// process in /proc directory d.
func readProcess(d string) (Process, bool) {
	stat, err := os.ReadFile(filepath.Join(d, "stat"))
	if err != nil {
		return Process{}, false
	}
	// The command name is in parentheses and may hold spaces.
	i := strings.LastIndexByte(string(stat), ')')
	fields := strings.Fields(string(stat)[i+1:])
	if len(fields) < 22 {
		return Process{}, false
	}
	pid, _ := strconv.Atoi(filepath.Base(d))
	ppid, _ := strconv.Atoi(fields[1])
	rssPages, _ := strconv.ParseInt(fields[21], 10, 64)
	cmd, _ := os.ReadFile(filepath.Join(d, "cmdline"))
	return Process{pid, ppid, rssPages * int64(os.Getpagesize()) / 1024, strings.ReplaceAll(string(cmd), "\x00", " ")}, true
}

// TreeRSS returns the resident memory of root's process tree in MiB.
func TreeRSS(root int) float64 {
	var kb int64
	for _, p := range ProcessTree(root) {
		kb += p.RSSKB
	}
	return float64(kb) / 1024
}

// TreePSS returns the proportional set size of root's process tree in MiB:
// shared pages (the browser binary mapped by every process) counted once
// rather than per process. It is 0 when smaps_rollup is unavailable.
func TreePSS(root int) float64 {
	var kb int64
	for _, p := range ProcessTree(root) {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p.PID), "smaps_rollup"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "Pss:" {
				n, _ := strconv.ParseInt(f[1], 10, 64)
				kb += n
			}
		}
	}
	return float64(kb) / 1024
}

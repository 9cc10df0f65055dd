package browser_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/chromedp/chromedp"
)

// TestStatusPageInChromium runs the daemon with a blog that harvests and
// one that cannot be reached, serves its status pages behind a reverse
// proxy under a path prefix, and opens them in headless Chromium: every
// configured blog is listed with the numbers /status gives, the failing
// one with its error in plain words, the blog page (reached by its
// relative link) with its run and extraction methods; no console errors.
func TestStatusPageInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process and a browser")
	}
	t.Parallel()
	b := daemontest.NewBrowser(t)
	e := daemontest.NewEnv(t, "@every 1h")
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	gone := "http://" + ln.Addr().String() + "/"
	ln.Close() // connection refused
	cfg, _ := os.ReadFile(e.Config)
	cfg = []byte(strings.Replace(string(cfg), "blogs:\n", "blogs:\n  - id: gone\n    url: "+gone+"\n    schedule: \"@every 1h\"\n    render: never\n", 1))
	os.WriteFile(e.Config, cfg, 0o644)
	d := daemontest.Start(t, "run", "-config", e.Config)

	backend, _ := url.Parse("http://" + e.Listen)
	proxy := httputil.NewSingleHostReverseProxy(backend)
	direct := proxy.Director
	proxy.Director = func(r *http.Request) {
		direct(r)
		r.URL.Path = "/" + strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, "/archive/status"), "/")
	}
	front := httptest.NewServer(proxy)
	defer front.Close()
	prefix := front.URL + "/archive/status/"

	var st struct{ Blogs []map[string]any }
	daemontest.WaitFor(t, "both first runs", 90*time.Second, func() bool {
		st.Blogs = nil
		body := daemontest.HTTPGet(t, prefix+"status")
		if json.Unmarshal([]byte(body), &st) != nil || len(st.Blogs) != 2 {
			return false
		}
		for _, bl := range st.Blogs {
			if bl["last_run"] == nil {
				return false
			}
		}
		return true
	})

	var rows []map[string]string
	b.Run(t, chromedp.Navigate(prefix), chromedp.WaitVisible("#blogs", chromedp.ByQuery),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#blogs tbody tr')).map(tr => {
			const o = {id: tr.dataset.blog};
			tr.querySelectorAll('[data-field]').forEach(td => o[td.dataset.field] = td.textContent.trim());
			return o;
		})`, &rows))
	b.Screenshot(t, "index")
	if len(rows) != 2 {
		t.Fatalf("%d blogs listed, want 2: %v", len(rows), rows)
	}
	for i, want := range st.Blogs {
		got, run := rows[i], want["last_run"].(map[string]any)
		if got["id"] != want["id"] {
			t.Errorf("row %d is %q, /status has %q", i, got["id"], want["id"])
		}
		for field, v := range map[string]any{"consecutive_failures": want["consecutive_failures"], "entries_archived": want["entries_archived"],
			"runs": want["runs"], "entries_written": run["entries_written"], "unchanged": run["unchanged"], "comments": run["comments"],
			"requests": run["requests"], "warnings": run["warnings"], "outcome": want["outcome"], "duration": run["duration"]} {
			if got[field] != fmt.Sprint(v) {
				t.Errorf("%s: %s shows %q, /status has %v", got["id"], field, got[field], v)
			}
		}
	}
	gotGone, gotSample := rows[0], rows[1]
	if gotGone["outcome"] != "failed" || gotGone["consecutive_failures"] == "0" || // 1, or 2 when a transient failure's early retry came first on a loaded machine
		!strings.Contains(gotGone["last_error"], "unreachable (connection refused)") ||
		strings.Contains(gotGone["last_error"], "disallowed") ||
		strings.Contains(gotGone["last_error"], e.Dir) {
		t.Errorf("the unreachable blog: %v", gotGone)
	}
	if n, _ := strconv.Atoi(gotSample["entries_written"]); n == 0 || gotSample["outcome"] != "ok" {
		t.Errorf("the harvested blog: %v", gotSample)
	}

	var path string
	var runs, methods int
	var aips []string
	b.Run(t, chromedp.Click(`a[href="blog/sample"]`, chromedp.ByQuery), chromedp.WaitVisible("#runs", chromedp.ByQuery),
		chromedp.Evaluate(`location.pathname`, &path),
		chromedp.Evaluate(`document.querySelectorAll('#runs tbody tr').length`, &runs),
		chromedp.Evaluate(`document.querySelectorAll('#methods tbody tr').length`, &methods),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('ul.aips code')).map(c => c.textContent)`, &aips))
	b.Screenshot(t, "blog")
	if path != "/archive/status/blog/sample" || runs != 1 || methods == 0 || len(aips) == 0 {
		t.Errorf("blog page at %s: %d runs, %d method rows, AIPs %v", path, runs, methods, aips)
	}
	for _, a := range aips {
		if !strings.HasPrefix(a, "sample/") || strings.Contains(a, e.Dir) {
			t.Errorf("AIP path %q is not relative to the archive", a)
		}
		if fi, err := os.Stat(e.Archive + "/" + a); err != nil || !fi.IsDir() {
			t.Errorf("AIP %q: %v", a, err)
		}
	}
	var back string
	b.Run(t, chromedp.Click(`a[href="../"]`, chromedp.ByQuery), chromedp.WaitVisible("#blogs", chromedp.ByQuery),
		chromedp.Evaluate(`location.pathname`, &back))
	if back != "/archive/status/" {
		t.Errorf("the link back leads to %s", back)
	}
	if page := daemontest.HTTPGet(t, prefix+"?refresh=0"); strings.Contains(page, `http-equiv="refresh"`) || !strings.Contains(daemontest.HTTPGet(t, prefix), `http-equiv="refresh"`) {
		t.Error("?refresh=0 does not turn the page's reloading off, or it is off by default")
	}
	b.CheckConsole(t)
	if code := d.Stop(t, syscall.SIGTERM, 2*time.Minute); code != 0 {
		t.Errorf("exit code = %d", code)
	}
}

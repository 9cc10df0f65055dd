package replay_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// replayWebPageDir finds webrecorder's ReplayWeb.page (npm replaywebpage,
// its prebuilt ui.js and sw.js), as .ci/run unpacks it: the folder
// $BLOGHARVEST_REPLAYWEBPAGE, else <cache>/blogharvest-replaywebpage/package.
func replayWebPageDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("BLOGHARVEST_REPLAYWEBPAGE")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Skip("ReplayWeb.page: no cache folder: " + err.Error())
		}
		dir = filepath.Join(cache, "blogharvest-replaywebpage", "package")
	}
	for _, f := range []string{"ui.js", "sw.js"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Skipf("ReplayWeb.page not installed (%v): .ci/run unpacks npm replaywebpage@2.5.3 there; npm was unreachable", err)
		}
	}
	return dir
}

// TestReplayWebPage replays the WACZ export of two harvested blogs in
// ReplayWeb.page (its ui.js and sw.js served on 127.0.0.1, the WACZ
// through range requests) in Chromium: the demo blog's entries as the Go
// client captured them, and a post of the JavaScript-comments fixture
// rendered in Chromium with its comments (fetched by the page's script
// from a JSON endpoint, which only the browser's recorded responses
// hold). For each, the replayed page's screenshot must match the live one
// (pixel match: the share of pixels whose channels all differ by at most
// 8 of 255, ≥ 0.98), and no request the live page made may fail in the
// replay. Screenshots go to $BLOGHARVEST_ARTIFACTS when it is set.
func TestReplayWebPage(t *testing.T) {
	rwp := replayWebPageDir(t)
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("no chromium")
	}
	// The rendered crawl stops after 8 pages: each page costs Chromium
	// seconds on a loaded machine (the whole fixture took 95 s at load 20),
	// and three posts are compared.
	for _, c := range []struct{ blog, render, must, maxPages string }{
		{"wordpress", "never", ".entry-title", "5000"},
		{"jscomments", "always", ".comment", "8"},
	} {
		t.Run(c.blog, func(t *testing.T) {
			site, err := fixture.New(c.blog)
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(site.Handler())
			defer srv.Close()
			out := t.TempDir()
			if code, so, se := daemontest.Run(t, "crawl", "-url", srv.URL+"/", "-out", out, "-delay", "0", "-render", c.render, "-max-pages", c.maxPages); code != 0 {
				t.Fatalf("crawl: exit %d\n%s\n%s", code, so, se)
			}
			wacz := filepath.Join(t.TempDir(), "blog.wacz")
			blogDirs, _ := filepath.Glob(filepath.Join(out, "*", "blog"))
			if code, so, se := daemontest.Run(t, "export", filepath.Dir(blogDirs[0]), "-format", "wacz", "-out", wacz); code != 0 {
				t.Fatalf("export: exit %d\n%s\n%s", code, so, se)
			}
			// Three posts whose comments the page itself draws (the
			// element must waits for them): enough to see a theme on a
			// loaded machine. A post without comments would never show
			// must, so the choice follows the fixture, not folder order.
			drawn := map[string]bool{}
			for _, p := range site.Posts() {
				if len(p.Comments) > 0 && !p.IframeThread && !p.IframeApp {
					drawn[srv.URL+p.Path] = true
				}
			}
			var pages []string
			for _, page := range daemontest.EntryPages(t, out) {
				if drawn[page] && len(pages) < 3 {
					pages = append(pages, page)
				}
			}
			if len(pages) == 0 {
				t.Fatalf("no archived entry of %s is a post with comments drawn on its page", c.blog)
			}
			replay := serveReplay(t, rwp, wacz)
			browser := newBrowser(t)
			for i, page := range pages {
				compareReplay(t, browser, replay, page, c.must, fmt.Sprintf("%s-%d", c.blog, i))
			}
		})
	}
}

// serveReplay serves ReplayWeb.page and the WACZ on 127.0.0.1 (range
// requests answered by http.ServeContent) and returns its URL.
func serveReplay(t *testing.T, rwp, wacz string) string {
	t.Helper()
	mux := http.NewServeMux()
	for _, f := range []string{"ui.js", "sw.js"} {
		path := filepath.Join(rwp, f)
		mux.HandleFunc("/replay/"+f, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/javascript")
			http.ServeFile(w, r, path)
		})
	}
	// What the service worker answers once it controls /replay/: a frame
	// that reaches the server instead came before it took control (a race
	// on a loaded machine) and tries again.
	mux.HandleFunc("/replay/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><script>setTimeout(() => location.reload(), 500)</script>`)
	})
	mux.HandleFunc("/blog.wacz", func(w http.ResponseWriter, r *http.Request) {
		f, err := os.Open(wacz)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		defer f.Close()
		w.Header().Set("Content-Type", "application/wacz+zip")
		http.ServeContent(w, r, "blog.wacz", time.Time{}, f)
	})
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><meta charset="utf-8"><script src="/replay/ui.js"></script>
<style>html,body{margin:0;height:100%%;overflow:hidden}replay-web-page{display:block;width:100vw;height:100vh}</style></head>
<body><replay-web-page source="/blog.wacz" url="%s" embed="replayonly"></replay-web-page></body></html>`, r.URL.Query().Get("url"))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &http.Server{Handler: mux}
	go s.Serve(ln)
	t.Cleanup(func() { s.Close() })
	return "http://" + ln.Addr().String() + "/"
}

// replayFrameEl is the start of a script run in ReplayWeb.page's page: it
// finds the replay iframe through the shadow roots and frames of the
// ReplayWeb.page elements and sets el to the element the selector (%q)
// names in its loaded document, or a false value.
const replayFrameEl = `
  const find = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.tagName === 'IFRAME' && el.contentDocument) {
        if (el.src.includes('mp_/')) return el;
        const f = find(el.contentDocument); if (f) return f;
      }
      if (el.shadowRoot) { const f = find(el.shadowRoot); if (f) return f; }
    }
    return null;
  };
  const f = find(document);
  const el = f && f.contentDocument.readyState === 'complete' && f.contentDocument.querySelector(%q);`

// replayFrameJS says whether the replay iframe's document holds the
// element the selector names, scrolled into view.
const replayFrameJS = `(() => {` + replayFrameEl + `
  if (el) el.scrollIntoView();
  return !!el;
})()`

// newBrowser starts one headless Chromium (1280×900) for a blog's shots,
// closed when the test ends: each shot opens a tab of its own, so a
// loaded machine pays one browser start per blog, not one per screenshot.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.NoSandbox, chromedp.WSURLReadTimeout(2*time.Minute), chromedp.WindowSize(1280, 900))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithBrowserOption(chromedp.WithDialTimeout(2*time.Minute))) // chromedp dials for 10 s by default: too short at load 30 on two cores
	t.Cleanup(func() { cancel(); cancelA() })
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// compareReplay screenshots page live and replayed, compares them and
// checks the replay's failed requests against the live page's.
func compareReplay(t *testing.T, browser context.Context, replay, page, must, name string) {
	t.Helper()
	// Both show the element must at the top (the comments, below the fold).
	live, liveURLs, _ := shoot(t, browser, page, func(ctx context.Context) error {
		return chromedp.Run(ctx, chromedp.WaitVisible(must, chromedp.ByQuery),
			chromedp.Evaluate(fmt.Sprintf("document.querySelector(%q).scrollIntoView()", must), nil))
	})
	rep, _, failed := shoot(t, browser, replay+"?url="+page, func(ctx context.Context) error {
		return chromedp.Run(ctx, chromedp.Poll(fmt.Sprintf(replayFrameJS, must), nil, chromedp.WithPollingTimeout(90*time.Second)))
	})
	saveArtifact(t, name+"-live.png", live)
	saveArtifact(t, name+"-replay.png", rep)
	sim, err := pixelMatch(live, rep)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: pixel match %.4f, %d live requests, replay failures %v", page, sim, len(liveURLs), failed)
	if sim < 0.98 {
		t.Errorf("%s: replay matches the live page on %.4f of pixels, want ≥ 0.98 (screenshots %s-*.png)", page, sim, name)
	}
	for _, u := range failed {
		if liveURLs[u] {
			t.Errorf("%s: the replay failed to load %s, which the live page loaded", page, u)
		}
	}
}

// shoot opens url in a new tab of browser (cache off), waits with ready
// and a pause for late drawing, and returns a viewport screenshot, the
// URLs loaded (answered below 400), and the original URLs of replayed
// requests that failed (status ≥ 400 or a network error).
func shoot(t *testing.T, browser context.Context, url string, ready func(context.Context) error) ([]byte, map[string]bool, []string) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	defer cancelT()
	var mu sync.Mutex
	urls := map[string]bool{}
	var failed, console []string
	ids := map[network.RequestID]string{}
	chromedp.ListenTarget(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			ids[ev.RequestID] = replayedURL(ev.Request.URL)
		case *network.EventResponseReceived:
			u := replayedURL(ev.Response.URL)
			if ev.Response.Status >= 400 {
				failed = append(failed, u)
			} else {
				urls[u] = true
			}
		case *network.EventLoadingFailed:
			if !ev.Canceled {
				failed = append(failed, ids[ev.RequestID])
			}
		case *runtime.EventExceptionThrown:
			console = append(console, "exception: "+ev.ExceptionDetails.Text)
		case *runtime.EventConsoleAPICalled:
			console = append(console, fmt.Sprintf("console.%s %v", ev.Type, ev.Args))
		}
	})
	var shot []byte
	err := chromedp.Run(ctx, network.Enable(), runtime.Enable(), network.SetCacheDisabled(true), chromedp.Navigate(url),
		chromedp.ActionFunc(ready), chromedp.Sleep(2*time.Second), chromedp.CaptureScreenshot(&shot))
	if err != nil {
		var shot []byte
		shotCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
		_ = chromedp.Run(shotCtx, chromedp.CaptureScreenshot(&shot))
		cancel()
		saveArtifact(t, "failed.png", shot)
		mu.Lock()
		t.Fatalf("%s: %v\nconsole: %v\nfailed: %v", url, err, console, failed)
	}
	mu.Lock()
	defer mu.Unlock()
	return shot, urls, append([]string(nil), failed...)
}

// replayedURL returns the original URL of a replay URL (…/mp_/<url>), or
// the URL itself.
func replayedURL(u string) string {
	if _, after, ok := strings.Cut(u, "mp_/"); ok {
		return daemontest.NoFragment(after)
	}
	return daemontest.NoFragment(u)
}

// pixelMatch returns the share of pixels of two same-size PNGs whose red,
// green and blue values each differ by at most 8 (of 255).
func pixelMatch(a, b []byte) (float64, error) {
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		return 0, err
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	r := ia.Bounds()
	if r != ib.Bounds() {
		return 0, fmt.Errorf("screenshots of %v and %v", r, ib.Bounds())
	}
	same := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if close8(ia, ib, x, y) {
				same++
			}
		}
	}
	return float64(same) / float64(r.Dx()*r.Dy()), nil
}

func close8(a, b image.Image, x, y int) bool {
	r1, g1, b1, _ := a.At(x, y).RGBA()
	r2, g2, b2, _ := b.At(x, y).RGBA()
	d := func(p, q uint32) bool { return max(p, q)-min(p, q) <= 8*257 }
	return d(r1, r2) && d(g1, g2) && d(b1, b2)
}

// saveArtifact writes data to $BLOGHARVEST_ARTIFACTS/name when set.
func saveArtifact(t *testing.T, name string, data []byte) {
	dir := os.Getenv("BLOGHARVEST_ARTIFACTS")
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Log(err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Log(err)
	}
}

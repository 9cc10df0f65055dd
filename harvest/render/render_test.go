package render_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/render"

	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// The tests that render with the shared browser run in parallel (it has two
// tabs); those that kill its processes run first, alone.
var (
	shared    *render.Browser // one browser for the whole suite
	startErr  error           // why the installed browser did not start; nil if it did
	blog      *site           // served as http://blog.test/
	comments  *site           // served as http://comments.test/, another site
	installed bool            // a browser binary is on PATH
)

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	flag.Parse()
	blog, comments = newSite(), newSite()
	defer blog.srv.Close()
	defer comments.srv.Close()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if _, err := exec.LookPath(name); err == nil {
			installed = true
		}
	}
	if installed {
		b, err := render.New(context.Background(), sharedOptions())
		if err != nil {
			startErr = err // every test that needs the browser fails with it
		} else {
			shared = b
			defer b.Close()
		}
	}
	return toolskip.Main(m)
}

// sharedOptions maps blog.test and comments.test to the two test servers, so
// the cross-origin frame is cross-site as a Disqus thread is.
func sharedOptions() render.Options {
	return render.Options{
		Tabs: 2,
		// Generous: a page that settles returns as soon as it is captured,
		// and on a loaded machine a tall page's screenshot or a 40 MiB
		// download takes many seconds.
		Timeout:        2 * time.Minute,
		HostRules:      fmt.Sprintf("MAP blog.test %s, MAP comments.test %s", blog.host(), comments.host()),
		Screenshot:     true,
		ExtraSelectors: []string{".suite"},
		Logger:         quietLogger(),
	}
}

func quietLogger() *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// browser returns the shared browser, skipping the test when no browser is
// installed and failing it, with the reason, when the installed browser
// did not start.
func browser(t testing.TB) *render.Browser {
	t.Helper()
	if startErr != nil {
		t.Fatalf("the browser is installed but did not start: %v", startErr)
	}
	if shared == nil {
		toolskip.Missing(t, "chromium", "no chromium, chromium-browser or google-chrome on PATH")
	}
	return shared
}

// renderOK renders u with the shared browser and fails the test on error.
func renderOK(t *testing.T, ctx context.Context, u string) *render.Result {
	t.Helper()
	res, err := browser(t).Render(ctx, u)
	if err != nil {
		t.Fatalf("Render(%s): %v", u, err)
	}
	return res
}

func TestDelayedComments(t *testing.T) {
	t.Parallel()
	res := renderOK(t, context.Background(), "http://blog.test/delayed.html")
	if n := strings.Count(string(res.HTML), `class="comment"`); n != 3 {
		t.Errorf("rendered DOM has %d comments, want 3; notes %v", n, res.Notes)
	}
	if res.Status != 200 || len(res.Notes) != 0 {
		t.Errorf("status %d, notes %v; want 200 and none", res.Status, res.Notes)
	}
}

func TestLoadMoreClicks(t *testing.T) {
	t.Parallel()
	res := renderOK(t, context.Background(), "http://blog.test/loadmore.html")
	if n := strings.Count(string(res.HTML), `class="comment"`); n != 20 {
		t.Errorf("rendered DOM has %d comments, want all 20 of 4 batches; clicks %d, notes %v", n, res.Clicks, res.Notes)
	}
	if res.Clicks < 3 || res.Clicks > 4 {
		t.Errorf("Clicks = %d, want 3 (one per further batch) or 4", res.Clicks)
	}
	if !strings.Contains(string(res.HTML), "Reader 3-4") {
		t.Error("last comment of the last batch missing")
	}
}

func TestExtraSelectorsAndLabels(t *testing.T) {
	t.Parallel()
	res := renderOK(t, context.Background(), "http://blog.test/custom.html")
	html := string(res.HTML)
	if a, b := strings.Count(html, `<li class="comment">suite</li>`), strings.Count(html, `<li class="comment">plus</li>`); a != 2 || b != 2 {
		t.Errorf("got %d comments by the extra selector and %d by the French label, want 2 and 2", a, b)
	}
	if res.Clicks != 4 {
		t.Errorf("Clicks = %d, want 4", res.Clicks)
	}
}

func TestSameOriginFrameInlined(t *testing.T) {
	t.Parallel()
	res := renderOK(t, context.Background(), "http://blog.test/iframe-same.html")
	html := string(res.HTML)
	if !strings.Contains(html, `<div data-blogharvest-iframe="/thread.html?n=4">`) {
		t.Fatalf("frame not inlined:\n%s", html)
	}
	if n := strings.Count(html, `class="post-message comment"`); n != 4 {
		t.Errorf("inlined frame has %d comments, want 4 (2 loaded + 1 click); clicks %d", n, res.Clicks)
	}
	if len(res.Frames) != 0 {
		t.Errorf("same-origin frame also returned in Frames: %v", res.Frames)
	}
	if res.Clicks < 1 {
		t.Errorf("Clicks = %d, want the frame's load-more clicked", res.Clicks)
	}
}

func TestCrossOriginFrame(t *testing.T) {
	t.Parallel()
	u := "http://blog.test/iframe-cross.html?embed=" + "http://comments.test/thread.html%3Fn%3D6"
	res := renderOK(t, context.Background(), u)
	if len(res.Frames) != 1 {
		t.Fatalf("got %d frames, want the cross-origin thread; notes %v", len(res.Frames), res.Notes)
	}
	f := res.Frames[0]
	if f.URL != "http://comments.test/thread.html?n=6" {
		t.Errorf("frame URL %q", f.URL)
	}
	if n := strings.Count(string(f.HTML), `class="post-message comment"`); n != 6 {
		t.Errorf("frame has %d comments, want all 6 (3 batches); clicks %d, notes %v", n, res.Clicks, res.Notes)
	}
	if strings.Contains(string(res.HTML), "post-message") {
		t.Error("cross-origin thread inlined into the page: it is not readable from the page")
	}
	if comments.hitCount("/api/batch") < 3 {
		t.Errorf("comments.test served %d batches, want 3", comments.hitCount("/api/batch"))
	}
}

func TestScriptBuiltPage(t *testing.T) {
	t.Parallel()
	res := renderOK(t, context.Background(), "http://blog.test/dynamic.html")
	html := string(res.HTML)
	if !strings.Contains(html, `<h1 class="post-title">Built by script</h1>`) || !strings.Contains(html, "<title>Built by script</title>") {
		t.Errorf("article not built:\n%s", html)
	}
	if !contains(res.NetErrors, "404 http://blog.test/missing.png") {
		t.Errorf("NetErrors = %q, want the missing image", res.NetErrors)
	}
	if !contains(res.Console, "widget failed: quota") || !contains(res.Console, "late widget exploded") {
		t.Errorf("Console = %q, want the console error and the uncaught exception", res.Console)
	}
}

// TestNeverSettlingPageTimesOut: a page whose network never goes idle is
// captured within the deadline of Render's context (sooner than
// Options.Timeout): Render returns the partial DOM with a note, not an
// error, and without running into the deadline (the capture had its time).
func TestNeverSettlingPageTimesOut(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan struct{})
	var (
		res *render.Result
		err error
	)
	go func() {
		defer close(done)
		res, err = browser(t).Render(ctx, "http://blog.test/never.html")
	}()
	select {
	case <-done:
	case <-time.After(20*time.Second + 90*time.Second):
		// Generous for a loaded machine, yet short of the shared
		// Options.Timeout (2 minutes): a Render that ignored its
		// context's deadline runs into it.
		t.Fatal("Render of a page that never settles did not return within 90s of its context's deadline")
	}
	if err != nil {
		t.Fatalf("Render of a page that never settles: %v, want the page captured before the deadline", err)
	}
	if len(res.Notes) == 0 || !strings.Contains(res.Notes[0], "network not idle") {
		t.Errorf("Notes = %q, want a note that the network never went idle", res.Notes)
	}
	if !strings.Contains(string(res.HTML), "A page that polls forever") {
		t.Error("partial DOM not returned")
	}
	if len(res.Screenshot) < 8 || string(res.Screenshot[1:4]) != "PNG" {
		t.Errorf("no PNG screenshot of the page that never settled (notes %q)", res.Notes)
	}
}

func TestLazyImagesLoadOnScroll(t *testing.T) {
	t.Parallel()
	res := renderOK(t, context.Background(), "http://blog.test/lazy.html")
	for _, p := range []string{"/img/native.png", "/img/observed.png"} {
		if blog.hitCount(p) == 0 {
			t.Errorf("%s never requested: autoscroll did not reach it", p)
		}
	}
	// With a space before it: data-src="/img/observed.png", in the page
	// as served, holds src="/img/observed.png" too.
	if !strings.Contains(string(res.HTML), ` src="/img/observed.png"`) {
		t.Error("lazy script's src swap not in the rendered DOM")
	}
	if len(res.Screenshot) < 8 || string(res.Screenshot[1:4]) != "PNG" {
		t.Error("no PNG screenshot")
	}
}

func TestScreenshotHeightCapped(t *testing.T) {
	t.Parallel()
	res := renderOK(t, context.Background(), "http://blog.test/endless.html")
	cfg, err := png.DecodeConfig(bytes.NewReader(res.Screenshot))
	if err != nil {
		t.Fatalf("screenshot: %v (notes %q)", err, res.Notes)
	}
	if cfg.Height != 16384 || cfg.Width < 800 {
		t.Errorf("screenshot %dx%d, want the width of the window and 16384 high", cfg.Width, cfg.Height)
	}
	if !contains(res.Notes, "screenshot cut at 16384 of 20") {
		t.Errorf("Notes = %q, want the cut noted", res.Notes)
	}
	if contains(res.Notes, "scrolling stopped") {
		t.Errorf("Notes = %q: autoscroll reached the bottom of a page of about 22 screens, want no scroll note", res.Notes)
	}
}

// TestScrollLimitNoted: a page taller than the screens autoscroll goes
// through (60 screens) is captured all the same, with a note that scrolling
// stopped before its bottom; a long page whose bottom it reaches (endless.html,
// about 22 screens, in TestScreenshotHeightCapped) has no such note.
func TestScrollLimitNoted(t *testing.T) {
	t.Parallel()
	res := renderOK(t, context.Background(), "http://blog.test/tall.html")
	if res.Status != 200 || !strings.Contains(string(res.HTML), `<p id="end">`) {
		t.Errorf("status %d, end of the page captured %v; want 200 and the whole DOM (notes %q)",
			res.Status, strings.Contains(string(res.HTML), `<p id="end">`), res.Notes)
	}
	if !contains(res.Notes, "scrolling stopped at the limit of 40 screens, before the page's bottom: lazy images and comments further down may be missing") {
		t.Errorf("Notes = %q, want the scroll limit noted", res.Notes)
	}
	if contains(res.Notes, "timeout") {
		t.Errorf("Notes = %q: the page settled, want no timeout", res.Notes)
	}
}

func contains(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func TestNoBrowser(t *testing.T) {
	_, err := render.New(context.Background(), render.Options{ExecPath: "/nonexistent/chromium"})
	if !errors.Is(err, render.ErrNoBrowser) {
		t.Errorf("New with a missing binary: %v, want ErrNoBrowser", err)
	}
	t.Setenv("PATH", t.TempDir())
	_, err = render.New(context.Background(), render.Options{})
	if !errors.Is(err, render.ErrNoBrowser) || !strings.Contains(err.Error(), "chromium") {
		t.Errorf("New with an empty PATH: %v, want ErrNoBrowser naming chromium", err)
	}
}

// TestShadowRootsAndSrcdocInlined: comments a widget draws inside open
// shadow roots (nested ones too) and inside a srcdoc frame are in the
// serialised DOM.
func TestShadowRootsAndSrcdocInlined(t *testing.T) {
	t.Parallel()
	res := renderOK(t, context.Background(), "http://blog.test/shadow.html")
	html := string(res.HTML)
	for _, want := range []string{"A comment inside the shadow root.", "A reply inside a nested shadow root.", "A comment inside the srcdoc frame.",
		`<div data-blogharvest-shadow="">`, `<div data-blogharvest-iframe="about:srcdoc">`} {
		if !strings.Contains(html, want) {
			t.Errorf("rendered DOM lacks %q:\n%s", want, html)
		}
	}
}

// TestAPIResponsesRecorded: the JSON a page's script fetched is in
// Result.API with its URL, status and body.
func TestAPIResponsesRecorded(t *testing.T) {
	t.Parallel()
	res := renderOK(t, context.Background(), "http://blog.test/delayed.html")
	for _, a := range res.API {
		if strings.Contains(a.URL, "/api/comments?n=3") {
			if a.Status != 200 || !strings.Contains(string(a.Body), `"author":"Reader 3"`) {
				t.Errorf("API response %s: status %d, body %s", a.URL, a.Status, a.Body)
			}
			return
		}
	}
	t.Errorf("the fetched /api/comments is not in Result.API (%d responses)", len(res.API))
}

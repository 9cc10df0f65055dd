package daemontest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// Browser is a headless Chromium tab for tests, with the console errors
// and uncaught exceptions of the pages it shows.
type Browser struct {
	Ctx    context.Context // the tab's, for chromedp calls
	mu     sync.Mutex
	errors []string
}

// NewBrowser starts headless Chromium for the test, or skips the test when
// there is none.
func NewBrowser(t testing.TB) *Browser {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		toolskip.Missing(t, "chromium", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.WSURLReadTimeout(2*time.Minute),
		chromedp.WindowSize(1280, 900)) // chromedp makes and removes its own profile folder
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithBrowserOption(chromedp.WithDialTimeout(2*time.Minute))) // chromedp dials for 10 s by default: too short at load 30 on two cores
	ctx, cancelT := context.WithTimeout(ctx, 5*time.Minute)
	t.Cleanup(func() { cancelT(); cancel(); cancelA() })
	b := &Browser{Ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeWarning {
				b.errors = append(b.errors, fmt.Sprintf("console.%s %v", ev.Type, ev.Args))
			}
		case *runtime.EventExceptionThrown:
			b.errors = append(b.errors, "exception: "+ev.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.LevelError || ev.Entry.Level == log.LevelWarning {
				b.errors = append(b.errors, fmt.Sprintf("%s %s: %s (%s)", ev.Entry.Level, ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
			}
		}
	})
	if err := chromedp.Run(ctx, log.Enable(), runtime.Enable()); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	return b
}

// Run runs chromedp actions in the tab.
func (b *Browser) Run(t testing.TB, actions ...chromedp.Action) {
	t.Helper()
	if err := chromedp.Run(b.Ctx, actions...); err != nil {
		t.Fatalf("chromium: %v", err)
	}
}

// CheckConsole fails the test on any console error, warning or exception
// seen so far.
func (b *Browser) CheckConsole(t testing.TB) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.errors {
		t.Errorf("browser console: %s", e)
	}
}

// Screenshot writes a full-page screenshot to the artifact folder
// ($BLOGHARVEST_ARTIFACTS, else the test's temporary folder) and returns
// its path.
func (b *Browser) Screenshot(t testing.TB, name string) string {
	t.Helper()
	dir := os.Getenv("BLOGHARVEST_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	var png []byte
	b.Run(t, chromedp.FullScreenshot(&png, 100))
	path := filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+"-"+name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", path, len(png))
	return path
}

package render

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// startTimeout bounds the start of one browser process, reading its
// DevTools address and dialling it included (chromedp's own bounds for
// those, 20 s and 10 s, are set to this too: on a loaded machine a start
// takes longer; a test's browser at load 30 on two cores missed the 10 s
// dial).
const startTimeout = 120 * time.Second

// Browser is one headless Chromium process shared by the whole harvest, with
// a bounded pool of reused tabs. It restarts the process when it crashes or
// hangs. Its methods are safe for concurrent use.
type Browser struct {
	o    Options
	path string
	spki string // --ignore-certificate-errors-spki-list, from Options.TrustedCAs
	log  *slog.Logger
	base context.Context // parent of every browser process; values only
	tabs chan *tab       // the pool: Tabs slots, nil until a tab is made
	cost captureCost     // how long captures take now, learnt from the pages

	mu     sync.Mutex
	inst   *instance // the running process; nil after Close
	stale  []string  // user data dirs of killed processes, swept on Close
	closed bool
}

// instance is one running browser process.
type instance struct {
	gen         int
	ctx         context.Context // chromedp browser context
	cancel      context.CancelFunc
	allocCancel context.CancelFunc
	dir         string // the fresh --user-data-dir
}

// New starts a headless browser for rendering. ctx bounds only the start; the
// browser runs until Close. It returns an error wrapping ErrNoBrowser when
// no browser binary is installed, and one wrapping ErrBrowserStart, with
// the reason, when the binary is there but its process did not start.
func New(ctx context.Context, o Options) (*Browser, error) {
	o = o.withDefaults()
	path, err := findBrowser(o.ExecPath)
	if err != nil {
		return nil, err
	}
	spki, err := spkiList(o.TrustedCAs)
	if err != nil {
		return nil, err
	}
	pins, err := pinHosts(ctx, o)
	if err != nil {
		return nil, err
	}
	if spki != "" {
		pins = append(pins, spki)
	}
	spki = strings.Join(pins, ",")
	b := &Browser{o: o, path: path, spki: spki, log: o.Logger, base: context.WithoutCancel(ctx)}
	b.tabs = make(chan *tab, o.Tabs)
	for range o.Tabs {
		b.tabs <- nil
	}
	inst, err := b.start(ctx, 1)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w: %w", path, ErrBrowserStart, err)
	}
	b.inst = inst
	return b, nil
}

// allocatorOptions are the command-line flags of every browser process.
func (b *Browser) allocatorOptions(dir string) []chromedp.ExecAllocatorOption {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(b.path),
		chromedp.UserDataDir(dir),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.WindowSize(1280, 1024),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("mute-audio", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.ModifyCmdFunc(childCmd), // an environment with no credentials
	}
	features := quietFeatures
	if !siteIsolation {
		// Cross-site iframes (Disqus) stay in the page's process, so
		// their documents are reachable from the page's session.
		opts = append(opts, chromedp.Flag("disable-site-isolation-trials", true))
		features = "site-per-process,IsolateOrigins," + features
	}
	opts = append(opts, chromedp.Flag("disable-features", features))
	opts = append(opts, quietFlags()...)
	if b.spki != "" {
		opts = append(opts, chromedp.Flag("ignore-certificate-errors-spki-list", b.spki))
	}
	return append(opts, b.proxyFlags()...)
}

// proxyFlags are the flags that route the browser's requests: through
// ProxyServer (only through it with ProxyOnly), and HostRules. The names
// the quiet switches use (*.invalid) bypass the proxy and resolve to
// nothing, so the browser's own services fail before any request leaves it.
func (b *Browser) proxyFlags() []chromedp.ExecAllocatorOption {
	var opts []chromedp.ExecAllocatorOption
	switch {
	case b.o.ProxyServer != "" && b.o.ProxyOnly:
		// Chromium bypasses proxies for loopback unless told not to, and
		// would resolve names for preconnects and WebRTC itself.
		opts = append(opts, chromedp.ProxyServer(b.o.ProxyServer),
			chromedp.Flag("proxy-bypass-list", "<-loopback>;"+invalidHosts),
			chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE "+proxyHost(b.o.ProxyServer)))
		return opts
	case b.o.ProxyServer != "":
		opts = append(opts, chromedp.ProxyServer(b.o.ProxyServer))
		bypass := invalidHosts
		if more := proxyBypass(b.o.NoProxy); more != "" {
			bypass += ";" + more
		}
		opts = append(opts, chromedp.Flag("proxy-bypass-list", bypass))
	}
	rules := "MAP " + invalidHosts + " ~NOTFOUND"
	if b.o.HostRules != "" {
		rules += ", " + b.o.HostRules
	}
	return append(opts, chromedp.Flag("host-resolver-rules", rules))
}

// start runs a fresh browser process of generation gen.
func (b *Browser) start(ctx context.Context, gen int) (*instance, error) {
	dir, err := os.MkdirTemp("", "blogharvest-chromium-")
	if err != nil {
		return nil, fmt.Errorf("user data dir: %w", err)
	}
	opts := append(b.allocatorOptions(dir), chromedp.WSURLReadTimeout(startTimeout))
	actx, acancel := chromedp.NewExecAllocator(b.base, opts...)
	bctx, bcancel := chromedp.NewContext(actx, chromedp.WithErrorf(b.cdpError),
		chromedp.WithBrowserOption(chromedp.WithDialTimeout(startTimeout)))
	inst := &instance{gen: gen, ctx: bctx, cancel: bcancel, allocCancel: acancel, dir: dir}
	done := make(chan error, 1)
	go func() { done <- chromedp.Run(bctx) }()
	timer := time.NewTimer(startTimeout)
	defer timer.Stop()
	select {
	case err = <-done:
	case <-ctx.Done():
		err = ctx.Err()
	case <-timer.C:
		err = errors.New("browser did not start in time")
	}
	if err != nil {
		inst.stop()
		return nil, err
	}
	return inst, nil
}

// cdpError logs protocol errors chromedp reports outside any call.
func (b *Browser) cdpError(format string, args ...any) {
	b.log.Debug("chromedp: " + fmt.Sprintf(format, args...))
}

// stop kills the process, waits for it and removes its user data dir.
func (in *instance) stop() {
	in.cancel()
	in.allocCancel()
	os.RemoveAll(in.dir)
}

// close asks the browser to quit, kills it after a grace period and removes
// its user data dir.
func (in *instance) close() error {
	ctx, cancel := context.WithTimeout(in.ctx, 5*time.Second)
	defer cancel()
	err := chromedp.Cancel(ctx)
	in.allocCancel()
	if rerr := os.RemoveAll(in.dir); err == nil {
		err = rerr
	}
	return err
}

// current returns the running instance, or an error after Close.
func (b *Browser) current() (*instance, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, errClosed
	}
	return b.inst, nil
}

// errClosed is returned by Render after Close.
var errClosed = blogharvest.Permanent(errors.New("browser closed"))

// restart replaces instance old with a fresh process, unless another caller
// already did. It does not depend on any one caller's context.
func (b *Browser) restart(old *instance) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return errClosed
	}
	if b.inst != old {
		return nil
	}
	begin := time.Now()
	old.stop()
	// Orphaned helper processes of a killed browser may still write a
	// file or two into its user data dir: sweep again later.
	b.stale = append(b.stale, old.dir)
	time.AfterFunc(2*time.Second, func() { os.RemoveAll(old.dir) })
	stopped := time.Since(begin)
	inst, err := b.start(b.base, old.gen+1)
	if err != nil {
		return fmt.Errorf("restart browser: %w", err)
	}
	b.inst = inst
	b.log.Warn("browser restarted", "generation", inst.gen, "stop", stopped, "took", time.Since(begin))
	return nil
}

// alive reports whether the browser process answers within a few seconds.
func (in *instance) alive() bool {
	if in.ctx.Err() != nil {
		return false
	}
	c := chromedp.FromContext(in.ctx)
	if c == nil || c.Browser == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(in.ctx, 3*time.Second)
	defer cancel()
	_, _, _, _, _, err := browser.GetVersion().Do(cdp.WithExecutor(ctx, c.Browser))
	return err == nil
}

// PID returns the process id of the running browser, for monitoring (memory
// use of the process tree), or 0 when none runs.
func (b *Browser) PID() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.inst == nil {
		return 0
	}
	c := chromedp.FromContext(b.inst.ctx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		return 0
	}
	return c.Browser.Process().Pid
}

// Close closes every tab, stops the browser and removes its user data dir.
// Render calls after Close fail.
func (b *Browser) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	inst, stale := b.inst, b.stale
	b.inst = nil
	b.mu.Unlock()
	b.drainTabs()
	err := inst.close()
	for _, dir := range stale {
		err = errors.Join(err, os.RemoveAll(dir))
	}
	if err != nil {
		return fmt.Errorf("close browser: %w", err)
	}
	return nil
}

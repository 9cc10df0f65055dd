package render

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// browserError marks a failure of the browser, not of the page: a crashed
// or hung process or renderer. Render restarts what failed and retries once.
type browserError struct{ err error }

func (e *browserError) Error() string { return e.err.Error() }
func (e *browserError) Unwrap() error { return e.err }

// errBrowser wraps err as a browser failure; nil stays nil.
func errBrowser(err error) error {
	if err == nil {
		return nil
	}
	return &browserError{err}
}

// errCrashed reports that the tab's renderer process crashed.
var errCrashed = errors.New("renderer crashed")

// Render loads url in a tab, waits for the network to go idle, scrolls
// through the page, clicks "load more" controls until nothing new appears and
// captures the DOM (with iframes), the frames' documents and, if asked, a
// screenshot. A page that never settles is captured when Options.Timeout
// (or ctx's deadline, if sooner) is nearly spent, with a note in
// Result.Notes: settling stops when only the time the capture needs is
// left, a quarter of the time (1s to 5s) or twice what the Browser's last
// captures say a page of this height takes now, if more, but at most half
// the time. A page that settles earlier has the rest of its time for the
// capture. If the browser crashes or hangs, it is restarted and the page
// tried once more. Errors are marked transient, except after Close.
func (b *Browser) Render(ctx context.Context, url string) (*Result, error) {
	res, err := b.try(ctx, url)
	var be *browserError
	if err == nil || !errors.As(err, &be) || ctx.Err() != nil {
		return res, wrapRenderErr(url, err)
	}
	b.log.Warn("render failed, retrying once", "url", url, "err", err)
	res, err2 := b.try(ctx, url)
	if err2 != nil {
		return nil, wrapRenderErr(url, fmt.Errorf("%w (first attempt: %v)", err2, err))
	}
	res.Notes = append(res.Notes, "retried after browser failure: "+err.Error())
	return res, nil
}

// wrapRenderErr adds the operation and marks err transient: a render that
// failed may work later, and a closed browser is permanent.
func wrapRenderErr(url string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errClosed):
		return fmt.Errorf("render %s: %w", url, err)
	}
	return blogharvest.Transient(fmt.Errorf("render %s: %w", url, err))
}

// try renders url once in a pooled tab, restarting the browser when it is
// found dead or hung.
func (b *Browser) try(ctx context.Context, url string) (*Result, error) {
	t, err := b.acquire(ctx)
	if err != nil {
		if inst, cerr := b.current(); cerr == nil && ctx.Err() == nil && !inst.alive() {
			err = errors.Join(err, b.restart(inst))
		}
		return nil, err
	}
	p := &pageRun{o: b.o, url: url, t: t, worlds: newWorlds(), cost: &b.cost}
	res, err := b.renderIn(ctx, p)
	var be *browserError
	healthy := !errors.As(err, &be)
	if healthy {
		healthy = resetTab(t)
	}
	p.closeSessions()
	b.release(t, healthy)
	switch {
	case healthy || err == nil:
	case !t.inst.alive():
		err = errors.Join(err, b.restart(t.inst))
	case errors.Is(err, errCrashed):
		// The idle tabs may have shared the renderer that died (one
		// process serves a site's tabs; an OOM killer takes several):
		// a retry in one of them would crash at once. New tabs are cheap.
		b.drainTabs()
	}
	return res, err
}

// resetTab freezes the page just rendered and loads a blank page into t,
// so that the page stops running (timers, polling) while the tab waits in
// the pool. It reports whether the tab is still usable. The old document
// outlives the navigation for a moment in its renderer, detached from the
// tab's DevTools session: neither the block the capture put on the tab's
// requests nor the recorder reaches it then, and a timer of it once sent a
// request that reached the server unseen (TestNoRequestAfterCaptureUnseen).
// Frozen, it runs nothing more. The next page's load makes the tab active
// again and lifts the block.
func resetTab(t *tab) bool {
	ctx, cancel := context.WithTimeout(t.ctx, 3*time.Second)
	defer cancel()
	t.frozen = true
	return chromedp.Run(ctx, page.SetWebLifecycleState(page.SetWebLifecycleStateStateFrozen), chromedp.Navigate("about:blank")) == nil
}

// renderIn renders p, classifying failures of the tab or the browser as
// browser errors.
func (b *Browser) renderIn(ctx context.Context, p *pageRun) (*Result, error) {
	t := p.t
	res, err := p.run(ctx)
	switch {
	case err == nil || ctx.Err() != nil:
	case t.inst.ctx.Err() != nil:
		err = errBrowser(fmt.Errorf("browser process lost: %w", err))
	case t.ctx.Err() != nil || errors.Is(err, errCrashed):
		err = errBrowser(err)
	}
	return res, err
}

// pageRun is the state of rendering one page in one tab.
type pageRun struct {
	o      Options
	url    string
	t      *tab
	w      *watcher
	net    *netRecorder // nil unless Options.Record
	worlds *worlds
	notes  []string
	clicks int
	budget time.Duration      // the time allowed for the page
	start  time.Time          // when the page's time began
	cost   *captureCost       // the Browser's, shared by its tabs
	height float64            // the page's height in CSS px, last measured
	cut    *time.Timer        // ends settling when the capture's time is reached
	sess   []*session         // the tab's session, then out-of-process iframes'
	seen   map[target.ID]bool // iframe targets attached or tried
}

// run loads, settles, exercises and captures the page.
func (p *pageRun) run(ctx context.Context) (*Result, error) {
	start := time.Now()
	p.start = start
	p.budget = p.o.Timeout
	if d, ok := ctx.Deadline(); ok {
		p.budget = min(p.budget, time.Until(d))
	}
	pctx, cancel := context.WithTimeout(p.t.ctx, p.budget)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	// Settling ends when only the time the capture needs is left (keep);
	// the capture then has the rest of the page's time, however early the
	// page settled.
	sctx, scancel := context.WithCancel(pctx)
	defer scancel()
	p.cut = time.AfterFunc(p.budget-p.keep(), scancel)
	defer p.cut.Stop()
	p.w = newWatcher(p.mainFrame())
	chromedp.ListenTarget(pctx, p.w.onEvent)
	if p.o.Record {
		p.net = newNetRecorder(string(p.mainFrame()))
		chromedp.ListenTarget(pctx, p.net.onEvent)
	}
	go p.dismissDialogs(pctx)
	go func() {
		select {
		case <-p.w.crashed:
			cancel()
		case <-pctx.Done():
		}
	}()
	if err := p.load(sctx); err != nil {
		return nil, err
	}
	loaded := time.Since(start)
	p.measure(sctx)
	p.settle(sctx)
	settled := time.Since(start)
	res, err := p.capture(pctx)
	p.cost.observe(time.Since(start)-settled, p.shotHeight())
	if err != nil {
		return nil, p.captureErr(ctx, pctx, err)
	}
	res.Elapsed = time.Since(start)
	p.o.Logger.Debug("rendered", "url", p.url, "loaded", loaded, "settled", settled, "captured", res.Elapsed, "clicks", res.Clicks)
	return res, nil
}

// shotHeight is the height of the page's screenshot, as last measured; 0
// without screenshots.
func (p *pageRun) shotHeight() float64 {
	if !p.o.Screenshot {
		return 0
	}
	return min(p.height, maxShotHeight)
}

// keep is the time kept for capturing the page: what the Browser's last
// captures say a page of its height takes now (reserve).
func (p *pageRun) keep() time.Duration {
	return reserve(p.budget, p.cost.estimate(p.shotHeight()))
}

// measure updates the page's height (it grows as the page loads, scrolls
// and has comments added) and, with it, when settling ends. A page that
// does not answer keeps the height it had.
func (p *pageRun) measure(ctx context.Context) {
	if !p.o.Screenshot {
		return // without a screenshot the capture hardly depends on it
	}
	err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		_, _, _, _, _, size, err := page.GetLayoutMetrics().Do(ctx)
		if err == nil && size != nil {
			p.height = size.Height
		}
		return err
	}))
	if err == nil {
		p.cut.Reset(time.Until(p.start.Add(p.budget - p.keep())))
	}
}

// settleTime is how long the page settled before settling was cut: the
// time it had, for its notes.
func (p *pageRun) settleTime() time.Duration {
	return time.Since(p.start).Round(10 * time.Millisecond)
}

// mainFrame is the id of the tab's main frame.
func (p *pageRun) mainFrame() cdp.FrameID {
	return cdp.FrameID(chromedp.FromContext(p.t.ctx).Target.TargetID)
}

// load navigates to the page and waits for its load event. Running out of
// time is noted, not fatal: whatever loaded is captured.
func (p *pageRun) load(ctx context.Context) error {
	if p.t.frozen { // by resetTab, its requests blocked since the last page's capture
		if err := chromedp.Run(ctx, thaw(), network.SetBlockedURLs([]string{})); err != nil {
			// never go on to capture the blank page as this one
			return fmt.Errorf("thaw the tab: %w", err)
		}
		p.t.frozen = false
	}
	err := chromedp.Run(ctx, chromedp.Navigate(p.url))
	switch {
	case err == nil:
		return nil
	case p.crashed():
		return errCrashed
	case ctx.Err() != nil && p.t.ctx.Err() == nil:
		p.note("load event not reached within %s (%s of %s kept for the capture)", p.settleTime(), p.keep(), p.budget)
		return nil
	}
	return fmt.Errorf("navigate: %w", err)
}

// settle waits for the network to go idle, scrolls through the page and
// clicks "load more" controls, noting when time runs out.
func (p *pageRun) settle(ctx context.Context) {
	if err := p.waitIdle(ctx); err != nil {
		p.note("%v after %s (%s of %s kept for the capture)", err, p.settleTime(), p.keep(), p.budget)
		return
	}
	p.autoscroll(ctx)
	p.measure(ctx)
	_ = p.waitIdle(ctx)
	if p.o.MaxClicks > 0 {
		p.clicks = p.clickMore(ctx)
	}
	if ctx.Err() != nil {
		p.note("timeout %s reached while scrolling and clicking: captured as it was", p.budget)
	}
}

// waitIdle returns when the network has been quiet for IdleTime, or an error
// naming what is still loading when ctx ends first. Meanwhile it attaches to
// out-of-process iframes as they appear, to follow their requests too.
func (p *pageRun) waitIdle(ctx context.Context) error {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for i := 1; ; i++ {
		if i%20 == 0 {
			p.measure(ctx) // a page that keeps loading may grow
		}
		p.sessions(ctx)
		if ok, _ := p.w.quiet(p.o.IdleTime); ok {
			return nil
		}
		select {
		case <-ctx.Done():
			_, n := p.w.quiet(p.o.IdleTime)
			return fmt.Errorf("network not idle: %d requests in flight %v", n, p.w.pending())
		case <-p.w.crashed:
			return errCrashed
		case <-tick.C:
		}
	}
}

// crashed reports whether the renderer crashed.
func (p *pageRun) crashed() bool {
	select {
	case <-p.w.crashed:
		return true
	default:
		return false
	}
}

// captureErr classifies a failed capture: a renderer that does not answer
// within the time allowed is hung, and its tab must go. ctx is the caller's
// context, pctx the page's.
func (p *pageRun) captureErr(ctx, pctx context.Context, err error) error {
	switch {
	case p.crashed():
		return errCrashed
	case ctx.Err() != nil:
		return fmt.Errorf("capture: %w", ctx.Err())
	case pctx.Err() != nil:
		return errBrowser(fmt.Errorf("capture: page does not answer (hung renderer?): %w", err))
	}
	return fmt.Errorf("capture: %w", err)
}

func (p *pageRun) note(format string, args ...any) {
	p.notes = append(p.notes, fmt.Sprintf(format, args...))
}

// dismissDialogs answers JavaScript dialogs, which would block the page:
// alerts and confirms are dismissed, "leave page?" is accepted.
func (p *pageRun) dismissDialogs(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case typ := <-p.w.dialogs:
			accept := typ == page.DialogTypeBeforeunload
			_ = chromedp.Run(ctx, page.HandleJavaScriptDialog(accept))
		}
	}
}

// thaw makes the tab's page active and visible again after resetTab froze
// it (freezing hides a page, and only showing its window again shows it).
func thaw() chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		c := chromedp.FromContext(ctx)
		if err := page.SetWebLifecycleState(page.SetWebLifecycleStateStateActive).Do(ctx); err != nil {
			return err
		}
		bctx := cdp.WithExecutor(ctx, c.Browser)
		win, _, err := browser.GetWindowForTarget().WithTargetID(c.Target.TargetID).Do(bctx)
		if err != nil {
			return err
		}
		if err := browser.SetWindowBounds(win, &browser.Bounds{WindowState: browser.WindowStateMinimized}).Do(bctx); err != nil {
			return err
		}
		return browser.SetWindowBounds(win, &browser.Bounds{WindowState: browser.WindowStateNormal}).Do(bctx)
	})
}

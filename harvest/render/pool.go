package render

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// tabTimeout bounds opening one tab. A healthy browser opens one in well
// under a second, but on a loaded machine it may take many: at load 30-40
// on two cores 10 s was missed twice in one .ci/run (2026-12-08), and each
// miss lost a post's rendered DOM and its scripted comments (a recorded
// problem, the page kept as fetched). A hung browser is still found: the
// retry after this bound restarts it.
const tabTimeout = 45 * time.Second

// tab is one reusable browser tab of an instance.
type tab struct {
	inst   *instance
	ctx    context.Context // chromedp context of the tab
	cancel context.CancelFunc
	frozen bool // by resetTab: the next page's load thaws it
}

// acquire takes a free slot of the pool and returns a tab of the running
// instance in it, opening one if the slot is empty or holds a tab of a dead
// instance.
func (b *Browser) acquire(ctx context.Context) (*tab, error) {
	var t *tab
	select {
	case t = <-b.tabs:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	inst, err := b.current()
	if err == nil && t != nil && t.inst == inst && t.ctx.Err() == nil {
		return t, nil
	}
	if t != nil {
		t.close()
	}
	if err == nil {
		t, err = openTab(ctx, inst)
	}
	if err != nil {
		b.tabs <- nil
		return nil, err
	}
	return t, nil
}

// release puts t back into the pool, or closes it and frees its slot when it
// is no longer trusted.
func (b *Browser) release(t *tab, healthy bool) {
	if !healthy {
		t.close()
		t = nil
	}
	b.tabs <- t
}

// close closes the tab. Closing waits for the browser to confirm, which a
// dead browser never does, so then the waiting happens in the background.
func (t *tab) close() {
	if t.inst.ctx.Err() != nil {
		go t.cancel()
		return
	}
	t.cancel()
}

// drainTabs closes the tabs that sit in the pool.
func (b *Browser) drainTabs() {
	for range cap(b.tabs) {
		select {
		case t := <-b.tabs:
			if t != nil {
				t.close()
			}
			b.tabs <- nil
		default:
			return
		}
	}
}

// openTab opens a new tab in inst, in a window of its own: a tab behind
// another one is hidden, and hidden pages produce no frames, so lazy loading,
// IntersectionObserver and screenshots would stall. The tab's first Run must
// get the tab's own context (its event loop lives as long as that context),
// so the timeout is enforced from outside.
func openTab(ctx context.Context, inst *instance) (*tab, error) {
	tctx, cancel := context.WithTimeout(inst.ctx, tabTimeout)
	defer cancel()
	c := chromedp.FromContext(inst.ctx)
	bctx := cdp.WithExecutor(tctx, c.Browser)
	id, err := target.CreateTarget("about:blank").WithNewWindow(true).Do(bctx)
	if err != nil {
		return nil, fmt.Errorf("open tab: %w", errBrowser(err))
	}
	t, err := attachTab(ctx, inst, id)
	if err != nil {
		_ = target.CloseTarget(id).Do(bctx)
	}
	return t, err
}

// attachTab attaches a chromedp context to the new tab id.
func attachTab(ctx context.Context, inst *instance, id target.ID) (*tab, error) {
	tctx, cancel := chromedp.NewContext(inst.ctx, chromedp.WithTargetID(id))
	done := make(chan error, 1)
	go func() { done <- chromedp.Run(tctx) }()
	timer := time.NewTimer(tabTimeout)
	defer timer.Stop()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		err = ctx.Err()
	case <-timer.C:
		err = errors.New("timed out")
	}
	if err != nil {
		cancel()
		return nil, fmt.Errorf("open tab: %w", errBrowser(err))
	}
	return &tab{inst: inst, ctx: tctx, cancel: cancel}, nil
}

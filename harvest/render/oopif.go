package render

import (
	"context"
	"errors"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// siteIsolation keeps Chromium's site isolation, which puts cross-site
// frames into processes of their own (out-of-process iframes, OOPIFs).
// It is off so that those frames stay reachable from the page's session;
// tests turn it on to exercise the OOPIF path.
var siteIsolation = false // overridden by tests

// session is one DevTools session whose frames the package's scripts run
// in: the tab's own, or one attached to an out-of-process iframe.
type session struct {
	ctx    context.Context
	cancel context.CancelFunc // nil for the tab's own session
	worlds *worlds
}

// oopifAttached records an out-of-process iframe the browser attached to
// the tab. The frame's requests, from its document on, are reported to the
// frame's own session, so they are no longer waited for here.
func (w *watcher) oopifAttached(ev *target.EventAttachedToTarget) {
	if ev.TargetInfo == nil || ev.TargetInfo.Type != "iframe" {
		return
	}
	id := ev.TargetInfo.TargetID
	w.oopifs = append(w.oopifs, id)
	for rid, r := range w.inflight {
		if r.frame == cdp.FrameID(id) {
			delete(w.inflight, rid)
			w.changed = time.Now()
		}
	}
}

// newOOPIFs returns the iframe targets not yet in seen.
func (w *watcher) newOOPIFs(seen map[target.ID]bool) []target.ID {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []target.ID
	for _, id := range w.oopifs {
		if !seen[id] {
			out = append(out, id)
		}
	}
	return out
}

// sessions returns the tab's session followed by one per out-of-process
// iframe, attaching to iframes that appeared since the last call. Their
// network events feed the same watcher.
func (p *pageRun) sessions(ctx context.Context) []*session {
	if p.seen == nil {
		p.seen = map[target.ID]bool{}
		p.sess = []*session{{ctx: p.t.ctx, worlds: p.worlds}}
	}
	for _, id := range p.w.newOOPIFs(p.seen) {
		p.seen[id] = true
		s, err := attachFrame(ctx, p.t.ctx, id)
		if err != nil {
			p.note("out-of-process frame %s not reached: %v", id, err)
			continue
		}
		chromedp.ListenTarget(s.ctx, p.w.onEvent)
		p.sess = append(p.sess, s)
	}
	return p.sess
}

// attachFrame opens a session to the iframe target id of tab tctx.
func attachFrame(ctx, tctx context.Context, id target.ID) (*session, error) {
	fctx, cancel := chromedp.NewContext(tctx, chromedp.WithTargetID(id))
	done := make(chan error, 1)
	go func() { done <- chromedp.Run(fctx) }()
	timer := time.NewTimer(5 * time.Second)
	defer timer.Stop()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		err = ctx.Err()
	case <-timer.C:
		err = errors.New("attach timed out")
	}
	if err != nil {
		go cancel()
		return nil, err
	}
	return &session{ctx: fctx, cancel: cancel, worlds: newWorlds()}, nil
}

// closeSessions ends the iframe sessions. chromedp closes a context's target
// on cancel, which for an iframe could close the whole tab; so this runs
// only after the tab left the page, when those targets are gone.
func (p *pageRun) closeSessions() {
	for _, s := range p.sess {
		if s.cancel != nil {
			go s.cancel()
		}
	}
	p.sess = nil
}

// bind returns a context that carries ctx's deadline and cancellation but
// runs chromedp actions against session s's target.
func (s *session) bind(ctx context.Context) (context.Context, context.CancelFunc) {
	if s.cancel == nil {
		return ctx, func() {}
	}
	rctx, cancel := context.WithCancel(s.ctx)
	stop := context.AfterFunc(ctx, cancel)
	if d, ok := ctx.Deadline(); ok {
		var dcancel context.CancelFunc
		rctx, dcancel = context.WithDeadline(rctx, d)
		return rctx, func() { stop(); dcancel(); cancel() }
	}
	return rctx, func() { stop(); cancel() }
}

// remote reports whether frame f, listed in the tab's session, lives in an
// out-of-process iframe with a session of its own (its frame id is its
// target id).
func (p *pageRun) remote(s *session, f *frameNode) bool {
	return s.cancel == nil && p.seen[target.ID(f.frame.ID)]
}

package render

import (
	"context"
	"fmt"

	"github.com/blogharvest/blogharvest/harvest/platform"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/chromedp"
)

// Behaviour names the "load more" controls of one comment platform.
type Behaviour = platform.Behaviour

// textPattern matches the label of a generic "load more" button or link:
// more comments, or more replies of a comment ("Show 2 more replies",
// "View 1 more reply", "3 more replies", "Read more replies").
const textPattern = `load more|show more|more comments|older comments|plus de commentaires|more repl(?:y|ies)\b|\d+ more (?:repl|comment|answer|response)|weitere antworten|plus de réponses|más respuestas|mais respostas|altre risposte`

// Behaviours returns a copy of the "load more" controls that Render
// clicks, from the platform table (harvest/platform), in the order they
// are tried. Controls whose label matches textPattern (/load more|show
// more|more comments|older comments|more repl(y|ies)|N more replies|…/i,
// a few languages) are clicked too, as are Options.ExtraSelectors.
func Behaviours() []Behaviour { return platform.LoadMore() }

// selectors returns the platform table's selectors followed by extra.
func selectors(extra []string) []string {
	var out []string
	for _, b := range platform.LoadMore() {
		out = append(out, b.Selectors...)
	}
	return append(out, extra...)
}

// maxScrolls bounds the screens scrolled through for lazy content.
const maxScrolls = 40

// autoscroll scrolls the main frame down a screen at a time until its
// bottom, so that lazy images and comment widgets load, then every other
// frame (comment iframes, embedded widgets), in the frames' order, the same
// way (scrollFrame), each once its iframe is brought into view (reveal). Each screen waits for the page to draw two frames
// there (js/scroll.js), which the settling's deadline (ctx) bounds; a frame
// whose document is no taller than its viewport, or that has no height,
// reports its bottom at once, without waiting for a drawing. A frame that
// stopped before its bottom is noted (scrollNote; other frames' notes name
// the frame's URL), unless ctx ended: settle notes the timeout.
func (p *pageRun) autoscroll(ctx context.Context) {
	main := p.mainFrame()
	screens, bottom, err := scrollFrame(ctx, p.worlds, main)
	p.o.Logger.Debug("autoscroll stopped", "url", p.url, "screens", screens, "bottom", bottom, "err", err)
	if note := scrollNote("page", screens, bottom, err, ctx.Err()); note != "" {
		p.note("%s", note)
	}
	p.eachFrame(ctx, func(ctx context.Context, s *session, f *frameNode) bool {
		if f.frame.ID == main || ctx.Err() != nil {
			return false
		}
		reveal(ctx, f.frame.ID)
		screens, bottom, err := scrollFrame(ctx, s.worlds, f.frame.ID)
		if note := scrollNote("frame", screens, bottom, err, ctx.Err()); note != "" {
			p.note("frame %s: %s", f.frame.URL, note)
		}
		return false
	})
}

// reveal scrolls the element that holds frame id (its iframe) into the
// window's view, if it is not, before the frame is scrolled: autoscroll
// left the main frame at its bottom, and a frame out of view neither draws
// (Chromium throttles it: js/scroll.js would wait for its drawing until the
// settling's deadline) nor shows its lazy images to the page's
// IntersectionObservers, whose root is the window's viewport. The root
// frame of an out-of-process iframe's session has its element in the
// tab's session: it is left where it is, as is a frame whose element
// the browser does not find.
func reveal(ctx context.Context, id cdp.FrameID) {
	_ = chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		node, _, err := dom.GetFrameOwner(id).Do(ctx)
		if err != nil {
			return err
		}
		return dom.ScrollIntoViewIfNeeded().WithBackendNodeID(node).Do(ctx)
	}))
}

// scrollFrame scrolls frame id down a screen at a time (js/scroll.js) until
// its bottom, maxScrolls screens or the end of ctx, and returns the screens
// scrolled, whether the bottom was reached and the scroll script's last
// error.
func scrollFrame(ctx context.Context, w *worlds, id cdp.FrameID) (screens int, bottom bool, err error) {
	for ; screens < maxScrolls && ctx.Err() == nil; screens++ {
		if err = w.call(ctx, id, scrollJS, &bottom); err != nil || bottom {
			break
		}
	}
	return screens, bottom, err
}

// scrollNote is the note of an autoscroll of a frame ("page" for the main
// frame, "frame" for another) that stopped after screens screens, at its
// bottom or not, with the scroll script's last error: "" when it reached
// the bottom or when the settling's context ended (ctxErr; settle notes
// the timeout).
func scrollNote(what string, screens int, bottom bool, err, ctxErr error) string {
	switch {
	case bottom || ctxErr != nil:
		return ""
	case err != nil:
		return fmt.Sprintf("scrolling stopped after %d screens, before the %s's bottom: %v: lazy images and comments further down may be missing", screens, what, err)
	case screens >= maxScrolls:
		return fmt.Sprintf("scrolling stopped at the limit of %d screens, before the %s's bottom: lazy images and comments further down may be missing", maxScrolls, what)
	}
	return ""
}

// clickMore clicks "load more" controls, in every frame, one per frame per
// round, waiting for the network to settle after each round, until no frame
// has anything left to click, MaxClicks is reached or ctx ends. It returns
// the number of clicks.
func (p *pageRun) clickMore(ctx context.Context) int {
	sels := selectors(p.o.ExtraSelectors)
	clicks := 0
	for clicks < p.o.MaxClicks && ctx.Err() == nil {
		round := p.eachFrame(ctx, func(ctx context.Context, s *session, f *frameNode) bool {
			var label string
			err := s.worlds.call(ctx, f.frame.ID, clickJS, &label, sels, textPattern, p.o.MaxClicks)
			if err != nil || label == "" {
				return false
			}
			p.o.Logger.Debug("clicked", "url", p.url, "frame", f.frame.URL, "label", label)
			return true
		})
		if round == 0 {
			break
		}
		clicks += round
		_ = p.waitIdle(ctx)
		p.measure(ctx)
	}
	return clicks
}

// eachFrame calls fn for every frame of every session (the tab's and its
// out-of-process iframes'), with ctx bound to the frame's session, and
// returns how many calls returned true.
func (p *pageRun) eachFrame(ctx context.Context, fn func(context.Context, *session, *frameNode) bool) int {
	n := 0
	for _, s := range p.sessions(ctx) {
		n += p.sessionFrames(ctx, s, fn)
	}
	return n
}

// sessionFrames calls fn for every frame of session s.
func (p *pageRun) sessionFrames(ctx context.Context, s *session, fn func(context.Context, *session, *frameNode) bool) int {
	ctx, cancel := s.bind(ctx)
	defer cancel()
	fs, err := frames(ctx)
	if err != nil {
		return 0
	}
	n := 0
	for _, f := range fs {
		if !p.remote(s, f) && fn(ctx, s, f) {
			n++
		}
	}
	return n
}

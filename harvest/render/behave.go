package render

import (
	"context"

	"github.com/blogharvest/blogharvest/harvest/platform"
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
// bottom, so that lazy images and comment widgets load, then scrolls every
// other frame to its bottom. Each screen waits for the page to draw two
// frames there (js/scroll.js), which the settling's deadline (ctx) bounds.
func (p *pageRun) autoscroll(ctx context.Context) {
	main := p.mainFrame()
	for i := 0; i < maxScrolls && ctx.Err() == nil; i++ {
		var bottom bool
		if err := p.worlds.call(ctx, main, scrollJS, &bottom); err != nil || bottom {
			p.o.Logger.Debug("autoscroll stopped", "url", p.url, "screens", i, "err", err)
			break
		}
	}
	p.eachFrame(ctx, func(ctx context.Context, s *session, f *frameNode) bool {
		if f.frame.ID != main {
			var bottom bool
			_ = s.worlds.call(ctx, f.frame.ID, scrollJS, &bottom)
		}
		return false
	})
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

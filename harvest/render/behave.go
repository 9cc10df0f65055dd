package render

import (
	"context"
	"time"
)

// Behaviour names the "load more" controls of one comment platform.
type Behaviour struct {
	Platform  string   // e.g. "Disqus"
	Selectors []string // CSS selectors of the controls
}

// behaviours is the built-in table of "load more" controls.
var behaviours = []Behaviour{
	{"Disqus", []string{".load-more__button", "[data-action=more-posts]", ".load-more a"}},
	{"LiveFyre", []string{".fyre-stream-more", ".fyre-stream-more-container", ".fyre-comment-more"}},
	{"WordPress/Jetpack", []string{"#infinite-handle button", "#infinite-handle span", ".load-more-comments", ".comments-load-more", ".wp-block-comments-load-more"}},
	{"Blogger", []string{".loadmore a", ".comment-thread .loadmore a", ".thread-expanded .thread-count a"}},
}

// textPattern matches the label of a generic "load more" button or link.
const textPattern = `load more|show more|more comments|older comments|plus de commentaires`

// Behaviours returns a copy of the built-in table of "load more" controls
// that Render clicks, in the order they are tried. Controls whose label
// matches /load more|show more|more comments|older comments|plus de
// commentaires/i are clicked too, as are Options.ExtraSelectors.
func Behaviours() []Behaviour {
	out := make([]Behaviour, len(behaviours))
	for i, b := range behaviours {
		out[i] = Behaviour{b.Platform, append([]string(nil), b.Selectors...)}
	}
	return out
}

// selectors returns the built-in selectors followed by extra.
func selectors(extra []string) []string {
	var out []string
	for _, b := range behaviours {
		out = append(out, b.Selectors...)
	}
	return append(out, extra...)
}

// maxScrolls bounds the screens scrolled through for lazy content.
const maxScrolls = 40

// autoscroll scrolls the main frame down a screen at a time until its
// bottom, so that lazy images and comment widgets load, then scrolls every
// other frame to its bottom.
func (p *pageRun) autoscroll(ctx context.Context) {
	main := p.mainFrame()
	for i := 0; i < maxScrolls && ctx.Err() == nil; i++ {
		var bottom bool
		if err := p.worlds.call(ctx, main, scrollJS, &bottom); err != nil || bottom {
			p.o.Logger.Debug("autoscroll stopped", "url", p.url, "screens", i, "err", err)
			break
		}
		sleep(ctx, 100*time.Millisecond)
	}
	fs, err := frames(ctx)
	if err != nil {
		return
	}
	for _, f := range fs[1:] {
		var bottom bool
		_ = p.worlds.call(ctx, f.frame.ID, scrollJS, &bottom)
	}
}

// clickMore clicks "load more" controls, in every frame, one per frame per
// round, waiting for the network to settle after each round, until no frame
// has anything left to click, MaxClicks is reached or ctx ends. It returns
// the number of clicks.
func (p *pageRun) clickMore(ctx context.Context) int {
	sels := selectors(p.o.ExtraSelectors)
	clicks := 0
	for clicks < p.o.MaxClicks && ctx.Err() == nil {
		fs, err := frames(ctx)
		if err != nil {
			break
		}
		round := 0
		for _, f := range fs {
			var label string
			if err := p.worlds.call(ctx, f.frame.ID, clickJS, &label, sels, textPattern, p.o.MaxClicks); err != nil || label == "" {
				continue
			}
			p.o.Logger.Debug("clicked", "url", p.url, "frame", f.frame.URL, "label", label)
			round++
		}
		if round == 0 {
			break
		}
		clicks += round
		_ = p.w.waitIdle(ctx, p.o.IdleTime)
	}
	return clicks
}

// sleep waits for d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

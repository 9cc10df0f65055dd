package render

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// capture serialises the page and its cross-origin frames, takes the
// screenshot and collects what the watcher saw.
func (p *pageRun) capture(ctx context.Context) (*Result, error) {
	res := &Result{URL: p.url, Clicks: p.clicks}
	if len(p.notes) > 0 {
		// The page is still busy: stop it so that it answers quickly.
		_ = chromedp.Run(ctx, page.StopLoading())
	}
	fs, err := frames(ctx)
	if err != nil {
		return nil, err
	}
	res.FinalURL = fs[0].frame.URL + fs[0].frame.URLFragment
	var html string
	if err := p.worlds.call(ctx, fs[0].frame.ID, serializeJS, &html); err != nil {
		return nil, fmt.Errorf("serialise page: %w", err)
	}
	res.HTML = []byte(html)
	p.captureFrames(ctx, fs, res)
	if p.o.Screenshot {
		if err := p.screenshot(ctx, res); err != nil {
			p.note("no screenshot: %v", err)
		}
	}
	p.w.snapshot(res)
	res.Notes = p.notes
	return res, nil
}

// captureFrames adds to res the documents of the frames not inlined into
// their parent's serialisation.
func (p *pageRun) captureFrames(ctx context.Context, fs []*frameNode, res *Result) {
	for _, f := range fs[1:] {
		if f.root != f {
			continue
		}
		var html string
		if err := p.worlds.call(ctx, f.frame.ID, serializeJS, &html); err != nil {
			p.note("frame %s not captured: %v", f.frame.URL, err)
			continue
		}
		res.Frames = append(res.Frames, Frame{URL: f.frame.URL, HTML: []byte(html)})
	}
}

// screenshot takes a full-page PNG from the top of the page.
func (p *pageRun) screenshot(ctx context.Context, res *Result) error {
	var buf []byte
	err := chromedp.Run(ctx,
		chromedp.Evaluate(`window.scrollTo(0, 0)`, nil),
		chromedp.FullScreenshot(&buf, 100),
	)
	if err != nil {
		return err
	}
	res.Screenshot = buf
	return nil
}

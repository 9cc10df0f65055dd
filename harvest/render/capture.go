package render

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/network"
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
	var html string
	if err := p.worlds.call(ctx, p.mainFrame(), serializeJS, &html); err != nil {
		return nil, fmt.Errorf("serialise page: %w", err)
	}
	res.HTML = []byte(html)
	if fs, err := frames(ctx); err != nil {
		p.note("frames not captured: %v", err)
	} else {
		res.FinalURL = fs[0].frame.URL + fs[0].frame.URLFragment
	}
	p.captureFrames(ctx, res)
	if p.o.Screenshot {
		if err := p.screenshot(ctx, res); err != nil {
			p.note("no screenshot: %v", err)
		}
	}
	p.w.snapshot(res)
	res.API = p.apiResponses(ctx)
	if p.net != nil {
		// From here on nothing the page asks for leaves the browser (its
		// timers and pollers run until the tab is reset): every request
		// that reached a server is one the recorder saw, recorded or
		// named. resetTab lifts the block.
		// The evaluation after the block is a round trip through the
		// page: the events of the requests it sent before are in by then.
		if err := chromedp.Run(ctx, network.SetBlockedURLs([]string{"*"}), chromedp.Evaluate(`0`, nil)); err != nil {
			p.note("requests after the capture not blocked: %v", err)
		}
		res.Responses, res.Unrecorded = p.net.responses(ctx)
	}
	res.Notes = p.notes
	return res, nil
}

// captureFrames adds to res the documents of the frames not inlined into
// their parent's serialisation: cross-origin frames of the tab's session and
// the out-of-process iframes.
func (p *pageRun) captureFrames(ctx context.Context, res *Result) {
	p.eachFrame(ctx, func(ctx context.Context, s *session, f *frameNode) bool {
		if f.root != f || (s.cancel == nil && f.frame.ParentID == "") {
			return false // inlined, or the page itself
		}
		if !p.frameAllowed(f.frame.URL) {
			p.note("frame %s not captured: out of scope", f.frame.URL)
			return false
		}
		var html string
		if err := s.worlds.call(ctx, f.frame.ID, serializeJS, &html); err != nil {
			p.note("frame %s not captured: %v", f.frame.URL, err)
			return false
		}
		res.Frames = append(res.Frames, Frame{URL: f.frame.URL, HTML: []byte(html)})
		return true
	})
}

// maxShotHeight caps the height of screenshots, in CSS pixels: an endless
// page would otherwise make a PNG of hundreds of megabytes.
const maxShotHeight = 16384

// screenshot takes a full-page PNG from the top of the page, at most
// maxShotHeight high. On long pages it dominates the capture (software
// rasterising and PNG encoding); encoding optimised for speed saved little
// and made files a third larger.
func (p *pageRun) screenshot(ctx context.Context, res *Result) error {
	var buf []byte
	err := chromedp.Run(ctx,
		chromedp.Evaluate(`window.scrollTo(0, 0)`, nil),
		chromedp.ActionFunc(func(ctx context.Context) error {
			_, _, _, _, _, size, err := page.GetLayoutMetrics().Do(ctx)
			if err != nil {
				return err
			}
			shot := page.CaptureScreenshot().
				WithFormat(page.CaptureScreenshotFormatPng).
				WithCaptureBeyondViewport(true).
				WithFromSurface(true)
			if size != nil && size.Height > maxShotHeight {
				p.note("screenshot cut at %d of %.0f px", maxShotHeight, size.Height)
				shot = shot.WithClip(&page.Viewport{Width: size.Width, Height: maxShotHeight, Scale: 1})
			}
			buf, err = shot.Do(ctx)
			return err
		}),
	)
	if err != nil {
		return err
	}
	res.Screenshot = buf
	return nil
}

// frameAllowed reports whether the document of a frame at url may be
// captured (Options.FrameAllowed).
func (p *pageRun) frameAllowed(url string) bool {
	return p.o.FrameAllowed == nil || p.o.FrameAllowed(url)
}

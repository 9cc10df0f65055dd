package harvest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/render"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// rendererState is the crawl's browser: the one given in Options, or one
// started on first need and closed at the end. Safe for concurrent use.
type rendererState struct {
	mu       sync.Mutex
	r        Renderer
	own      *render.Browser
	proxy    *fetch.BrowserProxy // the filter a browser the crawl started goes through
	refusals int                 // targets the proxy refused
	started  bool
	off      bool
}

// renderer returns the browser to use, starting one if needed; nil when
// rendering is off (RenderNever, or no browser installed: one warning).
func (w *pageWorker) renderer(ctx context.Context) Renderer {
	st := w.render
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case w.o.Render == RenderNever || st.off:
		return nil
	case w.o.Auth != nil:
		w.renderOffForAuth(st)
		return nil
	case w.o.Browser != nil:
		return w.o.Browser
	case st.started:
		return st.r
	}
	st.started = true
	b, err := w.startBrowser(ctx)
	if err != nil {
		st.off = true
		msg := fmt.Sprintf("render: %v: rendering is off for this crawl", err)
		if errors.Is(err, render.ErrNoBrowser) {
			msg = fmt.Sprintf("render: no browser installed (%v): rendering is off for this crawl", err)
		}
		w.stats.warn(msg)
		return nil
	}
	st.own, st.r = b, b
	return b
}

// startBrowser starts the crawl's browser behind its filtering proxy
// (kept in c.render.proxy; c.render.mu is held).
func (w *pageWorker) startBrowser(ctx context.Context) (*render.Browser, error) {
	p, err := w.startBrowserProxy()
	if err != nil {
		return nil, fmt.Errorf("browser proxy: %w", err)
	}
	b, err := render.New(context.WithoutCancel(ctx), w.renderOptions(p))
	if err != nil {
		p.Close()
		return nil, err
	}
	w.render.proxy = p
	return b, nil
}

// renderOptions configures a browser the crawl starts: every request it
// makes goes through the filtering proxy p, which decides with the
// crawl's scope rules and carries through the crawl's upstream proxy.
// Unless the crawl runs over its own Transport (replay), the browser
// trusts the same extra CAs as the HTTP client, pinned to the blog's own
// host.
func (w *pageWorker) renderOptions(p *fetch.BrowserProxy) render.Options {
	o := render.Options{Tabs: w.o.PerHost, Screenshot: true, Logger: w.log, Record: w.o.Requisites != RequisitesNone,
		ProxyServer: p.URL(), ProxyOnly: true, FrameAllowed: w.browserMayLoad}
	if w.o.Transport != nil {
		return o
	}
	o = render.FromEnvironment(o)
	o.ProxyServer, o.NoProxy = p.URL(), ""
	if w.o.CAFile != "" {
		o.TrustedCAs = append(o.TrustedCAs, w.o.CAFile)
	}
	if w.home != nil && w.home.Scheme == "https" {
		o.PinHosts = []string{w.home.Host}
	}
	return o
}

// closeRenderer closes a browser the crawl started.
func (w *pageWorker) closeRenderer() {
	w.render.mu.Lock()
	defer w.render.mu.Unlock()
	if w.render.own != nil {
		w.render.own.Close()
		w.render.own = nil
	}
	if w.render.proxy != nil {
		w.render.proxy.Close()
		w.render.proxy = nil
	}
}

// renderReason says why a page should be rendered, or "" when the static
// HTML suffices. Auto renders when the static page lacks the article the
// feed describes, shows a JavaScript comment system, or holds fewer
// comments than the comment feed or the feed's count say exist.
func (w *pageWorker) renderReason(j *pageJob, post bool, ex learn.Extraction, exErr error) string {
	if w.o.Render == RenderAlways {
		return "render: always"
	}
	if w.o.Render == RenderNever {
		return ""
	}
	feedText := 0
	if j.item != nil && itemFullText(*j.item) {
		feedText = len(textsim.HTMLText(j.item.Content))
	}
	switch {
	case errors.Is(exErr, blogharvest.ErrNoArticle) || ex.ContentText == "":
		return "no article in the static page"
	case feedText > 0 && len(ex.ContentText) < feedText/2:
		return "the static page holds less than half of the feed's article"
	case post && w.articleRuleTrusted() && ex.Score < lowScore:
		return fmt.Sprintf("low article score %.2f", ex.Score)
	}
	if js := w.jsCommentSystem(j.page); js != "" {
		return "comments by " + js
	}
	switch {
	case len(ex.Comments) < len(j.comments):
		return "the comment feed has more comments than the static page"
	case j.item != nil && j.item.CommentCount > len(ex.Comments) && j.item.CommentCount > len(j.comments):
		return "the feed counts more comments than the static page holds"
	case len(ex.Comments) == 0:
		return w.commentSignalReason(j) // a comment system in no table (commentsignals.go)
	}
	return ""
}

// jsCommentSystem returns the JavaScript comment system of page worth
// rendering for, or "": one whose script or frame the browser may load
// (a system known by its markers alone always is).
func (w *pageWorker) jsCommentSystem(page *fetchedPage) string {
	if src := page.info.jsCommentsSrc; src != "" && !w.browserMayLoad(src) {
		return ""
	}
	return page.info.jsSystem(page.html)
}

// lowScore is the article score under which a post's static page is
// taken to lack its article.
const lowScore = 0.3

// articleRuleTrusted reports whether a trusted article rule was learned,
// so that a low score on a post means the static page lacks the article.
func (w *pageWorker) articleRuleTrusted() bool {
	return w.rules != nil && w.rules.Article != nil && w.rules.Article.Trusted
}

// maybeRender renders the page when renderReason says so, keeps the
// rendered DOM and screenshot, and returns the better of the two
// extractions.
func (w *pageWorker) maybeRender(ctx context.Context, j *pageJob, e *blogharvest.Entry, ex learn.Extraction, exErr error) (learn.Extraction, error) {
	reason := w.renderReason(j, e.Kind == blogharvest.KindPost, ex, exErr)
	if reason == "" {
		return ex, exErr
	}
	r := w.renderer(ctx)
	if r == nil {
		return ex, exErr
	}
	if w.o.Render != RenderAlways {
		w.log.Info("render", "url", j.page.resp.URL, "reason", reason)
	}
	t0 := time.Now()
	res, err := r.Render(ctx, j.page.resp.URL)
	w.stats.took("render", time.Since(t0))
	if err != nil {
		e.Problems = append(e.Problems, fmt.Sprintf("render (%s): %v", reason, err))
		return ex, exErr
	}
	e.Files = append(e.Files, res.Files(w.o.Now())...)
	j.rendered = w.browserRequisites(res)
	for _, n := range res.Notes {
		e.Problems = append(e.Problems, "render: "+n)
	}
	rex, rerr := w.extract(learn.Page{URL: firstNonEmpty(res.FinalURL, res.URL, j.page.resp.URL), HTML: res.HTML, Lang: w.lang(j.page)})
	w.frameComments(&rex, res)
	if note := renderedComments(&rex, res, w.lang(j.page), j.comments, j.page.html); note != "" { // comment systems in no table
		e.Problems = append(e.Problems, note)
	}
	if rerr == nil && (len(rex.ContentText) >= len(ex.ContentText) || len(rex.Comments) > len(ex.Comments)) {
		return rex, nil
	}
	return ex, exErr
}

// frameComments adds the comments found in the rendered page's
// cross-origin frames (Disqus and other embedded threads) to ex.
func (w *pageWorker) frameComments(ex *learn.Extraction, res *render.Result) {
	for _, f := range res.Frames {
		fx, _ := w.extract(learn.Page{URL: f.URL, HTML: f.HTML})
		ex.Comments = append(ex.Comments, fx.Comments...)
	}
}

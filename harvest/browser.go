package harvest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/comments"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/render"
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
	startErr error // why the installed browser did not start; nil if it did or none is installed
}

// renderer returns the browser to use, starting one if needed; nil when
// rendering is off (RenderNever, or no browser installed: one warning) or
// the browser did not start (one warning; st.startErr says why).
func (w *pageWorker) renderer(ctx context.Context) Renderer {
	st := w.fetch.render
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case w.fetch.cfg.render.mode == RenderNever || st.off:
		return nil
	case w.fetch.cfg.render.auth:
		w.renderOffForAuth(st)
		return nil
	case w.fetch.cfg.render.browser != nil:
		return w.fetch.cfg.render.browser
	case st.started:
		return st.r
	}
	st.started = true
	b, err := w.startBrowser(ctx)
	if err != nil {
		st.off = true
		msg := fmt.Sprintf("render: no browser installed (%v): rendering is off for this crawl", err)
		if !errors.Is(err, render.ErrNoBrowser) {
			st.startErr = err
			msg = fmt.Sprintf("render: %v: the pages that need rendering are archived unrendered and rendered again on the next run", err)
		}
		w.stats.warn(msg)
		return nil
	}
	st.own, st.r = b, b
	return b
}

// startBrowser starts the crawl's browser behind its filtering proxy
// (kept in w.fetch.render.proxy; w.fetch.render.mu is held).
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
	w.fetch.render.proxy = p
	return b, nil
}

// renderOptions configures a browser the crawl starts: every request it
// makes goes through the filtering proxy p, which decides with the
// crawl's scope rules and carries through the crawl's upstream proxy.
// Unless the crawl runs over its own Transport (replay), the browser
// trusts the same extra CAs as the HTTP client, pinned to the blog's own
// host.
func (w *pageWorker) renderOptions(p *fetch.BrowserProxy) render.Options {
	o := render.Options{Tabs: w.fetch.cfg.render.tabs, Timeout: w.fetch.cfg.render.timeout, Screenshot: true, Logger: w.log,
		Record: w.fetch.cfg.req.mode != RequisitesNone, ProxyServer: p.URL(), ProxyOnly: true, FrameAllowed: w.fetch.browserMayLoad}
	if w.fetch.cfg.render.transport {
		return o
	}
	o = render.FromEnvironment(o)
	o.ProxyServer, o.NoProxy = p.URL(), ""
	if w.fetch.cfg.render.caFile != "" {
		o.TrustedCAs = append(o.TrustedCAs, w.fetch.cfg.render.caFile)
	}
	if w.site.home != nil && w.site.home.Scheme == "https" {
		o.PinHosts = []string{w.site.home.Host}
	}
	return o
}

// closeRenderer closes a browser the crawl started.
func (fg *fetching) closeRenderer() {
	fg.render.mu.Lock()
	defer fg.render.mu.Unlock()
	if fg.render.own != nil {
		fg.render.own.Close()
		fg.render.own = nil
	}
	if fg.render.proxy != nil {
		fg.render.proxy.Close()
		fg.render.proxy = nil
	}
}

// renderReason says why a page should be rendered, the zero renderWhy
// when the static HTML suffices: the one place the render decision is
// made, each reason named (renderdecision.go). Auto renders when the
// static page lacks the article the feed describes, shows a JavaScript
// comment system or a script widget drawn from an API, or holds fewer
// comments than the comment feed or the feed's count say exist. When the
// comment feed already holds every comment the feed counts, nothing is
// rendered for comments: the feed's comments are merged into the entry
// anyway.
func (w *pageWorker) renderReason(ctx context.Context, j *pageJob, post bool, ex learn.Extraction, exErr error) renderWhy {
	if w.fetch.cfg.render.mode == RenderAlways {
		return renderWhy{key: ReasonAlways}
	}
	if w.fetch.cfg.render.mode == RenderNever {
		return renderWhy{}
	}
	feedText := 0
	if j.item != nil {
		if t := w.site.texts.of(j.item.Content); t.full {
			feedText = t.n
		}
	}
	switch {
	case errors.Is(exErr, blogharvest.ErrNoArticle) || ex.ContentText == "":
		return renderWhy{ReasonNoArticle, "no article in the static page"}
	case feedText > 0 && len(ex.ContentText) < feedText/2:
		return renderWhy{ReasonShortArticle, "the static page holds less than half of the feed's article"}
	case post && w.read.articleRuleTrusted() && ex.Score < lowScore:
		return renderWhy{ReasonLowScore, fmt.Sprintf("low article score %.2f", ex.Score)}
	case w.comments.ThreadChanged(j.t.url):
		return renderWhy{ReasonThreadChanged, "the API its comments were drawn from answers differently since the last crawl"}
	case feedHoldsAll(j):
		return renderWhy{}
	}
	if js := w.jsCommentSystem(j.page); js != "" {
		return renderWhy{ReasonCommentSystem, "comments by " + js}
	}
	switch {
	case len(ex.Comments) < len(j.cm.Comments):
		return renderWhy{ReasonFeedComments, "the comment feed has more comments than the static page"}
	case j.item != nil && j.item.CommentCount > len(ex.Comments) && j.item.CommentCount > len(j.cm.Comments):
		return renderWhy{ReasonFeedCount, "the feed counts more comments than the static page holds"}
	case comments.StatedComments(j.post()).N > len(ex.Comments) && comments.StatedComments(j.post()).N > len(j.cm.Comments):
		return renderWhy{ReasonStatedCount, "the blog states more comments than the static page and feeds hold: " + comments.StatedComments(j.post()).String()}
	case len(ex.Comments) == 0:
		if r := commentSignalReason(j, w.fetch.browserMayLoad); r != "" { // a comment system in no table (commentsignals.go)
			return renderWhy{ReasonCommentSignal, r}
		}
		return w.widgetReason(ctx, j)
	}
	return renderWhy{}
}

// feedHoldsAll reports whether the comment feed read for j holds every
// comment the feed item counts (and at least one): rendering for
// comments would add nothing the feed does not give.
func feedHoldsAll(j *pageJob) bool {
	return j.item != nil && j.item.CommentCount > 0 && len(j.cm.Comments) >= j.item.CommentCount
}

// widgetReason returns the reason to render a page whose static page
// shows a script widget drawn from an API into an empty element
// (widgetsignal.go), or whose scripts create the element they mount such
// a widget into, or that loads a widget an earlier render of the blog
// found (scriptwidget.go), unless the feed says the post has no comments
// or the browser may not reach the API.
func (w *pageWorker) widgetReason(ctx context.Context, j *pageJob) renderWhy {
	if j.item != nil && j.item.CommentCount == 0 {
		return renderWhy{}
	}
	may := func(s commentSignal) bool { return s.reason != "" && (s.src == "" || w.fetch.browserMayLoad(s.src)) }
	if s := widgetSignal(j.page.doc, j.page.url); may(s) {
		return renderWhy{ReasonAPIWidget, s.reason}
	}
	return w.scriptWidgetReason(ctx, j.page, may)
}

// jsCommentSystem returns the JavaScript comment system of page worth
// rendering for, or "": one whose script or frame the browser may load
// (a system known by its markers alone always is).
func (w *pageWorker) jsCommentSystem(page *fetchedPage) string {
	if src := page.info.jsCommentsSrc; src != "" && !w.fetch.browserMayLoad(src) {
		return ""
	}
	return page.info.jsSystem(page.html)
}

// maybeRender renders the page when renderReason says so and the
// crawl's render account allows it, keeps the rendered DOM and
// screenshot, and returns the better of the two extractions.
func (w *pageWorker) maybeRender(ctx context.Context, j *pageJob, e *blogharvest.Entry, ex learn.Extraction, exErr error) (learn.Extraction, error) {
	why := w.renderReason(ctx, j, e.Kind == blogharvest.KindPost, ex, exErr)
	if why.key == "" {
		return ex, exErr
	}
	r := w.renderer(ctx)
	if r == nil {
		w.unrendered(e, why.String())
		return ex, exErr
	}
	if ok, _, note := w.account.allow(why); !ok && w.fetch.cfg.render.mode != RenderAlways {
		e.Problems = append(e.Problems, note)
		w.log.Info("not rendered", "url", j.page.resp.URL, "reason", why.String(), "why", note)
		return ex, exErr
	}
	if w.fetch.cfg.render.mode != RenderAlways {
		w.log.Info("render", "url", j.page.resp.URL, "reason", why.String())
	}
	t0 := time.Now()
	j.cm.Rendered = true
	res, err := r.Render(ctx, j.page.resp.URL)
	w.stats.took("render", time.Since(t0))
	if err != nil {
		e.Problems = append(e.Problems, fmt.Sprintf("render (%s): %v", why, err))
		return ex, exErr
	}
	e.Files = append(e.Files, res.Files(w.o.Now())...)
	if res.Clicks > 0 {
		w.log.Info("render: pressed \"more\" controls", "url", j.page.resp.URL, "clicks", res.Clicks)
	}
	j.renderedReqs, j.renderedMissed = w.browserRequisites(res), res
	for _, n := range res.Notes {
		e.Problems = append(e.Problems, "render: "+n)
	}
	var more comments.More
	if why.forComments() || e.Kind == blogharvest.KindPost {
		more = w.comments.FollowThreads(ctx, res, w.read.lang(j.page)) // the rest of threads the app gave in part (threadmore.go)
		e.Files = append(e.Files, more.Files...)
	}
	rex, rerr := w.read.extract(learn.Page{URL: firstNonEmpty(res.FinalURL, res.URL, j.page.resp.URL), HTML: res.HTML, Lang: w.read.lang(j.page)})
	w.frameComments(&rex, res)
	if note := renderedComments(&rex, res, w.read.lang(j.page), j.cm.Comments, j.page.html, w.shapes, more, w.o.MaxComments); note != "" { // comment systems in no table
		e.Problems = append(e.Problems, note)
	}
	w.comments.NoteThreadShort(e, more, rex.Comments)
	if len(rex.Comments) > 0 {
		w.widgets.add(widgetScriptsOf(res, w.read.lang(j.page))) // the widget's loader, for the blog's next pages and crawls (scriptwidget.go)
	}
	if e.Kind == blogharvest.KindPost && (why.forComments() || len(rex.Comments) > 0) {
		j.threads, j.threadCands = comments.ThreadWatch(res, w.read.lang(j.page)) // UpdateCrawl's change signal for them (comments/threads.go)
	}
	better := rerr == nil && (len(rex.ContentText) >= len(ex.ContentText) || len(rex.Comments) > len(ex.Comments))
	// Added: comments neither the static page nor the comment feed holds,
	// or a tenth more article.
	added := rerr == nil && (len(rex.Comments) > max(len(ex.Comments), len(j.cm.Comments)) || len(rex.ContentText) > len(ex.ContentText)+len(ex.ContentText)/10)
	w.account.result(why, added)
	switch {
	case !better:
		return ex, exErr
	case why.forComments() && exErr == nil:
		// Rendered for its comments: the static article stays (the
		// rendered one may hold the widget's text too).
		if len(rex.Comments) > len(ex.Comments) {
			ex.Comments = rex.Comments
			ex.Methods.Set(learn.FieldComments, rex.Methods[learn.FieldComments])
		}
		return ex, nil
	}
	return rex, nil
}

// unrendered marks e, a page that needed rendering (for reason), as
// archived without it when the crawl's browser did not start, and counts
// it in Result.Unrendered. Entry.Unrendered holds the reason only, so
// that a run whose browser fails again writes no new version, while one
// that renders does.
func (w *pageWorker) unrendered(e *blogharvest.Entry, reason string) {
	st := w.fetch.render
	st.mu.Lock()
	err := st.startErr
	st.mu.Unlock()
	if err == nil {
		return
	}
	e.Unrendered = reason
	e.Problems = append(e.Problems, fmt.Sprintf("render (%s): not rendered: %v", reason, err))
	w.stats.unrendered()
}

// frameComments adds the comments found in the rendered page's
// cross-origin frames (Disqus and other embedded threads) to ex.
func (w *pageWorker) frameComments(ex *learn.Extraction, res *render.Result) {
	for _, f := range res.Frames {
		fx, _ := w.read.extract(learn.Page{URL: f.URL, HTML: f.HTML})
		ex.Comments = append(ex.Comments, fx.Comments...)
	}
}

package harvest

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/render"
	xnethtml "github.com/blogharvest/blogharvest/internal/xnet/html"
	"golang.org/x/net/html"
)

// Page requisites are what a browser needs to draw an archived page
// (requisiteurls.go lists what is read off a page). Their scope is the
// web archivists' transclusion rule (Heritrix's): pages stay inside the
// blog's scope, while the embeds of an in-scope page may come from other
// public origins, one hop: a stylesheet's imports and fonts, an iframe's
// document (and, on the blog's origins, that document's own requisites).
// requisiteRefusal is the one decision, for the Go client and for what
// Chromium received alike.

// Values of Options.Requisites.
const (
	RequisitesAll        = "all"         // from the blog's origins and any public address
	RequisitesSameOrigin = "same-origin" // from the blog's origins only
	RequisitesNone       = "none"        // none
)

// Requisite limits used when Options leaves them zero.
const (
	DefaultMaxRequisiteBytes     = 10 << 20 // one file
	DefaultMaxPageRequisiteBytes = 50 << 20 // all the requisites of one page
	maxPageRequisites            = 500      // files per page
	maxCSSDepth                  = 4        // stylesheets importing stylesheets
)

// viaRequisite is the ledger's "via" of a requisite URL.
const viaRequisite = "requisite"

// requisiteConfig is what the page worker's capture of page requisites
// reads of the crawl's options, built once (requisiteConfigOf): which
// requisites are captured (Options.Requisites) and the bounds on one
// file (MaxRequisiteBytes) and on all of a page's (MaxPageRequisiteBytes).
type requisiteConfig struct {
	mode         string
	maxBytes     int64
	maxPageBytes int64
}

// requisiteConfigOf returns the requisite capture's config in o (defaults
// applied).
func requisiteConfigOf(o Options) requisiteConfig {
	return requisiteConfig{mode: o.Requisites, maxBytes: o.MaxRequisiteBytes, maxPageBytes: o.MaxPageRequisiteBytes}
}

// requisiteRefusal returns why the requisite at raw may not be captured,
// or "" when it may: Options.Requisites, then the address (a loopback,
// private or link-local literal or a localhost name only on the blog's
// origins). Names that resolve to such addresses are refused when the
// connection is made (fetch's guard, the browser proxy).
func (w *pageWorker) requisiteRefusal(raw string) string {
	return w.requisiteRefusalIn(w.site.scope, raw)
}

// requisiteRefusalIn is requisiteRefusal with the blog's hosts those of
// sc: the home page's requisites are judged before the site is handed
// to the page worker (pageWorker.homeRequisites).
func (w *pageWorker) requisiteRefusalIn(sc *scope, raw string) string {
	if w.fetch.cfg.req.mode == RequisitesNone {
		return "requisites: none"
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "not an http(s) URL"
	}
	own := sc != nil && sc.hosts[strings.ToLower(u.Host)]
	switch {
	case own:
		return ""
	case w.fetch.cfg.req.mode == RequisitesSameOrigin:
		return "requisites: same-origin, and " + u.Host + " is not the blog's"
	case isPrivateHost(u.Hostname()):
		return "a non-public address other than the blog's origins"
	}
	return ""
}

// refuseRequisite records a requisite not captured in the ledger.
func (w *pageWorker) refuseRequisite(u string, f Fate, why string) {
	w.ledger.set(u, f, "requisite: "+why, viaRequisite)
}

// pageRequisites collects the requisites of one page within the per-page
// caps, each URL once.
type pageRequisites struct {
	w     *pageWorker
	scope *scope // the blog's hosts (the site's scope)
	files []blogharvest.File
	seen  map[string]bool
	bytes int64
	full  bool // a cap was reached (said once)
}

// newPageRequisites starts the requisites of a page whose record already
// holds files (their URLs are not captured again).
func (w *pageWorker) newPageRequisites(have []blogharvest.File, sc *scope) *pageRequisites {
	r := &pageRequisites{w: w, scope: sc, seen: map[string]bool{}}
	for _, f := range have {
		if f.URL != "" && f.Status != 0 {
			r.seen[f.URL] = true
		}
	}
	return r
}

// room reports whether one more file of n bytes fits the page's caps.
func (r *pageRequisites) room(n int64) bool {
	return len(r.files) < maxPageRequisites && r.bytes+n <= r.w.fetch.cfg.req.maxPageBytes
}

// keep adds a captured requisite.
func (r *pageRequisites) keep(f blogharvest.File) {
	f.Role = blogharvest.RoleRequisite
	r.files = append(r.files, f)
	r.bytes += int64(len(f.Body))
	r.seen[f.URL] = true
}

// capture fetches the requisites a parsed document names, and what their
// stylesheets load, as the Go client sees them; problems are returned
// for the record.
func (r *pageRequisites) capture(ctx context.Context, doc *html.Node, base *url.URL) (problems []string) {
	if doc == nil || base == nil || r.w.fetch.cfg.req.mode == RequisitesNone {
		return nil
	}
	queue := requisiteRefs(doc, base)
	depth := map[string]int{}
	for len(queue) > 0 && ctx.Err() == nil {
		ref := queue[0]
		queue = queue[1:]
		if r.seen[ref.url] {
			continue
		}
		r.seen[ref.url] = true
		f, err := r.fetch(ctx, ref.url)
		if err != nil {
			if p := err.Error(); p != "" {
				problems = append(problems, fmt.Sprintf("requisite %s: %s", ref.url, p))
			}
			continue
		}
		r.keep(f)
		for _, next := range r.w.embedsOf(f, ref.kind, r.scope) {
			if depth[ref.url] < maxCSSDepth && !r.seen[next.url] {
				depth[next.url] = depth[ref.url] + 1
				queue = append(queue, next)
			}
		}
	}
	return problems
}

// errRefused is a requisite refused by scope or caps: recorded in the
// ledger, not a problem of the record.
var errRefused = errors.New("")

// fetch captures one requisite within the scope rules and caps.
func (r *pageRequisites) fetch(ctx context.Context, u string) (blogharvest.File, error) {
	if why := r.w.requisiteRefusalIn(r.scope, u); why != "" {
		r.w.refuseRequisite(u, FateOutOfScope, why)
		return blogharvest.File{}, errRefused
	}
	if !r.room(0) {
		r.w.refuseRequisite(u, FateSkipped, "the page's requisite caps are reached")
		return blogharvest.File{}, errRefused
	}
	f, err := r.w.fetch.fetchRequisite(ctx, u)
	switch {
	case err != nil:
		r.w.refuseRequisite(u, FateFailed, err.Error())
		return f, err
	case !r.room(int64(len(f.Body))):
		r.w.refuseRequisite(u, FateSkipped, fmt.Sprintf("%d bytes exceed the page's requisite cap of %d", len(f.Body), r.w.fetch.cfg.req.maxPageBytes))
		return f, errRefused
	}
	return f, nil
}

// fetchRequisite fetches one requisite once per crawl (a stylesheet that
// 500 posts share is asked for once), holding it to the per-file cap.
func (fg *fetching) fetchRequisite(ctx context.Context, u string) (blogharvest.File, error) {
	if res, ok := fg.requisites.get(u); ok {
		return res.file, res.err
	}
	req := fetch.Request{URL: u, Kind: fetch.Subresource}
	held, ok := fg.stored.get(u)
	if ok {
		if held.freshAt(time.Now()) { // not asked for again: the stored capture stands
			f := held.reuse(fg.start)
			fg.requisites.put(u, mediaResult{file: f})
			return f, nil
		}
		req.ETag, req.LastModified = held.validators()
	}
	resp, err := fg.client.Do(ctx, req)
	var f blogharvest.File
	switch {
	case err == nil && resp.NotModified && ok:
		f = held.revalidated(resp)
	case err != nil:
	case int64(len(resp.Body)) > fg.cfg.req.maxBytes:
		err = fmt.Errorf("%d bytes exceed the %d-byte requisite limit: %w", len(resp.Body), fg.cfg.req.maxBytes, blogharvest.ErrTooLarge)
	default:
		f = resp.File(blogharvest.RoleRequisite)
	}
	fg.requisites.put(u, mediaResult{f, err})
	return f, err
}

// embedsOf returns the requisites a fetched requisite names in turn: a
// stylesheet's imports and url()s; an iframe document's requisites when it
// is on the blog's origins (one hop: a frame from elsewhere is an embed,
// its own embeds are not).
func (w *pageWorker) embedsOf(f blogharvest.File, k refKind, sc *scope) []requisiteRef {
	mt, _, _ := mime.ParseMediaType(f.MediaType)
	base, err := url.Parse(f.URL)
	if err != nil {
		return nil
	}
	switch {
	case k == refCSS || mt == "text/css":
		var out []requisiteRef
		for _, r := range cssRefs(string(f.Body)) {
			if u := absRequisite(r.url, base); u != "" {
				out = append(out, requisiteRef{u, r.kind})
			}
		}
		return out
	case k == refIframe && mt == "text/html" && sc != nil && sc.hosts[strings.ToLower(base.Host)]:
		doc, err := xnethtml.Parse(strings.NewReader(string(f.Body)))
		if err != nil {
			return nil
		}
		var out []requisiteRef
		for _, r := range requisiteRefs(doc, base) {
			if r.kind != refIframe {
				out = append(out, r)
			}
		}
		return out
	}
	return nil
}

// captureEntryRequisites adds the requisites of an entry's page to its
// files: those the browser received while rendering it (rendered), then
// those the page names that the browser did not load.
func (w *pageWorker) captureEntryRequisites(ctx context.Context, e *blogharvest.Entry, p *fetchedPage, rendered []blogharvest.File) {
	if w.fetch.cfg.req.mode == RequisitesNone {
		return
	}
	r := w.newPageRequisites(e.Files, w.site.scope)
	for _, f := range rendered {
		if r.seen[f.URL] {
			continue
		}
		if why := w.requisiteRefusal(f.URL); why != "" {
			w.refuseRequisite(f.URL, FateOutOfScope, why)
			continue
		}
		if int64(len(f.Body)) > w.fetch.cfg.req.maxBytes || !r.room(int64(len(f.Body))) {
			w.refuseRequisite(f.URL, FateSkipped, fmt.Sprintf("%d bytes exceed a requisite cap", len(f.Body)))
			continue
		}
		r.keep(f)
	}
	for _, p := range r.capture(ctx, p.doc, p.url) { // each in the ledger: a missing picture is no fault of the entry
		w.log.Debug("requisite not captured", "problem", p)
	}
	e.Files = append(e.Files, r.files...)
}

// homeRequisites returns the requisites of the home page for the Blog
// record, whose files so far are have, judged by the scope sc (the site
// is not the worker's yet); none when the requisite config captures none
// (w.fetch.cfg.req: the worker reads no Options for it).
func (w *pageWorker) homeRequisites(ctx context.Context, home *fetchedPage, have []blogharvest.File, sc *scope) []blogharvest.File {
	if home == nil || w.fetch.cfg.req.mode == RequisitesNone {
		return nil
	}
	r := w.newPageRequisites(have, sc)
	for _, p := range r.capture(ctx, home.doc, home.url) { // each in the ledger
		w.log.Debug("requisite not captured", "problem", p)
	}
	return r.files
}

// browserRequisites turns the responses the browser received rendering a
// page (its own document aside) into requisite files, secrets redacted,
// and shares the successful ones with the crawl's requisite cache so that
// the pages after it need not fetch them again. A response Chromium
// served from its own cache is no fetch: it is the crawl's file of that
// URL when it has one (the fetch that brought it, recorded once), else
// the file with exchanges without a method (no request was sent).
func (w *pageWorker) browserRequisites(res *render.Result) []blogharvest.File {
	var out []blogharvest.File
	for _, r := range res.Responses {
		if r.Main || len(r.Exchanges) == 0 {
			continue
		}
		if m, ok := w.fetch.requisites.get(r.Exchanges[len(r.Exchanges)-1].URL); r.FromCache && ok && m.err == nil &&
			m.file.Status >= 200 && m.file.Status < 300 {
			out = append(out, m.file)
			continue
		}
		if !r.FromCache && r.Exchanges[len(r.Exchanges)-1].Status == http.StatusNotModified {
			if f, ok := w.browserRevalidated(r); ok {
				out = append(out, f)
			}
			continue
		}
		xs := make([]blogharvest.Exchange, len(r.Exchanges))
		for i, x := range r.Exchanges {
			fetch.Redact(&x)
			if r.FromCache {
				x.Method, x.RequestHeader = "", nil
			}
			xs[i] = x
		}
		last := xs[len(xs)-1]
		f := blogharvest.File{URL: last.URL, Role: blogharvest.RoleRequisite, MediaType: http.Header(last.ResponseHeader).Get("Content-Type"),
			Body: r.Body, Captured: last.Sent, Status: last.Status, Header: last.ResponseHeader, Exchanges: xs}
		f.Sum()
		out = append(out, f)
		if f.Status >= 200 && f.Status < 300 {
			if _, ok := w.fetch.requisites.get(f.URL); !ok {
				w.fetch.requisites.put(f.URL, mediaResult{file: f})
			}
		}
	}
	return out
}

// browserRevalidated returns the requisite of a response the browser
// revalidated (its conditional request answered 304: Chromium's cache held
// the URL, told to check it by no-cache or past its freshness): the
// capture the 304 confirms, the crawl's fetch of that URL or else the one
// the requisites packages hold (Options.ArchivedRequisites), as the
// conditional request made and answered with that capture's status and
// headers freshened by the 304's (revalidate). aip records it as a revisit
// record naming that capture's response record. ok is false when the
// crawl holds no capture of the URL (the browser's cache came from
// elsewhere): no record could name what the 304 confirms, and none is
// written (doc/warc.md).
func (w *pageWorker) browserRevalidated(r render.Response) (blogharvest.File, bool) {
	xs := make([]blogharvest.Exchange, len(r.Exchanges))
	for i, x := range r.Exchanges {
		fetch.Redact(&x)
		xs[i] = x
	}
	last := xs[len(xs)-1]
	if m, ok := w.fetch.requisites.get(last.URL); ok && m.err == nil && m.file.Status >= 200 && m.file.Status < 300 && m.file.SHA256 != "" {
		return revalidate(m.file, xs[:len(xs)-1], last), true
	}
	if held, ok := w.fetch.stored.get(last.URL); ok {
		return revalidate(held.stored(), xs[:len(xs)-1], last), true
	}
	w.log.Info("browser request not recorded: a 304 revalidating a copy the crawl does not hold", "url", last.URL)
	return blogharvest.File{}, false
}

// holds reports whether the crawl captured u whole, as a requisite or as
// media.
func (fg *fetching) holds(u string) bool {
	if m, ok := fg.requisites.get(u); ok && m.err == nil && m.file.Status >= 200 && m.file.Status < 300 {
		return true
	}
	m, ok := fg.media.get(u)
	return ok && m.err == nil && m.file.Status >= 200 && m.file.Status < 300
}

// logBrowserUnrecorded is the debug message naming a request the browser
// sent rendering a page whose response it could not hand over while the
// crawl archives the file from its own fetch: the one request of the URL
// the server may have answered with no record of its own.
const logBrowserUnrecorded = "browser request not recorded; the crawl's own capture of the file stands"

// unrecordedRequisites records in the ledger what the browser loaded
// rendering a page but could not hand over (render.Result.Unrecorded),
// unless the crawl holds the file from another capture (the page's own
// requisites and media are fetched before this is called) or the scope
// rule refused it (then that refusal is its record).
func (w *pageWorker) unrecordedRequisites(res *render.Result) {
	for _, u := range res.Unrecorded {
		if u.URL == "" {
			w.log.Warn("requisites not recorded", "page", res.FinalURL, "why", u.Why)
			continue
		}
		if u.URL == res.FinalURL || w.requisiteRefusal(u.URL) != "" {
			continue
		}
		if w.fetch.holds(u.URL) {
			w.log.Debug(logBrowserUnrecorded, "url", u.URL, "why", u.Why)
			continue
		}
		w.refuseRequisite(u.URL, FateFailed, "the browser loaded it, its response is not recorded: "+u.Why)
	}
}

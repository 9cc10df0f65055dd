package harvest

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/comments"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/render"
)

// pageJob is one page to process, with what is known about it beforehand.
type pageJob struct {
	t        task
	item     *feed.Item // the feed's entry for the page; nil if none
	fromFeed bool       // queued from the feed (its item decides the entry)
	page     *fetchedPage
	err      error // why page is nil
	// cm is the post's comments as the comment stage gathers them
	// (harvest/comments; post() hands it over with the page as it stands).
	cm comments.Post
	// threads are the comment APIs the rendered page drew from, to watch,
	// threadCands the JSON its scripts fetched when it showed no comment
	// (comments.ThreadWatch).
	threads, threadCands []blogharvest.Validators
	// renderedReqs are the requisites the browser received rendering the
	// page, renderedMissed those it loaded (or began to) but could not
	// hand over: judged once the crawl's own fetches of the page's
	// requisites are done (unrecordedRequisites).
	renderedReqs   []blogharvest.File
	renderedMissed *render.Result
	// learned is the extraction learnSigns made of a training page with
	// the crawl's rules, handed once to buildEntry (takeExtraction) so
	// that the page is not extracted twice with the same rules.
	learned *learnedExtraction
}

// learnedExtraction is one extraction of a job's page and the rules that
// made it.
type learnedExtraction struct {
	rules *learn.Rules
	page  *fetchedPage
	ex    learn.Extraction
	err   error
}

// outcome is what processing a pageJob produced, for the coordinator.
type outcome struct {
	job       *pageJob
	info      *pageInfo // nil when no page was fetched
	url       *url.URL  // the page's identity
	post      bool      // the page is a post (for kNN training, only non-posts count)
	entry     *blogharvest.Entry
	fetched   bool
	unchanged bool   // UpdateCrawl: nothing new since
	queue     string // a canonical URL to queue instead (the page was a variant of it)
	stub      string // the target of a redirect stub page, to queue in its place
	err       error
}

// errNotHTML is returned for pages that turn out to be feeds or binaries.
var errNotHTML = errors.New("not an HTML page")

// notHTMLError is errNotHTML for one URL, with the media type served.
type notHTMLError struct{ URL, MediaType string }

func (e *notHTMLError) Error() string {
	return fmt.Sprintf("page %s: %v (%s)", e.URL, errNotHTML, e.MediaType)
}

func (e *notHTMLError) Unwrap() error { return errNotHTML }

// process fetches and processes one page (in a worker).
func (w *pageWorker) process(ctx context.Context, j *pageJob) outcome {
	j.item = w.claims.take(j.t.url)
	if w.changes.only && j.item != nil && !w.changes.itemChanged(j.item) && !j.t.again && !w.comments.ThreadChanged(j.t.url) {
		if w.changes.settled && !w.comments.Commented(j.t.url) {
			return outcome{job: j, unchanged: true} // its comments: the site comment feed or the item's count says
		}
		w.comments.FetchComments(ctx, j.post())
		if !comments.CommentsAfter(j.cm.Comments, w.changes.since) {
			return outcome{job: j, unchanged: true}
		}
	}
	if !j.t.again && w.recheckOnly(j) {
		return w.recheckPage(ctx, j)
	}
	j.page, j.err = w.fetchPage(ctx, j.t.url)
	return w.finish(ctx, j)
}

// releaseTree drops the job's parsed page (fetchedPage.doc) and the
// extraction learnSigns kept for it, once finish is done with them:
// handle and the archive read the page's bytes, headers and pageInfo,
// never its tree. A large post's tree is many times its bytes.
func (j *pageJob) releaseTree() {
	j.learned = nil
	if j.page != nil {
		j.page.doc = nil
	}
}

// finish turns a job whose page was fetched (or failed) into an outcome.
func (w *pageWorker) finish(ctx context.Context, j *pageJob) outcome {
	if j.page == nil {
		if j.item != nil && j.fromFeed && !errors.Is(j.err, blogharvest.ErrDisallowed) {
			e := w.feedOnlyEntry(j.item, fmt.Sprintf("page %s: %v", j.t.url, j.err))
			return outcome{job: j, entry: e, err: j.err, unchanged: w.changes.only && !w.changes.itemChanged(j.item)}
		}
		return outcome{job: j, err: j.err}
	}
	p := j.page
	p.unpark() // a large training page's tree, let go while the others' entries were built
	// The page's tree (and an extraction learnSigns kept, which points
	// into it) is read by nothing after the entry is built: released
	// here, so that the coordinator writes the entry (the content
	// digest's own parse of a large post above all) without holding it.
	defer j.releaseTree()
	out := outcome{job: j, info: p.info, url: p.url, fetched: true}
	w.noteRedirect(j.t.url, p)
	if p.stub != "" {
		out.info, out.stub = nil, p.stub // a redirect stub: its target is the page
		w.noteStub(j.t.url, p)
		return out
	}
	if isQueryVariant(p) && j.item == nil && !j.fromFeed {
		out.info, out.queue = nil, p.ident // a view of another page (?query-0-page=2, ?cst): never its content
		w.ledger.set(p.url.String(), FateDuplicate, "query view of "+p.ident, "")
		return out
	}
	if !w.claimIdentity(j, p) {
		out.info = nil // reached before under another URL: its links were seeded then
		return out
	}
	if p.ident != j.t.url {
		if j.item == nil {
			j.item = w.claims.take(p.ident)
		}
		out.url, _ = url.Parse(p.ident)
	}
	out.post = j.item != nil || j.t.kind == "post" || w.site.pattern.Match(out.url)
	if !out.post && j.t.kind != "page" && j.t.kind != "candidate" {
		w.ledger.set(p.ident, FateListing, "", "")
		return out
	}
	if out.post && j.item == nil && w.site.isListing(p) {
		out.post = false
		w.ledger.set(p.ident, FateListing, "listing inside the post pattern", "")
		return out
	}
	e := w.buildEntry(ctx, j, out.post)
	if e == nil {
		w.ledger.set(p.ident, FateListing, "navigation page without content of its own", "")
		return out
	}
	if reason := emptyEntry(e); reason != "" {
		w.ledger.set(p.ident, FateSkipped, reason, "")
		w.stats.warnf("page %s not archived: %s", p.ident, reason)
		return out
	}
	// UpdateCrawl keeps an entry the feed calls changed (itemChanged: it
	// cannot tell for a first-page item without a modification date; the
	// archive then decides by content) or that shows a change itself.
	if w.changes.only && !j.t.again && (j.item == nil || !w.changes.itemChanged(j.item)) && !w.comments.ThreadChanged(j.t.url) && !w.changes.entryChanged(e, j.t) {
		w.ledger.set(p.ident, FateSkipped, "unchanged since the last crawl", "")
		out.unchanged = true
		return out
	}
	out.entry = e
	return out
}

// noteRedirect records in the ledger that the task's URL was answered by
// an HTTP redirect, or is a variant of the page's canonical URL.
func (w *pageWorker) noteRedirect(task string, p *fetchedPage) {
	final := p.url.String()
	if final != task {
		w.ledger.set(task, FateRedirect, final, "")
		w.ledger.met(final, "redirect")
	}
	key := w.site.scope.fold(final) // a redirect's target under the other scheme
	if key != final {
		w.ledger.set(final, FateDuplicate, key+" (the blog's scheme: one page under both)", "redirect")
	}
	if p.ident != key && p.stub == "" && !isQueryVariant(p) {
		w.ledger.met(p.ident, "canonical")
		w.ledger.set(key, FateDuplicate, p.ident+" (rel=canonical)", "")
	}
}

// noteStub records a redirect stub: its URLs get the fate stub and become
// aliases of the target's entry; a feed item that named the stub waits for
// the target instead.
func (w *pageWorker) noteStub(task string, p *fetchedPage) {
	w.log.Info("redirect stub", "url", p.url.String(), "target", p.stub)
	w.claims.addStub(task, p.url.String(), p.stub)
	w.ledger.set(task, FateStub, p.stub, "")
	w.ledger.set(p.url.String(), FateStub, p.stub, "")
	w.ledger.met(p.stub, "stub")
}

// claimIdentity claims the page's canonical identity. A page whose
// rel=canonical names a URL already processed is a duplicate of it, unless
// it is a post by its own URL and the canonical is not (a theme that points
// every page's canonical at the home page or one post): it is then kept
// under its own URL. A page processed under its canonical URL claims its own
// URL too, so that a link to it does not fetch it again (and archive it
// twice). It reports whether the page is to be processed.
func (w *pageWorker) claimIdentity(j *pageJob, p *fetchedPage) bool {
	own := w.site.scope.fold(p.url.String())
	if w.claims.claim(p.ident) || j.t.again {
		if own != p.ident {
			w.claims.claim(own)
		}
		return true
	}
	canon, _ := url.Parse(p.ident)
	if own != p.ident && (j.item != nil || w.site.pattern.Match(p.url)) && (canon == nil || !w.site.pattern.Match(canon)) && w.claims.claim(own) {
		w.log.Info("canonical URL processed before; the post is kept under its own URL", "url", own, "canonical", p.ident)
		p.ident = own
		w.ledger.clear(own) // the canonical duplicate noted before no longer holds
		return true
	}
	w.ledger.set(j.t.url, FateDuplicate, p.ident+" (processed before)", "")
	w.ledger.set(own, FateDuplicate, p.ident+" (processed before)", "")
	w.log.Info("page skipped: its canonical URL was processed before", "url", own, "canonical", p.ident)
	return false
}

// emptyEntry returns why an entry holds nothing worth archiving (neither a
// title, a URL as title counting as none, nor an article, an image alone
// counting as one), or "".
func emptyEntry(e *blogharvest.Entry) string {
	title := strings.TrimSpace(e.Title)
	if (title == "" || title == e.URL) && strings.TrimSpace(e.Content) == "" {
		return "neither a title nor an article"
	}
	return ""
}

// isQueryVariant reports whether a page was fetched at a URL with a query
// string while its rel=canonical names another URL: a query view of that
// page (block pagination, sorting, tracking), not a page of its own.
func isQueryVariant(p *fetchedPage) bool {
	return p.url.RawQuery != "" && p.info.canonical != "" && p.ident != p.url.String()
}

// fetchPage fetches an HTML page, parses and reads it. Feeds and binaries get
// errNotHTML.
func (w *pageWorker) fetchPage(ctx context.Context, raw string) (*fetchedPage, error) {
	resp, err := w.fetch.client.Get(ctx, raw)
	if err != nil {
		return nil, err
	}
	return w.pageOf(raw, resp)
}

// pageOf turns the response for raw into a page; see fetchPage.
func (w *pageWorker) pageOf(raw string, resp *fetch.Response) (*fetchedPage, error) {
	if !isHTML(resp) {
		return nil, blogharvest.Permanent(&notHTMLError{URL: raw, MediaType: resp.MediaType()})
	}
	p, err := stubbedPage(resp)
	if err != nil {
		return nil, err
	}
	// Every identity the page names passes the crawl's canonicaliser
	// (scope.fold): the URL a redirect ended at, the stub's target and the
	// rel=canonical, under the blog's scheme for the blog's hosts.
	sc := w.site.scope
	p.ident = sc.fold(p.ident)
	if p.stub != "" {
		if p.stub = sc.fold(p.stub); p.stub == p.ident {
			p.stub = "" // its target is the page itself under the other scheme
		}
	}
	if canon := sc.fold(p.info.canonical); canon != "" && p.stub == "" {
		// a canonical naming the home page on another page is a theme's
		// mistake, not an identity: the home page is no entry
		if u, err := url.Parse(canon); err == nil && sc.contains(u) && (w.site.home == nil || !sameHome(u, w.site.home) || sameHome(p.url, w.site.home)) {
			p.ident = canon
		}
	}
	return p, nil
}

// stubbedPage reads resp as a page with its redirect stub's target
// (stubTarget; "" when it is none): for pageOf and for the move stage's
// archived URLs (discoverStub).
func stubbedPage(resp *fetch.Response) (*fetchedPage, error) {
	p, err := newFetchedPage(resp)
	if err != nil {
		return nil, err
	}
	p.stub = stubTarget(p.doc, p.url, p.info.canonical)
	return p, nil
}

// sameHome reports whether u names the home page h, under either scheme
// (a theme that writes every canonical as https://host/ on a blog served
// over http names the home page all the same).
func sameHome(u, h *url.URL) bool {
	return strings.EqualFold(u.Host, h.Host) && u.Path == h.Path && u.RawQuery == h.RawQuery &&
		(strings.EqualFold(u.Scheme, h.Scheme) || strings.EqualFold(u.Scheme, "https") || strings.EqualFold(h.Scheme, "https"))
}

// isHTML reports whether a response is an HTML page (not a feed or file).
func isHTML(resp *fetch.Response) bool {
	if feed.Sniff(resp.Body) {
		return false
	}
	mt, _, _ := mime.ParseMediaType(resp.MediaType())
	return mt == "text/html" || mt == "application/xhtml+xml" || mt == "" || strings.HasPrefix(mt, "text/plain") && isHTMLBytes(resp.Body)
}

// isHTMLBytes reports whether b starts like an HTML document.
func isHTMLBytes(b []byte) bool {
	s := strings.ToLower(strings.TrimSpace(string(b[:min(len(b), 512)])))
	return strings.HasPrefix(s, "<!doctype html") || strings.HasPrefix(s, "<html")
}

// begin hands the page worker what the set-up learned of the blog: its
// own copy of the site s (the Blog record's files left out: they are the
// coordinator's, and the worker reads none of them), the home page, whose
// scripts are no widget's loader (scriptwidget.go), and the comment
// stage; it builds the page reading stage (reading.go) from the copy.
// The site holds no rules and no content-test signs: they are the
// crawl's learned value, handed to the reading by useRules. Called once by the coordinator, before the first page job (the
// training pages' included); nothing the coordinator writes to its site
// after that reaches the worker.
func (w *pageWorker) begin(s site, home *fetchedPage, cm *comments.Stage) {
	s.blog.Files = nil
	w.site = &s
	w.read = newReading(w.site, w.stats)
	w.changes.site = w.site
	w.widgets.setHome(home)
	w.comments = cm
}

// useRules hands the page worker a copy of what the coordinator learned
// (l, the crawl's learned value): the rules and the content test's signs
// (postsigns.go) to the page reader, the rules' file, which every entry
// carries (addFiles), to the worker. Called by the coordinator after the
// training pages are fetched and before any of them is turned into an
// entry.
func (w *pageWorker) useRules(l learned) {
	w.read.useRules(l.rules, l.signs)
	w.rulesF = l.file
}

// useClient hands the page worker's fetching the crawl's client; called
// once by the coordinator (newClient), before the first page is fetched
// (the home page's requisites and the training pages' included).
func (w *pageWorker) useClient(cl *fetch.Client) {
	w.fetch.client = cl
}

// pageResult is what the page worker learned for the whole crawl, handed
// back to the coordinator as a value (pageWorker.result) for the Blog
// record, the State and the Result.
type pageResult struct {
	sideFiles   []blogharvest.File // first pages of the side feeds that dated a post (feeddates.go)
	shapes      []string           // comment shapes kept for State.CommentShapes (commentshapes.go)
	widgets     []string           // widget loader scripts for State.WidgetScripts (scriptwidget.go)
	renders     map[string]int     // Result.Renders
	notRendered map[string]int     // Result.NotRendered
}

// result returns what the worker learned so far as a pageResult; the
// coordinator asks for it when no page job runs (after the drain, or
// before the first).
func (w *pageWorker) result() pageResult {
	var acc Result
	w.account.fill(&acc)
	return pageResult{sideFiles: w.side.captures(), shapes: w.shapes.kept(), widgets: w.widgets.list(),
		renders: acc.Renders, notRendered: acc.NotRendered}
}

// fill copies the render counts into res.
func (pr pageResult) fill(res *Result) {
	res.Renders, res.NotRendered = pr.renders, pr.notRendered
}

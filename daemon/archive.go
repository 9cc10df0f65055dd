package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/report"
)

// harvester runs one crawl of a blog; harvest's NewCrawl and UpdateCrawl
// behind it in production, fakes in the tests of what the daemon does
// with a run's end (backoff after a failure, an interrupted run). A zero
// since asks for a NewCrawl.
type harvester interface {
	Harvest(ctx context.Context, o harvest.Options, since time.Time, emit func(harvest.Record) error) (*harvest.Result, error)
}

// crawler is the production harvester.
type crawler struct{}

var _ harvester = crawler{}

func (crawler) Harvest(ctx context.Context, o harvest.Options, since time.Time, emit func(harvest.Record) error) (*harvest.Result, error) {
	if since.IsZero() {
		return harvest.NewCrawl(ctx, o, emit)
	}
	return harvest.UpdateCrawl(ctx, o, since, emit)
}

// writeGrace bounds how long an AIP write may go on after its harvest was
// cancelled: a write in flight is finished, never cut off.
const writeGrace = 2 * time.Minute

// tally counts what one run archived. Safe for concurrent use.
type tally struct {
	entries, unchanged, blogs, comments, bytes, failedWrites atomic.Int64
	newEntries                                               atomic.Int64 // entries written as version 1
	overBudget                                               atomic.Bool  // the crawl ran out of max_duration
	unrendered                                               atomic.Int64 // pages archived without the rendering they needed

	mu           sync.Mutex
	firstInvalid string // the first entry not archived and why
	// kept counts the captures not written because their fields were
	// worse than the archived version's (fieldsworse.go); firstKept says
	// the first and why.
	kept      int
	firstKept string

	notes runNotes  // last AIPs and extraction methods, for the run history
	start time.Time // when the run started
	run   RunRecord // the run's record, made when it ended (runner.record)
}

// invalid counts an entry that could not be archived and keeps the first
// reason.
func (t *tally) invalid(url string, err error) {
	t.failedWrites.Add(1)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.firstInvalid == "" {
		t.firstInvalid = fmt.Sprintf("entry %s not archived: %v", url, err)
	}
}

// keptWorse counts a capture of url not written because its fields were
// worse than the archived version's (why), keeping the first.
func (t *tally) keptWorse(url, why string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.kept++
	if t.firstKept == "" {
		t.firstKept = url + ": " + why
	}
}

// keptSummary says how many captures were not written because their
// fields were worse, and the first; "" when none.
func (t *tally) keptSummary() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.kept == 0 {
		return ""
	}
	return fmt.Sprintf("%d captures not archived: their fields were worse than the archived version's (the first: %s)", t.kept, t.firstKept)
}

// invalidSummary says how many entries were not archived and why the first
// was not; "" when all were.
func (t *tally) invalidSummary() string {
	n := t.failedWrites.Load()
	if n == 0 {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return fmt.Sprintf("%d entries not archived (invalid records); the first: %s", n, t.firstInvalid)
}

// Entry AIPs are written as a group commit (aip.Batch): a flush after
// batchBags bags staged, or when the oldest has waited batchWait, at the
// crawl's end and before the Blog AIP. doc/storage.md has the figures.
const (
	batchBags = 8
	batchWait = 2 * time.Second
)

// archiver streams a crawl's records into the AIP writer. Entry AIPs go
// through batch: a post is counted as archived (tally, run notes, metrics,
// the on_publish kick, progress) from the flush's report (entryPublished),
// never when it is staged; a failed flush fails the next record, so no
// Blog AIP is written whose ledger lists a post as archived that is not.
type archiver struct {
	w       *aip.Writer
	batch   *aip.Batch // newArchiver's, over w
	m       *metrics   // may be nil
	log     *slog.Logger
	t       *tally
	onEntry func(e *blogharvest.Entry) // progress; may be nil
	// again reports whether a Blog record must be written as a new
	// version even when unchanged (ledgerContradicted); may be nil.
	again func(b *blogharvest.Blog) bool
	// published is called after each AIP written (and announced in the
	// publication log): the on_publish hand-off's kick; may be nil.
	published func()
	// store is the archive read for each entry's newest version, to keep
	// a capture whose fields got worse out (fieldsworse.go); nil: none is
	// read.
	store aip.Store

	mu       sync.Mutex
	flushErr error // the first bag a flush could not publish
}

// startBatch gives a its batch over a.w; finish flushes it.
func (a *archiver) startBatch() {
	a.batch = a.w.NewBatch(batchBags, batchWait, a.entryPublished)
}

// finish flushes what the crawl staged (it ended, failed or was
// cancelled: the bags staged are published whole, on a context of their
// own) and returns the first bag of the run that could not be published.
func (a *archiver) finish(ctx context.Context) error {
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), writeGrace)
	defer cancel()
	a.batch.Close(fctx) // its failures are reported to entryPublished
	return a.failed()
}

// failed returns the first bag a flush could not publish.
func (a *archiver) failed() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.flushErr
}

// entryPublished is the batch's report of one Entry AIP: the post is
// counted archived when its bag was published, else the run fails.
func (a *archiver) entryPublished(p aip.Published) {
	if p.Err != nil {
		a.log.Error("entry not archived: its bag could not be published", "url", p.Entry.URL, "err", p.Err)
		a.mu.Lock()
		if a.flushErr == nil {
			a.flushErr = fmt.Errorf("archive entry %s: %w", p.Entry.URL, p.Err)
		}
		a.mu.Unlock()
		return
	}
	res := p.Result
	a.count(res, &a.t.entries, len(p.Entry.Comments))
	if res.Version == 1 {
		a.t.newEntries.Add(1)
	}
	a.t.notes.change(Change{URL: p.Entry.URL, Bag: res.Dir, Version: res.Version})
	a.countMethods(p.Entry)
	if a.onEntry != nil {
		a.onEntry(p.Entry)
	}
}

// emit writes one record. The write runs on a context detached from the
// crawl's, so cancelling a crawl lets the AIP being written finish. An entry
// that cannot be archived because it is invalid is logged and skipped (the
// crawl goes on); any other write failure stops the crawl.
func (a *archiver) emit(ctx context.Context, r harvest.Record) error {
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), writeGrace)
	defer cancel()
	if err := a.failed(); err != nil {
		return err
	}
	switch {
	case r.Blog != nil:
		// The entries first: the Blog AIP's ledger lists them as
		// archived, and ledgerContradicted reads the archive.
		if err := a.batch.Flush(wctx); err != nil {
			return fmt.Errorf("archive blog %s: %w", r.Blog.ID, a.failed())
		}
		write := a.w.WriteBlog
		if harvest.RecordsWithdrawal(r.Blog) {
			a.log.Info("Blog AIP written as a new version: its crawl ledger records a post withdrawn from the live blog or restored")
			write = a.w.WriteBlogAgain
		} else if a.again != nil && a.again(r.Blog) {
			a.log.Info("Blog AIP written again: its crawl ledger lists as not archived what this crawl archived (an interrupted crawl completed)")
			write = a.w.WriteBlogAgain
		}
		res, err := write(wctx, r.Blog)
		if err != nil {
			return fmt.Errorf("archive blog %s: %w", r.Blog.ID, err)
		}
		a.count(res, &a.t.blogs, 0)
	case r.Entry != nil:
		if a.store != nil && a.batch.Holds(r.Entry) { // its newest version is staged: read it published
			if err := a.batch.Flush(wctx); err != nil {
				return a.failed()
			}
		}
		if old := archivedVersion(a.store, a.w, r.Entry); old != nil {
			keepArchivedSplit(r.Entry, old)
			// A post at a new URL (a move) is written: its new version
			// carries the move, whatever the new engine shows.
			if why := keptReason(r.Entry, old); why != "" && old.Permalink == r.Entry.URL {
				a.t.unchanged.Add(1)
				a.t.keptWorse(r.Entry.URL, why)
				a.log.Warn("version not archived: its fields are worse than the archived version's (the rules or the page broke); the archived version stands",
					"url", r.Entry.URL, "archived", old.Permalink, "why", why)
				return nil
			}
		}
		res, err := a.batch.WriteEntry(wctx, r.Entry)
		if err != nil && !blogharvest.IsTransient(err) {
			a.t.invalid(r.Entry.URL, err)
			a.log.Error("entry not archived: invalid record", "url", r.Entry.URL, "err", err)
			return nil
		}
		if err != nil {
			return fmt.Errorf("archive entry %s: %w", r.Entry.URL, err)
		}
		if res.Pending {
			return a.failed() // counted when its flush reports it; a flush this write made may have failed
		}
		a.count(res, &a.t.entries, len(r.Entry.Comments)) // unchanged: the archived version stands
		a.countMethods(r.Entry)
		if a.onEntry != nil {
			a.onEntry(r.Entry)
		}
	}
	return nil
}

func (a *archiver) count(res aip.Result, n *atomic.Int64, comments int) {
	if !res.Written {
		a.t.unchanged.Add(1)
		if a.m != nil {
			a.m.unchanged.Inc()
		}
		return
	}
	n.Add(1)
	if a.published != nil {
		a.published()
	}
	a.t.notes.aip(res.Dir)
	a.t.bytes.Add(res.PayloadBytes)
	a.t.comments.Add(int64(comments))
	a.log.Debug("AIP written", "dir", res.Dir, "version", res.Version, "bytes", res.Bytes)
	if a.m == nil {
		return
	}
	if n == &a.t.blogs {
		a.m.blogAIPs.Inc()
	} else {
		a.m.entries.Inc()
		a.m.comments.Add(comments)
	}
	a.m.bytes.AddInt64(res.Bytes)
}

func (a *archiver) countMethods(e *blogharvest.Entry) {
	a.t.notes.provenance(e.Provenance)
	if a.m == nil {
		return
	}
	for field, method := range e.Provenance {
		a.m.methods.WithLabelValues(field, string(method)).Inc()
	}
}

// rendersOf sums up a crawl's renders for its log line: "reason=N …",
// then "not:why=N …"; "none" when nothing was rendered or refused.
func rendersOf(res *harvest.Result) string {
	if res == nil || len(res.Renders) == 0 && len(res.NotRendered) == 0 {
		return "none"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(res.Renders)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, res.Renders[k]))
	}
	for _, k := range slices.Sorted(maps.Keys(res.NotRendered)) {
		parts = append(parts, fmt.Sprintf("not:%s=%d", k, res.NotRendered[k]))
	}
	return strings.Join(parts, " ")
}

func humanBytes(n int64) string { return report.HumanBytes(n) }

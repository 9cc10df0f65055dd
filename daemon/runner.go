package daemon

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/schedule"
)

// runner runs one harvest of a blog into the archive and records its
// outcome (the roles that crawl: the local daemon and a cluster worker):
// it counts and logs the run, makes its record (tally.run, record) and
// its summary (reportOf), keeps the identity evidence of a stranger
// (identity.go), keeps each blog's robots.txt and rules in memory for its
// next crawl (polite.go: previous, carry) and shows the runs going on
// (progress.go: liveProgress). Where the run's end is stored is the
// role's: the local daemon's schedule store, a worker's report.
type runner struct {
	env       *env
	arch      *archive
	harvester harvester
	published func() // tells the on_publish hand-off that a bag was published

	mu          sync.Mutex
	carried     carryCache        // robots.txt and rules of each blog's last crawl (memory only)
	carryBudget int64             // bytes carried at most; 0: carryBudget
	live        map[string]*tally // the runs going on in this process, by blog id
}

// newRunner returns the runner of a role writing into a, with the
// production harvester.
func newRunner(e *env, a *archive) *runner {
	return &runner{env: e, arch: a, harvester: crawler{}, published: func() {}}
}

// crawl runs one harvest of b (NewCrawl with a zero since) into the
// archive, counting and logging it, and returns its outcome; the run's
// record is the tally's run, for the caller to keep (Daemon.finish).
func (r *runner) crawl(ctx context.Context, b Blog, since time.Time, prev harvest.State,
	progress func(*blogharvest.Entry)) (string, *tally, *harvest.Result, error) {
	return r.crawlAccepting(ctx, b, since, prev, progress, false)
}

// crawlAccepting is crawl; accepted says the archivist accepted a change
// of the blog's identity (accept_change): the crawl does not check it
// (harvest.Options.AcceptIdentity).
func (r *runner) crawlAccepting(ctx context.Context, b Blog, since time.Time, prev harvest.State,
	progress func(*blogharvest.Entry), accepted bool) (string, *tally, *harvest.Result, error) {
	e := r.env
	log := e.Logger.With("blog", b.ID)
	start := e.Now()
	e.metrics.running.Inc()
	defer e.metrics.running.Dec()
	if since.IsZero() {
		log.Info("harvest started", "mode", "new")
	} else {
		log.Info("harvest started", "mode", "update", "since", since)
	}
	t := &tally{start: start}
	r.setLive(b.ID, t)
	defer r.setLive(b.ID, nil)
	res, runErr := r.harvest(ctx, b, since, prev, t, log, progress, accepted)
	r.keepIdentityEvidence(ctx, b.ID, start, res, runErr)
	outcome := outcomeOf(runErr, t)
	if interrupted(ctx, runErr) {
		outcome = schedule.OutcomeInterrupted
	}
	r.record(start, outcome, t, res, runErr)
	e.metrics.runs.WithLabelValues(outcome).Inc()
	e.metrics.duration.WithLabelValues(outcome).Update(e.Now().Sub(start).Seconds())
	switch {
	case outcome == schedule.OutcomeInterrupted:
		log.Warn("harvest interrupted; it runs again at the next start", "err", runErr, "archived", t.stats().String())
	case runErr != nil:
		log.Error("harvest failed", "err", runErr, "archived", t.stats().String(), "fates", fatesOf(res))
	default:
		log.Info("harvest finished", "archived", t.stats().String(), "pages", res.Pages, "requests", requestsOf(res),
			"duration", e.Now().Sub(start).Round(time.Millisecond), "fates", fatesOf(res), "delayed", res.Delayed,
			"renders", rendersOf(res))
	}
	return outcome, t, res, runErr
}

// harvest runs one crawl of b into the archive.
func (r *runner) harvest(ctx context.Context, b Blog, since time.Time, prev harvest.State, t *tally, log *slog.Logger,
	progress func(*blogharvest.Entry), accepted bool) (*harvest.Result, error) {
	v := r.arch.view
	a := &archiver{w: r.arch.writer, m: r.env.metrics, log: log, t: t, onEntry: progress, published: r.published,
		again: func(b *blogharvest.Blog) bool { return ledgerContradicted(v.store(), b) }, store: v.store()}
	a.startBatch()
	o := crawlOptions(r.env.Config, b, log)
	o.State = prev
	o.AcceptIdentity = accepted
	o.Progress = t.notes.setStep
	if s := slotOf(ctx); s != nil {
		o.HostWait = s.wait // lend the harvest slot while waiting on a host's politeness
	}
	if !since.IsZero() {
		o.Archived = v.archivedMedia(log)
		o.ArchivedRequisites = v.archivedRequisites(o.Blog.ID, log)
		o.ArchivedPosts = v.archivedPosts(ctx, o.Blog.ID)
	}
	res, err := r.harvester.Harvest(ctx, o, since, func(rec harvest.Record) error { return a.emit(ctx, rec) })
	if ferr := a.finish(ctx); ferr != nil && err == nil {
		err = ferr // a bag staged at the crawl's end not published: the run failed
	}
	r.env.metrics.recordFetches(res)
	r.env.metrics.recordRenders(res)
	if res != nil && res.OverBudget {
		t.overBudget.Store(true)
	}
	if res != nil {
		t.unrendered.Store(int64(res.Unrendered))
	}
	return res, err
}

// warningOf is what the status page shows as a run's warning: what it
// kept back (tally.keptSummary), else its last warning; "" without a
// result.
func warningOf(t *tally, res *harvest.Result) string {
	if res == nil {
		return ""
	}
	if k := t.keptSummary(); k != "" {
		return k
	}
	return lastOf(res.Warnings)
}

package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"log/slog"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/dispatch"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/schedule"
)

// Daemon is the local daemon: it schedules the configured blogs (its
// planner) and runs their harvests in this process (its runner, writing
// into its archive), through dispatch.Local and a bounded pool of harvest
// slots (slots.go); it runs the fixity audits and the on_publish
// hand-off. Create it with NewDaemon, adjust its env, then Open; Close
// stops it. A cluster's scheduler is ClusterScheduler, its workers
// Worker.
type Daemon struct {
	env  *env
	life life
	arch *archive // the archive written into
	run  *runner  // one harvest and its outcome
	plan *planner // the schedule store and the schedule; set by openStore

	views  entryViews      // the entries as they looked, as WACZ files (entryview.go)
	local  *dispatch.Local // the in-process dispatcher: the pool's queue; set by Open
	slots  slotPool        // the in-process harvest slots (Config.Concurrency)
	audits *auditor        // the fixity audits (audit.go); set by Open
	hand   *handoff        // the on_publish command's delivery (handoff.go); nil without one
	// watchKept, set by `crawl -out` only (before its runs), says to keep
	// each blog's thread watch in the archive after a run that changed it
	// (keepWatch); it holds, by blog id, the watch the archive holds.
	watchKept map[string]harvest.Watch
}

// NewDaemon returns a Daemon for c with production defaults.
func NewDaemon(c *Config) *Daemon {
	e := newEnv(c)
	a := newArchive(e)
	d := &Daemon{env: e, arch: a, run: newRunner(e, a)}
	d.run.published = func() { d.hand.published() }
	return d
}

// Open locks the archive and sweeps unfinished AIPs, opens the schedule
// store (failing fast if another process holds either; unless openStore
// did already), recounts the entries of runs a killed process left
// unfinished, and starts scheduling every blog into the pool.
func (d *Daemon) Open() error {
	c := d.env.Config
	if d.plan == nil {
		if err := d.openStore(); err != nil {
			return err
		}
	}
	if err := d.plan.recountUnfinished(d.arch.view); err != nil {
		d.closeStore()
		return err
	}
	d.life.begin()
	if err := d.plan.plan(c, d.enqueueLocked, &d.life); err != nil {
		d.closeStore()
		return err
	}
	d.startLocal(max(c.Concurrency, 1))
	d.hand = startHandoff(d.env, &d.life, d.arch.store)
	d.startAudits()
	return d.plan.sched.Open()
}

// openStore prepares the archive (archive.open: its lock, before anything
// touches <archive>/.tmp, and the sweep of unfinished AIPs), then opens
// the schedule store (openPlanner). closeStore undoes it.
func (d *Daemon) openStore() error {
	if err := d.arch.open(context.Background(), aip.LockArchive); err != nil {
		return err
	}
	p, err := openPlanner(d.env, 1)
	if err != nil {
		d.arch.close()
		return err
	}
	d.plan = p
	return nil
}

// closeStore closes the schedule store and releases the archive's lock.
func (d *Daemon) closeStore() error {
	var err error
	if d.plan != nil {
		err = d.plan.close()
	}
	return errors.Join(err, d.arch.close())
}

// settings returns the daemon's env (service).
func (d *Daemon) settings() *env { return d.env }

// Lost is nil for the local daemon: only a cluster's scheduler has a
// lease to lose.
func (d *Daemon) Lost() <-chan struct{} { return nil }

// leave does nothing: the local daemon holds nothing before openStore.
func (d *Daemon) leave() {}

// Reload replaces the config (planner.Reload) and has the audits read
// their schedule again.
func (d *Daemon) Reload(c *Config) error {
	if err := d.plan.Reload(c); err != nil {
		return err
	}
	d.audits.reloaded()
	return nil
}

// source is what the daemon's status server shows (statusSource).
func (d *Daemon) source() *statusSource {
	return &statusSource{env: d.env, plan: d.plan, view: d.arch.view, views: &d.views, role: d}
}

// Status returns every configured blog's status, sorted by id.
func (d *Daemon) Status() ([]BlogStatus, error) { return d.source().Status() }

// Handler serves the status pages, /status, /healthz and /metrics.
func (d *Daemon) Handler() http.Handler { return d.source().Handler() }

// progress is the progress of blog id's run going on here (shown).
func (d *Daemon) progress(id string) *RunProgress { return d.run.liveProgress(id) }

// flightOf is false: the local daemon's runs have no workers (shown).
func (d *Daemon) flightOf(string) (flight, bool) { return flight{}, false }

// auditStatus is the audits' part of /status (shown).
func (d *Daemon) auditStatus() *AuditStatus { return d.audits.status(d.plan.config()) }

// extra adds nothing: /status's "audit" is auditStatus (shown).
func (d *Daemon) extra(map[string]any) {}

// RunStats counts what one run archived.
type RunStats struct {
	Entries   int   // entry AIPs written (new entries and new versions)
	Unchanged int   // entries (and blogs) harvested whose content had not changed
	Blogs     int   // blog AIPs written
	Comments  int   // comments in the entry AIPs written
	Bytes     int64 // payload bytes of the AIPs written (aip.TallyDefinition)
	Invalid   int   // entries not archived because their record was invalid
}

func (t *tally) stats() RunStats {
	return RunStats{Entries: int(t.entries.Load()), Unchanged: int(t.unchanged.Load()), Blogs: int(t.blogs.Load()),
		Comments: int(t.comments.Load()), Bytes: t.bytes.Load(), Invalid: int(t.failedWrites.Load())}
}

// RunBlog harvests blog b now, NewCrawl on its first run and UpdateCrawl
// from its watermark afterwards, writing AIPs and recording the run in the
// schedule store. progress, if not nil, is told of each entry archived.
func (d *Daemon) RunBlog(ctx context.Context, b Blog, progress func(*blogharvest.Entry)) error {
	_, _, err := d.runScheduled(ctx, b, progress, nil)
	return err
}

// runBlog is RunBlog, returning what the run archived too; it leaves the
// blog's next due time alone (the crawl command's runs).
func (d *Daemon) runBlog(ctx context.Context, b Blog, progress func(*blogharvest.Entry)) (RunStats, error) {
	st, _, err := d.runScheduled(ctx, b, progress, nil)
	return st, err
}

// runScheduled is runBlog; with next not nil, the blog's schedule, the
// run's end stores the blog's next due time from its outcome (setNext) in
// the same transaction as the outcome and the run's record, and sets it
// in the scheduler, which rescheduled reports (the pool's runs: runTask;
// not when the run was paused or the daemon is stopping, which runTask
// handles as before).
func (d *Daemon) runScheduled(ctx context.Context, b Blog, progress func(*blogharvest.Entry), next *schedule.Spec) (RunStats, bool, error) {
	start := d.env.Now()
	var since, changed time.Time
	var prev schedule.State
	err := d.plan.store.Update(b.ID, func(st *schedule.State) error {
		if changed = st.IdentityChanged; !changed.IsZero() && !b.AcceptChange.Accepts(changed) {
			return nil // paused: nothing asked, nothing written (daemon/identity.go)
		}
		since, prev = st.Watermark, *st
		st.LastStart, st.Outcome = start, schedule.OutcomeRunning
		st.Runs++
		return nil
	})
	if err != nil {
		return RunStats{}, false, err
	}
	if !changed.IsZero() && !b.AcceptChange.Accepts(changed) {
		d.env.Logger.Warn("blog paused: the site at its address is no longer the blog archived; set accept_change to that day or later to archive it as the blog's",
			"blog", b.ID, "identity_changed", changed.UTC().Format(time.DateOnly))
		return RunStats{}, false, nil
	}
	accepted := !changed.IsZero()
	if accepted {
		d.env.Logger.Info("identity change accepted (accept_change): the site at the address is archived as the blog's",
			"blog", b.ID, "identity_changed", changed.UTC().Format(time.DateOnly), "accept_change", b.AcceptChange.Format(time.DateOnly))
	}
	outcome, t, res, runErr := d.run.crawlAccepting(ctx, b, since, d.run.previous(b.ID, prev), progress, accepted)
	if res != nil {
		d.plan.setWarning(b.ID, warningOf(t, res))
	}
	var ie *harvest.IdentityError
	switch {
	case next == nil:
	case errors.Is(runErr, context.Canceled) && d.life.ctx.Err() != nil:
		next = nil // stopping: the run is retried at the next start (runTask)
	case errors.As(runErr, &ie):
		next = nil // keepIdentity changes the state setNext reads: runTask reschedules after it
	}
	rescheduled := d.finish(b.ID, outcome, t, res, runErr, next)
	d.keepIdentity(b.ID, start, accepted, runErr)
	return t.stats(), rescheduled, runErr
}

// interrupted reports whether a run ended because its context was
// cancelled (the daemon or the command is stopping), not by a failure.
func interrupted(ctx context.Context, runErr error) bool {
	return runErr != nil && errors.Is(ctx.Err(), context.Canceled)
}

// finish records a run's end, whose outcome is given, in the schedule
// store, and keeps its record (t.run) in the run history: one write
// (schedule.Store.EndRun) for the outcome, the record and, with next
// set, the blog's next due time (setNext), which it then sets in the
// scheduler and reports true. An interrupted run is no failure: Failures
// and the watermark stay. If the state is not saved, the record is still
// kept (planner.keepRun) and next is left to the caller (false).
func (d *Daemon) finish(id, outcome string, t *tally, res *harvest.Result, runErr error, next *schedule.Spec) bool {
	rep := d.run.reportOf(outcome, t, res, runErr)
	now := d.env.Now()
	var downAfter time.Duration
	if next != nil {
		if b, _, ok := d.plan.blog(id); ok {
			downAfter = time.Duration(b.DownAfter)
		}
	}
	data, err := json.Marshal(t.run)
	var after schedule.State
	stored := false
	if err == nil {
		after, err = d.plan.store.EndRun(id, func(st *schedule.State) error {
			rep.apply(st, now)
			if next != nil {
				setNext(st, *next, runErr, now, downAfter)
			}
			return nil
		}, data, historyLen)
		stored = err == nil
	}
	if err != nil {
		d.env.Logger.Error("schedule state not saved", "blog", id, "err", err)
		d.plan.keepRun(id, t.run) // the record on its own, in memory and in the file
	} else {
		// The run's record in memory once its outcome is stored, as before
		// the one write: /status shows a blog's state and its last run
		// from memory, and a last run newer than the state's outcome
		// showed a failed run without its error
		// (TestStatusLastErrorHasNoLocalPath).
		d.plan.history.add(id, t.run)
		d.plan.notifyRun(id, after)
		if next != nil {
			d.plan.setDueAt(id, *next, after.NextDue)
		}
	}
	if runErr == nil && res != nil {
		var due time.Time
		if _, spec, ok := d.plan.blog(id); ok {
			due = spec.Next(d.env.Now())
		}
		d.run.carry(id, res.State, due)
		d.keepWatch(id, res.State.CrawlState)
	}
	return stored && next != nil
}

func outcomeOf(err error, t *tally) string {
	switch {
	case err != nil:
		return schedule.OutcomeFailed
	case t.failedWrites.Load() > 0:
		return schedule.OutcomePartial
	case t.overBudget.Load(), t.unrendered.Load() > 0:
		return schedule.OutcomePartial
	}
	return schedule.OutcomeOK
}

func lastOf(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}

// crawlOptions turns a configured blog into harvest options.
func crawlOptions(c *Config, b Blog, log *slog.Logger) harvest.Options {
	inc, exc := b.Regexps()
	var auth *harvest.BasicAuth
	if b.Auth.set() {
		auth = &harvest.BasicAuth{User: b.Auth.User, Password: b.Auth.password}
	}
	return harvest.Options{
		Auth:       auth,
		Blog:       blogharvest.Blog{ID: b.ID, URL: b.URL, FeedURL: b.Feed},
		MaxPages:   b.MaxPages,
		Delay:      time.Duration(b.Delay),
		PerHost:    b.Concurrency,
		Render:     b.Render,
		Include:    inc,
		Requisites: b.Requisites,
		Exclude:    exc,
		Allow:      b.Allow,
		UserAgent:  c.UserAgent,
		CAFile:     c.CAFile,
		Logger:     log,

		MaxDuration:      time.Duration(b.MaxDuration),
		MaxRenders:       b.MaxRenders,
		RenderTimeout:    time.Duration(b.RenderTimeout),
		MaxCrawlDelay:    time.Duration(b.MaxCrawlDelay),
		StrictCrawlDelay: b.ObeyCrawlDelay == CrawlDelayStrict,
		RecheckPosts:     recheckPosts(b.RecheckPosts),

		MaxURLs:               b.MaxURLs,
		MaxSitemapBytes:       int64(b.MaxSitemapBytes),
		MaxComments:           b.MaxComments,
		MaxCommentsPerAnswer:  b.MaxCommentsPerAnswer,
		MaxCommentBytes:       int64(b.MaxCommentBytes),
		MaxCommentAnswerBytes: int64(b.MaxCommentAnswer),
	}
}

// Close stops scheduling, cancels running harvests (letting AIP writes in
// flight finish), waits for them up to Grace, and closes the store.
func (d *Daemon) Close() error {
	if d.plan != nil && !d.plan.halt() {
		return nil
	}
	d.life.end(d.env)
	d.views.close()
	if d.local != nil {
		d.local.Close()
	}
	return d.closeStore()
}

// String sums the stats up for logs and the crawl command.
func (s RunStats) String() string {
	return fmt.Sprintf("%d entry AIPs written, %d unchanged, %d comments, %d blog AIPs, %s of payload",
		s.Entries, s.Unchanged, s.Comments, s.Blogs, humanBytes(s.Bytes))
}

func (s RunStats) add(o RunStats) RunStats {
	return RunStats{Entries: s.Entries + o.Entries, Unchanged: s.Unchanged + o.Unchanged, Blogs: s.Blogs + o.Blogs,
		Comments: s.Comments + o.Comments, Bytes: s.Bytes + o.Bytes, Invalid: s.Invalid + o.Invalid}
}

// requestsOf counts a crawl's HTTP exchanges (Result.Fetches).
func requestsOf(res *harvest.Result) int {
	n := 0
	for _, k := range res.Fetches {
		n += k
	}
	return n
}

// fatesOf sums a crawl's ledger up per fate for the run's log line
// (harvest.FateSummary); "" without a result.
func fatesOf(res *harvest.Result) string {
	if res == nil {
		return ""
	}
	return harvest.FateSummary(res.Ledger)
}

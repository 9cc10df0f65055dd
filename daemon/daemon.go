package daemon

import (
	"context"
	"errors"
	"fmt"

	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/dispatch"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/schedule"
)

// Daemon schedules and runs the harvests of the configured blogs. Create it
// with NewDaemon, adjust the exported fields, then Open; Close stops it.
type Daemon struct {
	Config *Config
	Logger *slog.Logger
	Now    func() time.Time // the clock; defaults to time.Now
	// Grace bounds how long Close waits for harvests to end after
	// cancelling them (AIP writes in flight finish within it). If zero, 30s.
	Grace time.Duration

	rejoining  bool // a cluster scheduler standing by again after losing its lease: NATS unreachable is waited out
	harvester  harvester
	httpLimits httpLimits       // the status server's; zero: defaultHTTPLimits
	lock       *aip.ArchiveLock // one writer per archive: held from openStore to Close
	store      *schedule.Store
	sched      *schedule.Scheduler
	writer     *aip.Writer
	metrics    *metrics

	ctx      context.Context // cancelled by Close: ends crawls
	cancel   context.CancelFunc
	dispatch dispatch.Dispatcher // carries due runs to the workers: in-process, or a cluster's
	local    *dispatch.Local     // the in-process dispatcher; nil in cluster mode
	slots    slotPool            // the in-process harvest slots (Config.Concurrency); nil in cluster mode
	cl       *clusterRole        // cluster mode's connection and bookkeeping; nil in one process
	wg       sync.WaitGroup

	mu         sync.Mutex
	blogs      map[string]Blog          // the config's blogs, by id
	specs      map[string]schedule.Spec // their parsed schedules
	running    map[string]bool          // blogs whose run is in progress
	again      map[string]bool          // fired while running: run once more after
	warns      map[string]string        // last warning per blog, for /status
	carried    map[string]carried       // robots.txt and rules of each blog's last crawl (memory only)
	history    runHistory               // the last runs of each blog, for the status page (memory only)
	shortfalls shortfallCache           // what each blog's ledger knows but the archive lacks, for the status page
	reader     archiveReader            // the archive read through when no writer writes to it (s3archive.go)
	closed     bool
}

// NewDaemon returns a Daemon for c with production defaults.
func NewDaemon(c *Config) *Daemon {
	return &Daemon{
		Config:    c,
		Logger:    slog.Default(),
		Now:       time.Now,
		harvester: crawler{},
		metrics:   newMetrics(),
	}
}

// Open locks the archive and sweeps unfinished AIPs, opens the schedule
// store (failing fast if another process holds either; unless openStore
// did already) and starts scheduling every blog.
func (d *Daemon) Open() error {
	c := d.Config
	if d.store == nil {
		if err := d.openStore(); err != nil {
			return err
		}
	}
	if d.cl == nil {
		if err := d.recountUnfinished(); err != nil {
			d.closeStore()
			return err
		}
	}
	d.ctx, d.cancel = context.WithCancel(context.Background())
	d.blogs, d.specs = map[string]Blog{}, map[string]schedule.Spec{}
	d.running, d.again = map[string]bool{}, map[string]bool{}
	d.sched = schedule.NewScheduler()
	d.sched.Now = d.Now
	d.sched.Fire = d.fire
	if _, err := d.apply(c); err != nil {
		d.closeStore()
		return err
	}
	if d.cl != nil {
		d.startScheduling()
	} else {
		d.startLocal(max(c.Concurrency, 1))
	}
	return d.sched.Open()
}

// openStore prepares the archive: it takes the archive's lock (failing fast
// with *aip.LockedError if another process writes there) before anything
// touches <archive>/.tmp, sweeps unfinished AIPs, opens the schedule store
// and the AIP writer. closeStore undoes it.
func (d *Daemon) openStore() error {
	c := d.Config
	if d.cl != nil {
		return d.openSchedulerStore() // a cluster's scheduler writes nothing into the archive
	}
	if isS3(c.Archive) {
		return d.openS3Store()
	}
	lock, err := aip.LockArchive(c.Archive)
	if err != nil {
		return err
	}
	if err := aip.Sweep(lock); err != nil {
		lock.Close()
		return fmt.Errorf("sweep unfinished AIPs: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(c.State), 0o755); err != nil {
		lock.Close()
		return fmt.Errorf("state %s: %w", c.State, err)
	}
	store, err := schedule.Open(c.State)
	if err != nil {
		lock.Close()
		return err
	}
	logRecovery(d.Logger, store.Recovered())
	d.lock, d.store = lock, store
	d.writer = &aip.Writer{Root: c.Archive, Organization: c.Organization, OrgCode: c.OrgCode, Software: "blogharvest " + Version, Now: d.Now,
		Lock: lock}
	d.warns = map[string]string{}
	return nil
}

// closeStore closes the schedule store and releases the archive's lock.
func (d *Daemon) closeStore() error {
	var err error
	if d.store != nil {
		err = d.store.Close()
	}
	if d.lock != nil {
		err = errors.Join(err, d.lock.Close())
	}
	return err
}

// logRecovery logs, once, that a damaged state file was set aside.
func logRecovery(log *slog.Logger, r *schedule.Recovery) {
	if r == nil {
		return
	}
	log.Error("state file damaged: set aside, a fresh one started; every blog runs once now (nothing archived is lost)",
		"state", r.Path, "aside", r.Aside, "damage", r.Damage.Reason)
}

// configChange is what applying a config changed, by blog id.
type configChange struct {
	added, removed, rescheduled, changed []string
}

// apply schedules the blogs of c, unschedules those it no longer has, and
// reschedules those whose schedule changed; it returns what changed.
func (d *Daemon) apply(c *Config) (configChange, error) {
	var ch configChange
	now := d.Now()
	d.mu.Lock()
	defer d.mu.Unlock()
	keep := map[string]bool{}
	for _, b := range c.Blogs {
		keep[b.ID] = true
		spec, err := schedule.ParseSpec(b.Schedule, b.Location(), time.Duration(b.Jitter), b.ID)
		if err != nil {
			return ch, fmt.Errorf("blog %s: %w", b.ID, err)
		}
		old, existed := d.specs[b.ID]
		oldBlog := d.blogs[b.ID]
		d.blogs[b.ID], d.specs[b.ID] = b, spec
		if existed && old.String() == spec.String() {
			if !reflect.DeepEqual(oldBlog, b) {
				ch.changed = append(ch.changed, b.ID)
			}
			continue
		}
		if existed {
			ch.rescheduled = append(ch.rescheduled, b.ID)
		} else {
			ch.added = append(ch.added, b.ID)
		}
		st, _, err := d.store.Get(b.ID)
		if err != nil {
			return ch, err
		}
		d.sched.Set(b.ID, spec, schedule.DueOnStartFor(st, spec, now))
	}
	for id := range d.blogs {
		if !keep[id] {
			delete(d.blogs, id)
			delete(d.specs, id)
			d.sched.Remove(id)
			ch.removed = append(ch.removed, id)
			d.Logger.Info("blog removed from schedule", "blog", id)
		}
	}
	sort.Strings(ch.removed)
	d.Config = c
	d.metrics.blogs.Set(float64(len(d.blogs)))
	return ch, nil
}

// Reload replaces the config: added blogs are scheduled, removed ones
// unscheduled, changed ones rescheduled. Runs in progress go on. The log
// line names the blogs added, removed, rescheduled and otherwise changed.
func (d *Daemon) Reload(c *Config) error {
	ch, err := d.apply(c)
	if err != nil {
		return err
	}
	d.Logger.Info("config reloaded", "blogs", len(c.Blogs), "added", idList(ch.added), "removed", idList(ch.removed),
		"rescheduled", idList(ch.rescheduled), "changed", idList(ch.changed))
	return nil
}

// idList joins blog ids for a log line; "none" when there are none.
func idList(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ",")
}

// reschedule stores and sets the blog's next due time after a run.
func (d *Daemon) reschedule(id string, spec schedule.Spec, runErr error) {
	now := d.Now()
	err := d.store.Update(id, func(st *schedule.State) error {
		setNext(st, spec, runErr, now)
		return nil
	})
	if err != nil {
		d.Logger.Error("schedule state not saved", "blog", id, "err", err)
		return
	}
	d.setDue(id, spec)
}

// setNext sets st's next due time after a run that ended with runErr.
func setNext(st *schedule.State, spec schedule.Spec, runErr error, now time.Time) {
	switch {
	case runErr == nil, !blogharvest.IsTransient(runErr):
		st.NextDue = schedule.NextAfterSuccess(spec, now)
	default:
		st.NextDue = schedule.NextAfterFailure(spec, st.Failures, now)
	}
	st.Spec = spec.String()
}

// setDue schedules blog id at its stored NextDue, if it is still
// configured.
func (d *Daemon) setDue(id string, spec schedule.Spec) {
	st, _, _ := d.store.Get(id)
	d.mu.Lock()
	if _, ok := d.blogs[id]; ok && !d.closed {
		d.sched.Set(id, spec, st.NextDue)
	}
	d.mu.Unlock()
}

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
	_, err := d.runBlog(ctx, b, progress)
	return err
}

func (d *Daemon) runBlog(ctx context.Context, b Blog, progress func(*blogharvest.Entry)) (RunStats, error) {
	start := d.Now()
	var since time.Time
	var prev schedule.State
	err := d.store.Update(b.ID, func(st *schedule.State) error {
		since, prev = st.Watermark, *st
		st.LastStart, st.Outcome = start, schedule.OutcomeRunning
		st.Runs++
		return nil
	})
	if err != nil {
		return RunStats{}, err
	}
	outcome, t, res, runErr := d.crawl(ctx, b, since, d.previous(b.ID, prev), progress)
	d.finish(b.ID, outcome, t, res, runErr)
	return t.stats(), runErr
}

// crawl runs one harvest of b (NewCrawl with a zero since) into the
// archive, counting and logging it, and returns its outcome.
func (d *Daemon) crawl(ctx context.Context, b Blog, since time.Time, prev harvest.State,
	progress func(*blogharvest.Entry)) (string, *tally, *harvest.Result, error) {
	log := d.Logger.With("blog", b.ID)
	start := d.Now()
	d.metrics.running.Inc()
	defer d.metrics.running.Dec()
	if since.IsZero() {
		log.Info("harvest started", "mode", "new")
	} else {
		log.Info("harvest started", "mode", "update", "since", since)
	}
	t := &tally{}
	res, runErr := d.harvest(ctx, b, since, prev, t, log, progress)
	outcome := outcomeOf(runErr, t)
	if interrupted(ctx, runErr) {
		outcome = schedule.OutcomeInterrupted
	}
	d.record(b.ID, start, outcome, t, res, runErr)
	d.metrics.runs.WithLabelValues(outcome).Inc()
	d.metrics.duration.WithLabelValues(outcome).Observe(d.Now().Sub(start).Seconds())
	switch {
	case outcome == schedule.OutcomeInterrupted:
		log.Warn("harvest interrupted; it runs again at the next start", "err", runErr, "archived", t.stats().String())
	case runErr != nil:
		log.Error("harvest failed", "err", runErr, "archived", t.stats().String(), "fates", fatesOf(res))
	default:
		log.Info("harvest finished", "archived", t.stats().String(), "pages", res.Pages, "requests", requestsOf(res), "failed", res.Failed,
			"duration", d.Now().Sub(start).Round(time.Millisecond), "fates", fatesOf(res), "delayed", res.Delayed,
			"renders", rendersOf(res))
	}
	return outcome, t, res, runErr
}

// harvest runs one crawl of b into the archive.
func (d *Daemon) harvest(ctx context.Context, b Blog, since time.Time, prev harvest.State, t *tally, log *slog.Logger,
	progress func(*blogharvest.Entry)) (*harvest.Result, error) {
	a := &archiver{w: d.writer, m: d.metrics, log: log, t: t, onEntry: progress}
	o := crawlOptions(d.Config, b, log)
	o.State = prev
	if s := slotOf(ctx); s != nil {
		o.HostWait = s.wait // lend the harvest slot while waiting on a host's politeness
	}
	if !since.IsZero() {
		o.Archived = d.archivedMedia(log)
		o.ArchivedRequisites = d.archivedRequisites(o.Blog.ID, log)
	}
	res, err := d.harvester.Harvest(ctx, o, since, func(r harvest.Record) error { return a.emit(ctx, r) })
	d.metrics.recordFetches(res)
	d.metrics.recordRenders(res)
	if res != nil && res.OverBudget {
		t.overBudget.Store(true)
	}
	if res != nil {
		t.unrendered.Store(int64(res.Unrendered))
	}
	if res != nil {
		d.mu.Lock()
		d.warns[b.ID] = lastOf(res.Warnings)
		d.mu.Unlock()
	}
	return res, err
}

// interrupted reports whether a run ended because its context was
// cancelled (the daemon or the command is stopping), not by a failure.
func interrupted(ctx context.Context, runErr error) bool {
	return runErr != nil && errors.Is(ctx.Err(), context.Canceled)
}

// finish records a run's end, whose outcome is given, in the schedule
// store. An interrupted run is no failure: Failures and the watermark stay.
func (d *Daemon) finish(id, outcome string, t *tally, res *harvest.Result, runErr error) {
	rep := d.reportOf(outcome, t, res, runErr)
	err := d.store.Update(id, func(st *schedule.State) error {
		rep.apply(st, d.Now())
		return nil
	})
	if err != nil {
		d.Logger.Error("schedule state not saved", "blog", id, "err", err)
	}
	if runErr == nil && res != nil {
		d.carry(id, res.State)
	}
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
		MaxCrawlDelay:    time.Duration(b.MaxCrawlDelay),
		StrictCrawlDelay: b.ObeyCrawlDelay == CrawlDelayStrict,
		RecheckPosts:     recheckPosts(b.RecheckPosts),
	}
}

// Close stops scheduling, cancels running harvests (letting AIP writes in
// flight finish), waits for them up to Grace, and closes the store.
func (d *Daemon) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	d.mu.Unlock()
	if d.sched != nil {
		d.sched.Close()
	}
	if d.cancel != nil {
		d.cancel()
	}
	d.waitGrace()
	if d.local != nil {
		d.local.Close()
	}
	d.cl.close()
	return d.closeStore()
}

// waitGrace waits for the daemon's goroutines to end, at most Grace (30s
// if zero).
func (d *Daemon) waitGrace() {
	grace := d.Grace
	if grace == 0 {
		grace = 30 * time.Second
	}
	done := make(chan struct{})
	go func() { d.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		d.Logger.Warn("harvests still running after the grace period; closing anyway", "grace", grace)
	}
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

package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/schedule"
)

// core is what the three roles of a process share (local daemon, cluster
// scheduler, cluster worker): the config, the clock and the log, the
// metrics, the archive (its lock and AIP writer, in the roles that write),
// the schedule store (in the roles that schedule), the crawl itself and
// the in-memory run history and warnings the status pages show. Each role
// embeds it and owns its own loops; the goroutines it starts count in wg
// and end with ctx.
type core struct {
	Config *Config
	Logger *slog.Logger
	Now    func() time.Time // the clock; defaults to time.Now
	// Grace bounds how long Close waits for harvests to end after
	// cancelling them (AIP writes in flight finish within it). If zero, 30s.
	Grace time.Duration

	harvester  harvester
	httpLimits httpLimits       // the status server's; zero: defaultHTTPLimits
	lock       *aip.ArchiveLock // the archive's lock (one writer per archive, or a worker's hold); nil for S3 or a scheduler
	store      *schedule.Store  // the schedule store; nil in a worker
	writer     *aip.Writer      // nil in a cluster's scheduler
	metrics    *metrics

	ctx    context.Context // cancelled by Close: ends crawls
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu         sync.Mutex
	warns      map[string]string  // last warning per blog, for /status
	carried    map[string]carried // robots.txt and rules of each blog's last crawl (memory only)
	history    runHistory         // the last runs of each blog, for the status page (kept in the schedule store: runhistory.go)
	live       map[string]*tally  // the runs going on in this process, by blog id (progress.go: liveProgress)
	shortfalls shortfallCache     // what each blog's ledger knows but the archive lacks, for the status page
	storage    storageCache       // what each blog's folder holds, for its status page (archivecount.go)
	reader     archiveReader      // the archive read through when no writer writes to it (s3archive.go)
	handoff    *handoff           // the on_publish command's delivery (handoff.go); nil without one
	// watchKept, set by `crawl -out` only, says to keep each blog's
	// thread watch in the archive after a run that changed it
	// (keepWatch); it holds, by blog id, the watch the archive holds.
	watchKept map[string]harvest.Watch
}

// newCore returns the core of a role for c with production defaults.
func newCore(c *Config) core {
	return core{Config: c, Logger: slog.Default(), Now: time.Now, harvester: crawler{}, metrics: newMetrics(),
		warns: map[string]string{}}
}

// openArchive prepares the archive for writing: for a folder it takes its
// lock with hold (aip.LockArchive, one writer per archive, failing fast
// with *aip.LockedError if another process writes there; or a cluster
// worker's aip.LockWorker) before anything touches the .tmp folder and
// sweeps unfinished AIPs; for an S3 archive (no lock: writers are kept
// apart by the marker's conditional write and, in a cluster, the blog's
// lease: doc/storage.md) it sweeps old staged objects. Then it makes the
// AIP writer.
func (d *core) openArchive(ctx context.Context, hold func(archive string) (*aip.ArchiveLock, error)) error {
	c := d.Config
	w := &aip.Writer{Organization: c.Organization, OrgCode: c.OrgCode, Software: Build().Software(),
		SoftwareBuild: Build().VCS(), Now: d.Now, Modes: c.Modes()}
	w.AnnounceFailed = func(loc string, err error) {
		d.Logger.Error("AIP published but not announced in the publication log (blogharvest published -repair announces it)",
			"dir", loc, "err", err)
	}
	if isS3(c.Archive) {
		st, err := openS3Archive(ctx, c)
		if err != nil {
			return err
		}
		w.Store, d.writer = st, w
		return nil
	}
	lock, err := hold(c.Archive)
	if err != nil {
		return err
	}
	if err := aip.Sweep(lock); err != nil {
		lock.Close()
		return fmt.Errorf("sweep unfinished AIPs: %w", err)
	}
	w.Root, w.Lock = c.Archive, lock
	d.lock, d.writer = lock, w
	return nil
}

// openState opens the schedule store, logging a damaged one set aside.
// A store another process holds is tried again tries times (a scheduler
// that just lost its lease may still be letting go of the file).
func (d *core) openState(tries int) error {
	c := d.Config
	if err := os.MkdirAll(filepath.Dir(c.State), 0o755); err != nil {
		return fmt.Errorf("state %s: %w", c.State, err)
	}
	var store *schedule.Store
	var err error
	for range max(tries, 1) {
		if store, err = schedule.Open(c.State); !errors.Is(err, schedule.ErrInUse) {
			break
		}
	}
	if err != nil {
		return err
	}
	logRecovery(d.Logger, store.Recovered())
	d.store = store
	d.loadHistory()
	return nil
}

// closeStore closes the schedule store and releases the archive's lock.
func (d *core) closeStore() error {
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

// crawl runs one harvest of b (NewCrawl with a zero since) into the
// archive, counting and logging it, and returns its outcome; the run's
// record is the tally's run, for the caller to keep (keepRun).
func (d *core) crawl(ctx context.Context, b Blog, since time.Time, prev harvest.State,
	progress func(*blogharvest.Entry)) (string, *tally, *harvest.Result, error) {
	return d.crawlAccepting(ctx, b, since, prev, progress, false)
}

// crawlAccepting is crawl; accepted says the archivist accepted a change
// of the blog's identity (accept_change): the crawl does not check it
// (harvest.Options.AcceptIdentity).
func (d *core) crawlAccepting(ctx context.Context, b Blog, since time.Time, prev harvest.State,
	progress func(*blogharvest.Entry), accepted bool) (string, *tally, *harvest.Result, error) {
	log := d.Logger.With("blog", b.ID)
	start := d.Now()
	d.metrics.running.Inc()
	defer d.metrics.running.Dec()
	if since.IsZero() {
		log.Info("harvest started", "mode", "new")
	} else {
		log.Info("harvest started", "mode", "update", "since", since)
	}
	t := &tally{start: start}
	d.setLive(b.ID, t)
	defer d.setLive(b.ID, nil)
	res, runErr := d.harvest(ctx, b, since, prev, t, log, progress, accepted)
	d.keepIdentityEvidence(ctx, b.ID, start, res, runErr)
	outcome := outcomeOf(runErr, t)
	if interrupted(ctx, runErr) {
		outcome = schedule.OutcomeInterrupted
	}
	d.record(start, outcome, t, res, runErr)
	d.metrics.runs.WithLabelValues(outcome).Inc()
	d.metrics.duration.WithLabelValues(outcome).Update(d.Now().Sub(start).Seconds())
	switch {
	case outcome == schedule.OutcomeInterrupted:
		log.Warn("harvest interrupted; it runs again at the next start", "err", runErr, "archived", t.stats().String())
	case runErr != nil:
		log.Error("harvest failed", "err", runErr, "archived", t.stats().String(), "fates", fatesOf(res))
	default:
		log.Info("harvest finished", "archived", t.stats().String(), "pages", res.Pages, "requests", requestsOf(res),
			"duration", d.Now().Sub(start).Round(time.Millisecond), "fates", fatesOf(res), "delayed", res.Delayed,
			"renders", rendersOf(res))
	}
	return outcome, t, res, runErr
}

// harvest runs one crawl of b into the archive.
func (d *core) harvest(ctx context.Context, b Blog, since time.Time, prev harvest.State, t *tally, log *slog.Logger,
	progress func(*blogharvest.Entry), accepted bool) (*harvest.Result, error) {
	a := &archiver{w: d.writer, m: d.metrics, log: log, t: t, onEntry: progress, published: d.handoff.published,
		again: func(b *blogharvest.Blog) bool { return ledgerContradicted(d.archiveStore(), b) }, store: d.archiveStore()}
	o := crawlOptions(d.Config, b, log)
	o.State = prev
	o.AcceptIdentity = accepted
	o.Progress = t.notes.setStep
	if s := slotOf(ctx); s != nil {
		o.HostWait = s.wait // lend the harvest slot while waiting on a host's politeness
	}
	if !since.IsZero() {
		o.Archived = d.archivedMedia(log)
		o.ArchivedRequisites = d.archivedRequisites(o.Blog.ID, log)
		o.ArchivedPosts = d.archivedPosts(ctx, o.Blog.ID)
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
		if k := t.keptSummary(); k != "" {
			d.warns[b.ID] = k
		}
		d.mu.Unlock()
	}
	return res, err
}

// waitGrace waits for the role's goroutines to end, at most Grace (30s
// if zero).
func (d *core) waitGrace() {
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

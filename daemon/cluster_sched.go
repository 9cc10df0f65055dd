package daemon

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"time"

	blogharvest "github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/cluster"
	"github.com/blogharvest/blogharvest/dispatch"
	"github.com/blogharvest/blogharvest/schedule"
)

// ClusterScheduler is a cluster's scheduler: it holds the scheduler's
// lease, schedules every blog for the whole cluster and hands each due run
// to the workers through a dispatcher (the cluster's, on NATS), then
// records the outcome the run's worker reports. It writes nothing into
// the archive. Create it with NewClusterScheduler, JoinAsScheduler, then
// Open; Close stops it.
type ClusterScheduler struct {
	env   *env
	life  life
	view  *archiveView // the archive the workers write, read for counts and the status pages
	plan  *planner     // the schedule store and the schedule; set by openStore
	views entryViews   // the entries as they looked, as WACZ files (entryview.go)
	hand  *handoff     // the on_publish command's delivery (handoff.go); nil without one

	rejoining bool           // standing by again after losing the lease: NATS unreachable is waited out
	conn      *cluster.Conn  // the connection; nil when driven by another queue (tests)
	queue     runQueue       // where runs go and reports come from: conn, or the in-process dispatcher
	lease     *cluster.Lease // the scheduler's; nil without conn
	lost      chan struct{}  // closed when the lease is lost
	stopLoops context.CancelFunc
	flights   *flights
}

// runQueue is what a scheduler needs of a dispatcher: it hands runs to
// the workers and hears what they report. Both dispatchers are one
// (cluster.Conn, dispatch.Local).
type runQueue interface {
	Enqueue(ctx context.Context, t dispatch.Task) error
	dispatch.Reporter
}

// NewClusterScheduler returns a cluster scheduler for c with production
// defaults.
func NewClusterScheduler(c *Config) *ClusterScheduler {
	e := newEnv(c)
	return &ClusterScheduler{env: e, view: &archiveView{env: e}, lost: make(chan struct{}),
		flights: &flights{inflight: map[string]flight{}}}
}

// flights is what a cluster's workers reported of each blog's run in
// flight (or, between runs, of its last run), for /status.
type flights struct {
	conn *cluster.Conn // for the queue's figures; nil: none

	mu       sync.Mutex
	inflight map[string]flight // by blog id
	redelivs int               // deliveries after the first, since this scheduler started
}

// flight is what workers reported of one blog's run in flight.
type flight struct {
	Worker   string `json:"worker,omitempty"`
	Attempt  int    `json:"attempt,omitempty"`
	LastFail string `json:"attempt_error,omitempty"`
}

// leave stops the scheduler's loops, releases its lease and closes its
// connection.
func (s *ClusterScheduler) leave() {
	if s.stopLoops != nil {
		s.stopLoops()
	}
	if s.lease != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		s.lease.Release(ctx)
		cancel()
	}
	if s.conn != nil {
		s.conn.Close()
	}
}

// clusterOptions turns the cluster key into cluster.Options, reading this
// process's nkey.
func clusterOptions(c *Config, log *slog.Logger) (cluster.Options, error) {
	cl := c.Cluster
	id, err := cluster.LoadIdentity(cl.NkeyFile)
	if err != nil {
		return cluster.Options{}, err
	}
	return cluster.Options{URL: cl.NATSURL, Name: cl.Name, AckWait: time.Duration(cl.AckWait), MaxDeliver: cl.MaxDeliver,
		LeaseTTL: time.Duration(cl.LeaseTTL), Logger: log, Identity: id, Members: cl.Members, TLSCA: cl.TLSCA}, nil
}

// JoinAsScheduler connects to the cluster (a scheduler that lost its
// lease waits for the server if need be) and waits, as a standby, until
// it holds the scheduler's lease (or ctx ends); Open then schedules for
// the whole cluster. The lease is renewed every third of its TTL; if a
// renewal fails the scheduler has lost it and Lost is closed: the process
// must stop (another scheduler may be active).
func (d *ClusterScheduler) JoinAsScheduler(ctx context.Context) error {
	o, err := clusterOptions(d.env.Config, d.env.Logger)
	if err != nil {
		return err
	}
	conn, err := cluster.Connect(ctx, o)
	for err != nil && d.rejoining && ctx.Err() == nil {
		d.env.Logger.Warn("NATS not reachable while standing by; trying again", "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(o.LeaseTTL / 2):
			conn, err = cluster.Connect(ctx, o)
		}
	}
	if err != nil {
		return err
	}
	name := d.env.Config.Cluster.Name + "/" + fmt.Sprint(os.Getpid())
	ttl := conn.Options().LeaseTTL
	waiting := false
	for {
		lease, err := conn.Acquire(ctx, cluster.SchedulerKey, name)
		if err == nil {
			d.conn, d.queue, d.lease, d.flights.conn = conn, conn, lease, conn
			d.env.Logger.Info("active scheduler of the cluster", "name", name, "lease_ttl", ttl)
			return nil
		}
		if !errors.Is(err, cluster.ErrHeld) {
			d.env.Logger.Warn("scheduler lease not taken; trying again", "err", err)
		} else if !waiting {
			d.env.Logger.Info("standby: another scheduler is active; taking over when its lease lapses", "err", err)
			waiting = true
		}
		select {
		case <-ctx.Done():
			conn.Close()
			return ctx.Err()
		case <-time.After(ttl / 4):
		}
	}
}

// Lost is closed when the scheduler lost its lease.
func (d *ClusterScheduler) Lost() <-chan struct{} { return d.lost }

// openStore opens the scheduler's schedule store, waiting a little for a
// scheduler that just lost its lease to let go of the file. The archive
// is the workers'.
func (d *ClusterScheduler) openStore() error {
	p, err := openPlanner(d.env, 10)
	if err != nil {
		return err
	}
	d.plan = p
	return nil
}

// closeStore closes the schedule store.
func (d *ClusterScheduler) closeStore() error {
	if d.plan == nil {
		return nil
	}
	return d.plan.close()
}

// settings returns the scheduler's env (service).
func (d *ClusterScheduler) settings() *env { return d.env }

// Reload replaces the config (planner.Reload).
func (d *ClusterScheduler) Reload(c *Config) error { return d.plan.Reload(c) }

// source is what the scheduler's status server shows (statusSource).
func (d *ClusterScheduler) source() *statusSource {
	return &statusSource{env: d.env, plan: d.plan, view: d.view, views: &d.views, role: d}
}

// Status returns every configured blog's status, sorted by id.
func (d *ClusterScheduler) Status() ([]BlogStatus, error) { return d.source().Status() }

// Handler serves the status pages, /status, /healthz and /metrics.
func (d *ClusterScheduler) Handler() http.Handler { return d.source().Handler() }

// progress is nil: the runs go on in the workers (shown).
func (d *ClusterScheduler) progress(string) *RunProgress { return nil }

// flightOf is what the workers reported of blog id's run (shown).
func (d *ClusterScheduler) flightOf(id string) (flight, bool) { return d.flights.flightOf(id), true }

// auditStatus is nil: a cluster's scheduler runs no audits (shown).
func (d *ClusterScheduler) auditStatus() *AuditStatus { return nil }

// extra adds /status's "cluster": the queue's figures (shown).
func (d *ClusterScheduler) extra(out map[string]any) {
	out["cluster"] = d.flights.status(d.env.Config.Cluster.Name)
}

// Open starts scheduling every blog for the cluster (opening the schedule
// store unless openStore did already), renewing the lease and reading the
// workers' reports.
func (d *ClusterScheduler) Open() error {
	if d.plan == nil {
		if err := d.openStore(); err != nil {
			return err
		}
	}
	d.life.begin()
	if err := d.plan.plan(d.env.Config, d.enqueueLocked, &d.life); err != nil {
		d.closeStore()
		return err
	}
	d.startScheduling()
	d.hand = startHandoff(d.env, &d.life, d.view.store)
	return d.plan.sched.Open()
}

// Close stops scheduling and the scheduler's loops, lets go of its lease
// and connection, and closes the store.
func (d *ClusterScheduler) Close() error {
	if d.plan != nil && !d.plan.halt() {
		return nil
	}
	d.life.end(d.env)
	d.views.close()
	d.leave()
	return d.closeStore()
}

// startScheduling starts renewing the lease (with one) and reading the
// workers' reports, and, on NATS, the advisories of exhausted tasks.
func (d *ClusterScheduler) startScheduling() {
	ctx, cancel := context.WithCancel(d.life.ctx)
	d.stopLoops = cancel
	if d.lease != nil {
		d.life.goRun(func() { d.keepLease(ctx) })
	}
	d.life.goRun(func() { d.queue.Reports(ctx, d.onReport) })
	if d.conn == nil {
		return
	}
	stop, err := d.conn.Exhausted(d.onExhausted)
	if err != nil {
		d.env.Logger.Error("tasks that exhaust max_deliver without a report will stay running", "err", err)
		return
	}
	d.life.goRun(func() {
		<-ctx.Done()
		stop()
	})
}

// enqueueLocked hands a run of blog id to the workers, over the network:
// not under d.mu, which is held (planner.enqueue).
func (d *ClusterScheduler) enqueueLocked(id string) {
	decided := d.env.Now()
	d.life.goRun(func() { d.publish(id, decided) })
}

// onExhausted records as failed a run whose task reached max_deliver
// without a worker ending it (each of its workers died or stopped).
func (d *ClusterScheduler) onExhausted(t dispatch.Task) {
	n := d.env.Config.Cluster.MaxDeliver
	rep := runOutcome{Outcome: schedule.OutcomeFailed, Transient: true,
		Error: fmt.Sprintf("no worker ended the run in %d attempts (max_deliver): each died or stopped during it", n)}
	payload, _ := json.Marshal(rep)
	err := d.recordDone(dispatch.Report{Blog: t.Blog, Due: t.Due, Kind: dispatch.Done, Attempt: n, Payload: payload,
		Error: rep.Error})
	if err != nil {
		d.env.Logger.Error("exhausted run not recorded", "blog", t.Blog, "err", err)
	}
}

// keepLease renews the scheduler's lease until ctx ends; when a renewal
// fails it closes lost and stops scheduling.
func (d *ClusterScheduler) keepLease(ctx context.Context) {
	ttl := d.conn.Options().LeaseTTL
	t := time.NewTicker(ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		rctx, cancel := context.WithTimeout(ctx, ttl/3)
		err := d.lease.Renew(rctx)
		cancel()
		if err != nil && ctx.Err() == nil && !errors.Is(err, cluster.ErrLost) {
			d.env.Logger.Warn("scheduler lease not renewed; trying again", "err", err)
			continue
		}
		if err != nil && ctx.Err() == nil {
			d.env.Logger.Error("scheduler lease lost: stopping (a standby takes over)", "err", err)
			d.plan.sched.Close()
			close(d.lost)
			return
		}
	}
}

// publish enqueues a run of blog id on the cluster. The run is named by
// the blog's stored NextDue (set to now first when it has none or lies
// ahead) and marked running in the same transaction, before it is
// enqueued, so its report can never come first; a scheduler that took over
// enqueues a run in flight again under the same Nats-Msg-Id and the server
// drops it. A firing decided before the blog's previous run was reported
// (a scheduler that took over fires the runs its predecessor left in flight
// while their reports come in) is dropped: that report set the next run.
func (d *ClusterScheduler) publish(id string, decided time.Time) {
	now := d.env.Now()
	var t dispatch.Task
	var before schedule.State
	superseded := false
	err := d.plan.store.Update(id, func(st *schedule.State) error {
		before = *st
		again := st.Outcome == schedule.OutcomeRunning && !st.NextDue.IsZero() && !st.NextDue.After(now)
		if !again && !st.LastEnd.IsZero() && !st.LastEnd.Before(decided) && st.NextDue.After(now) {
			superseded = true
			return nil
		}
		if !again {
			if st.NextDue.IsZero() || st.NextDue.After(now) {
				st.NextDue = now.UTC().Truncate(time.Millisecond)
			}
			st.LastStart, st.Outcome = now, schedule.OutcomeRunning
			st.Runs++
		}
		payload, err := json.Marshal(st)
		t = dispatch.Task{Blog: id, Due: st.NextDue, Payload: payload}
		return err
	})
	if err == nil && superseded {
		d.env.Logger.Info("run reported while this one was being enqueued: not enqueued, the report set the next run", "blog", id)
		return // recordDone's ended clears d.plan.running
	}
	if err == nil {
		err = d.queue.Enqueue(d.life.ctx, t)
	}
	switch {
	case err == nil:
	case errors.Is(err, dispatch.ErrDuplicate):
		d.env.Logger.Info("run already enqueued: waiting for its report", "blog", id, "task", t.ID())
	default:
		retry := time.Duration(d.env.Config.Cluster.RetryDelay)
		d.env.Logger.Error("run not enqueued; trying again", "blog", id, "err", err, "in", retry)
		if uerr := d.plan.store.Update(id, func(st *schedule.State) error { *st = before; return nil }); uerr != nil {
			d.env.Logger.Error("schedule state not saved", "blog", id, "err", uerr)
		}
		d.plan.mu.Lock()
		delete(d.plan.running, id)
		if spec, ok := d.plan.specs[id]; ok && !d.plan.closed {
			d.plan.sched.Set(id, spec, now.Add(retry))
		}
		d.plan.mu.Unlock()
	}
}

// onReport records a worker's report: who runs which blog and, at the end
// of a run, its outcome in the schedule store and the blog's next run.
func (d *ClusterScheduler) onReport(r dispatch.Report) error {
	switch r.Kind {
	case dispatch.Started, dispatch.Retry:
		d.flights.attempt(r)
		return nil
	case dispatch.Done:
		return d.recordDone(r)
	}
	return nil
}

// recordDone stores the outcome of a run a worker ended. A report of a run
// other than the blog's run in flight (a duplicate) changes nothing.
func (d *ClusterScheduler) recordDone(r dispatch.Report) error {
	if err := blogharvest.ValidID(r.Blog); err != nil {
		return fmt.Errorf("%w: %v", dispatch.ErrUnprocessable, err)
	}
	var rep runOutcome
	if err := json.Unmarshal(r.Payload, &rep); err != nil {
		rep = runOutcome{Outcome: schedule.OutcomeFailed, Error: "report not readable: " + err.Error()}
	}
	b, spec, ok := d.plan.blog(r.Blog)
	// An earlier attempt of a redelivered run may have archived entries
	// and lost its worker (or its lease) before it could report them: the
	// count then starts from what the archive holds.
	archived := 0
	if r.Attempt > 1 {
		archived = countEntryAIPs(d.view.store(), r.Blog)
	}
	var rec []byte // the worker's record: shortfalls, methods, AIPs
	if rep.Run != nil {
		var err error
		if rec, err = json.Marshal(*rep.Run); err != nil {
			return err
		}
	}
	// Checked, outcome, next run and the run's record at once: one write
	// (schedule.Store.EndRun), as the local daemon's runs end (Daemon.finish).
	after, err := d.plan.store.EndRun(r.Blog, func(st *schedule.State) error {
		if st.Outcome != schedule.OutcomeRunning || !st.NextDue.Equal(r.Due) {
			return errStale // nothing stored
		}
		now := d.env.Now()
		rep.apply(st, now)
		st.Entries = max(st.Entries, archived)
		if ok {
			setNext(st, spec, rep.err(), now, time.Duration(b.DownAfter))
		}
		return nil
	}, rec, historyLen)
	if errors.Is(err, errStale) {
		d.env.Logger.Info("report of a run not in flight: ignored", "blog", r.Blog, "due", r.Due)
		return nil
	}
	if err != nil {
		return err
	}
	d.plan.notifyRun(r.Blog, after)
	if rep.Run != nil {
		d.plan.history.add(r.Blog, *rep.Run) // in memory once the file holds it
	}
	d.env.metrics.runs.WithLabelValues(rep.Outcome).Inc()
	d.env.metrics.entries.Add(rep.Stats.Entries)
	d.env.Logger.Info("run reported", "blog", r.Blog, "worker", r.Worker, "attempt", r.Attempt, "outcome", rep.Outcome,
		"archived", rep.Stats.String(), "err", rep.Error)
	d.flights.done(r)
	d.plan.setWarning(r.Blog, rep.Warning)
	if ok {
		d.plan.setDueAt(r.Blog, spec, after.NextDue)
	}
	if rep.err() != nil {
		d.plan.backOff(r.Blog)
	}
	d.plan.ended(r.Blog)
	return nil
}

// errStale is recordDone's reason to store nothing: the report is of a
// run no longer in flight.
var errStale = errors.New("report of a run not in flight")

// clusterStatus is /status's "cluster" object.
type clusterStatus struct {
	Scheduler   string `json:"scheduler"`
	Redelivered int    `json:"redeliveries"` // deliveries after the first reported since this scheduler started
	cluster.QueueStats
}

// attempt notes a started or retry report: who runs the blog's run, and
// why its last attempt failed.
func (r *flights) attempt(rep dispatch.Report) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := r.inflight[rep.Blog]
	f.Worker, f.Attempt = rep.Worker, rep.Attempt
	if rep.Kind == dispatch.Retry {
		f.LastFail = rep.Error
	} else if rep.Attempt > 1 {
		r.redelivs++
	}
	r.inflight[rep.Blog] = f
}

// done notes a recorded done report: the blog's last run's worker and
// attempt, until the next run starts.
func (r *flights) done(rep dispatch.Report) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := r.inflight[rep.Blog]
	f.Worker, f.Attempt, f.LastFail = cmp.Or(rep.Worker, f.Worker), rep.Attempt, ""
	r.inflight[rep.Blog] = f
}

// flightOf returns what workers reported of blog id's run in flight.
func (r *flights) flightOf(id string) flight {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.inflight[id]
}

// status returns the cluster's figures for /status.
func (r *flights) status(name string) clusterStatus {
	var q cluster.QueueStats
	if r.conn != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		q, _ = r.conn.Queue(ctx)
		cancel()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return clusterStatus{Scheduler: name, Redelivered: r.redelivs, QueueStats: q}
}

package daemon

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest/cluster"
	"github.com/blogharvest/blogharvest/dispatch"
	"github.com/blogharvest/blogharvest/schedule"
)

// clusterRole is what a process in cluster mode keeps besides the
// Daemon's own: its connection, its lease (the scheduler's) and, for
// /status, what the workers reported of each blog's run in flight (or,
// between runs, of its last run).
type clusterRole struct {
	conn  *cluster.Conn
	lease *cluster.Lease // the scheduler's; nil in a worker
	lost  chan struct{}  // closed when the scheduler's lease is lost
	stop  context.CancelFunc

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

func (r *clusterRole) close() {
	if r == nil {
		return
	}
	if r.stop != nil {
		r.stop()
	}
	if r.lease != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		r.lease.Release(ctx)
		cancel()
	}
	r.conn.Close()
}

// clusterOptions turns the cluster key into cluster.Options, reading this
// process's nkey.
func clusterOptions(c *Config, d *Daemon) (cluster.Options, error) {
	cl := c.Cluster
	id, err := cluster.LoadIdentity(cl.NkeyFile)
	if err != nil {
		return cluster.Options{}, err
	}
	return cluster.Options{URL: cl.NATSURL, Name: cl.Name, AckWait: time.Duration(cl.AckWait), MaxDeliver: cl.MaxDeliver,
		LeaseTTL: time.Duration(cl.LeaseTTL), Logger: d.Logger, Identity: id, Members: cl.Members, TLSCA: cl.TLSCA}, nil
}

// JoinAsScheduler connects to the cluster (a scheduler that lost its
// lease waits for the server if need be) and waits, as a standby, until
// it holds the scheduler's lease (or ctx ends); Open then schedules for
// the whole cluster. The lease is renewed every third of its TTL; if a
// renewal fails the scheduler has lost it and Lost is closed: the process
// must stop (another scheduler may be active).
func (d *Daemon) JoinAsScheduler(ctx context.Context) error {
	o, err := clusterOptions(d.Config, d)
	if err != nil {
		return err
	}
	conn, err := cluster.Connect(ctx, o)
	for err != nil && d.rejoining && ctx.Err() == nil {
		d.Logger.Warn("NATS not reachable while standing by; trying again", "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(o.LeaseTTL / 2):
			conn, err = cluster.Connect(ctx, o)
		}
	}
	if err != nil {
		return err
	}
	name := d.Config.Cluster.Name + "/" + fmt.Sprint(os.Getpid())
	ttl := conn.Options().LeaseTTL
	waiting := false
	for {
		lease, err := conn.Acquire(ctx, cluster.SchedulerKey, name)
		if err == nil {
			d.cl = &clusterRole{conn: conn, lease: lease, lost: make(chan struct{}), inflight: map[string]flight{}}
			d.Logger.Info("active scheduler of the cluster", "name", name, "lease_ttl", ttl)
			return nil
		}
		if !errors.Is(err, cluster.ErrHeld) {
			d.Logger.Warn("scheduler lease not taken; trying again", "err", err)
		} else if !waiting {
			d.Logger.Info("standby: another scheduler is active; taking over when its lease lapses", "err", err)
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

// Lost is closed when a cluster scheduler lost its lease; nil (never
// closed) in one process.
func (d *Daemon) Lost() <-chan struct{} {
	if d.cl == nil {
		return nil
	}
	return d.cl.lost
}

// openSchedulerStore opens the schedule store of a cluster's scheduler,
// waiting a little for a scheduler that just lost its lease to let go of
// the file.
func (d *Daemon) openSchedulerStore() error {
	c := d.Config
	if err := os.MkdirAll(filepath.Dir(c.State), 0o755); err != nil {
		return fmt.Errorf("state %s: %w", c.State, err)
	}
	var store *schedule.Store
	var err error
	for range 10 {
		if store, err = schedule.Open(c.State); !errors.Is(err, schedule.ErrInUse) {
			break
		}
	}
	if err != nil {
		return err
	}
	logRecovery(d.Logger, store.Recovered())
	d.store, d.dispatch, d.warns = store, d.cl.conn, map[string]string{}
	return nil
}

// startScheduling starts renewing the lease and reading the workers'
// reports.
func (d *Daemon) startScheduling() {
	ctx, cancel := context.WithCancel(d.ctx)
	d.cl.stop = cancel
	d.wg.Add(2)
	go func() {
		defer d.wg.Done()
		d.keepLease(ctx)
	}()
	go func() {
		defer d.wg.Done()
		d.cl.conn.Reports(ctx, d.onReport)
	}()
	stop, err := d.cl.conn.Exhausted(d.onExhausted)
	if err != nil {
		d.Logger.Error("tasks that exhaust max_deliver without a report will stay running", "err", err)
		return
	}
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		<-ctx.Done()
		stop()
	}()
}

// onExhausted records as failed a run whose task reached max_deliver
// without a worker ending it (each of its workers died or stopped).
func (d *Daemon) onExhausted(t dispatch.Task) {
	n := d.Config.Cluster.MaxDeliver
	rep := runOutcome{Outcome: schedule.OutcomeFailed, Transient: true,
		Error: fmt.Sprintf("no worker ended the run in %d attempts (max_deliver): each died or stopped during it", n)}
	payload, _ := json.Marshal(rep)
	err := d.recordDone(dispatch.Report{Blog: t.Blog, Due: t.Due, Kind: dispatch.Done, Attempt: n, Payload: payload,
		Error: rep.Error})
	if err != nil {
		d.Logger.Error("exhausted run not recorded", "blog", t.Blog, "err", err)
	}
}

// keepLease renews the scheduler's lease until ctx ends; when a renewal
// fails it closes lost and stops scheduling.
func (d *Daemon) keepLease(ctx context.Context) {
	ttl := d.cl.conn.Options().LeaseTTL
	t := time.NewTicker(ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		rctx, cancel := context.WithTimeout(ctx, ttl/3)
		err := d.cl.lease.Renew(rctx)
		cancel()
		if err != nil && ctx.Err() == nil && !errors.Is(err, cluster.ErrLost) {
			d.Logger.Warn("scheduler lease not renewed; trying again", "err", err)
			continue
		}
		if err != nil && ctx.Err() == nil {
			d.Logger.Error("scheduler lease lost: stopping (a standby takes over)", "err", err)
			d.sched.Close()
			close(d.cl.lost)
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
func (d *Daemon) publish(id string, decided time.Time) {
	defer d.wg.Done()
	now := d.Now()
	var t dispatch.Task
	var before schedule.State
	superseded := false
	err := d.store.Update(id, func(st *schedule.State) error {
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
		d.Logger.Info("run reported while this one was being enqueued: not enqueued, the report set the next run", "blog", id)
		return // recordDone's ended clears d.running
	}
	if err == nil {
		err = d.dispatch.Enqueue(d.ctx, t)
	}
	switch {
	case err == nil:
	case errors.Is(err, dispatch.ErrDuplicate):
		d.Logger.Info("run already enqueued: waiting for its report", "blog", id, "task", t.ID())
	default:
		retry := time.Duration(d.Config.Cluster.RetryDelay)
		d.Logger.Error("run not enqueued; trying again", "blog", id, "err", err, "in", retry)
		if uerr := d.store.Update(id, func(st *schedule.State) error { *st = before; return nil }); uerr != nil {
			d.Logger.Error("schedule state not saved", "blog", id, "err", uerr)
		}
		d.mu.Lock()
		delete(d.running, id)
		if spec, ok := d.specs[id]; ok && !d.closed {
			d.sched.Set(id, spec, now.Add(retry))
		}
		d.mu.Unlock()
	}
}

// onReport records a worker's report: who runs which blog and, at the end
// of a run, its outcome in the schedule store and the blog's next run.
func (d *Daemon) onReport(r dispatch.Report) error {
	cl := d.cl
	switch r.Kind {
	case dispatch.Started, dispatch.Retry:
		cl.mu.Lock()
		f := cl.inflight[r.Blog]
		f.Worker, f.Attempt = r.Worker, r.Attempt
		if r.Kind == dispatch.Retry {
			f.LastFail = r.Error
		} else if r.Attempt > 1 {
			cl.redelivs++
		}
		cl.inflight[r.Blog] = f
		cl.mu.Unlock()
		return nil
	case dispatch.Done:
		return d.recordDone(r)
	}
	return nil
}

// recordDone stores the outcome of a run a worker ended. A report of a run
// other than the blog's run in flight (a duplicate) changes nothing.
func (d *Daemon) recordDone(r dispatch.Report) error {
	var rep runOutcome
	if err := json.Unmarshal(r.Payload, &rep); err != nil {
		rep = runOutcome{Outcome: schedule.OutcomeFailed, Error: "report not readable: " + err.Error()}
	}
	d.mu.Lock()
	spec, ok := d.specs[r.Blog]
	d.mu.Unlock()
	stale := false
	err := d.store.Update(r.Blog, func(st *schedule.State) error { // checked, outcome and next run at once
		if st.Outcome != schedule.OutcomeRunning || !st.NextDue.Equal(r.Due) {
			stale = true
			return nil
		}
		now := d.Now()
		rep.apply(st, now)
		if ok {
			setNext(st, spec, rep.err(), now)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if stale {
		d.Logger.Info("report of a run not in flight: ignored", "blog", r.Blog, "due", r.Due)
		return nil
	}
	if rep.Run != nil {
		d.history.add(r.Blog, *rep.Run) // the worker's record: shortfalls, methods, AIPs
	}
	d.metrics.runs.WithLabelValues(rep.Outcome).Inc()
	d.metrics.entries.Add(float64(rep.Stats.Entries))
	d.Logger.Info("run reported", "blog", r.Blog, "worker", r.Worker, "attempt", r.Attempt, "outcome", rep.Outcome,
		"archived", rep.Stats.String(), "err", rep.Error)
	d.cl.mu.Lock()
	f := d.cl.inflight[r.Blog] // the last run's, until the next starts
	f.Worker, f.Attempt, f.LastFail = cmp.Or(r.Worker, f.Worker), r.Attempt, ""
	d.cl.inflight[r.Blog] = f
	d.cl.mu.Unlock()
	d.mu.Lock()
	d.warns[r.Blog] = rep.Warning
	d.mu.Unlock()
	if ok {
		d.setDue(r.Blog, spec)
	}
	d.ended(r.Blog)
	return nil
}

// clusterStatus is /status's "cluster" object.
type clusterStatus struct {
	Scheduler   string `json:"scheduler"`
	Redelivered int    `json:"redeliveries"` // deliveries after the first reported since this scheduler started
	cluster.QueueStats
}

// flightOf returns what workers reported of blog id's run in flight.
func (r *clusterRole) flightOf(id string) flight {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.inflight[id]
}

// status returns the cluster's figures for /status.
func (r *clusterRole) status(name string) clusterStatus {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	q, _ := r.conn.Queue(ctx)
	r.mu.Lock()
	defer r.mu.Unlock()
	return clusterStatus{Scheduler: name, Redelivered: r.redelivs, QueueStats: q}
}

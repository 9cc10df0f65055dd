package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sort"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/cluster"
	"github.com/blogharvest/blogharvest/dispatch"
	"github.com/blogharvest/blogharvest/schedule"
)

// Worker is a cluster worker: it takes runs from the cluster's
// dispatcher, Config.Concurrency at a time, crawls each under the leases
// of its blog and hosts into the shared archive, and reports how each
// ended. It keeps no schedule store. Create it with NewWorker, then Open;
// Close stops it.
type Worker struct {
	env  *env
	life life
	arch *archive // the shared archive written into
	run  *runner  // one harvest and its outcome

	conn  *cluster.Conn
	blogs map[string]Blog // the config's blogs, by id
}

// NewWorker returns a worker for c with production defaults.
func NewWorker(c *Config) *Worker {
	e := newEnv(c)
	a := newArchive(e)
	return &Worker{env: e, arch: a, run: newRunner(e, a)}
}

// Open connects to the cluster, takes the worker's hold on the shared
// archive (a folder: aip.LockWorker, no global lock, a .tmp folder of its
// own, which it sweeps; an S3 archive: no folder, no lock, the blog's
// lease keeps workers apart and the marker's conditional write makes a
// race harmless, doc/storage.md) and starts Config.Concurrency goroutines
// running the cluster's tasks.
func (d *Worker) Open(ctx context.Context) error {
	c := d.env.Config
	o, err := clusterOptions(c, d.env.Logger)
	if err != nil {
		return err
	}
	conn, err := cluster.Connect(ctx, o)
	if err != nil {
		return err
	}
	hold := func(archive string) (*aip.ArchiveLock, error) { return aip.LockWorker(archive, c.Cluster.Name) }
	if err := d.arch.open(ctx, hold); err != nil {
		conn.Close()
		return err
	}
	d.conn, d.blogs = conn, map[string]Blog{}
	for _, b := range c.Blogs {
		d.blogs[b.ID] = b
	}
	d.life.begin()
	d.env.metrics.blogs.Set(float64(len(d.blogs)))
	for range max(c.Concurrency, 1) {
		d.life.goRun(func() { d.work(conn) })
	}
	return nil
}

// work runs the tasks q hands out, one at a time, until the worker
// closes.
func (d *Worker) work(q dispatch.Dispatcher) {
	for {
		dl, err := q.Receive(d.life.ctx)
		if err != nil {
			return
		}
		d.workTask(dl)
	}
}

// Connected reports whether the worker's connection to the cluster is up.
func (d *Worker) Connected() bool { return d.conn != nil && d.conn.Connected() }

// workTask runs one task of the cluster: it reports that it started, takes
// the blog's lease and folder lock and the leases of its hosts, crawls
// with heartbeats, and ends the task: Ack after the last bag is in place,
// Nack with backoff after a transient failure, Term after a permanent one
// or the last attempt.
func (d *Worker) workTask(dl dispatch.Delivery) {
	t := dl.Task()
	n, maxN := dl.Attempt()
	name := d.env.Config.Cluster.Name
	log := d.env.Logger.With("blog", t.Blog, "task", t.ID(), "attempt", n)
	rep := dispatch.Report{Blog: t.Blog, Due: t.Due, Worker: name, Attempt: n}
	b, ok := d.blogs[t.Blog]
	var prev schedule.State
	if err := json.Unmarshal(t.Payload, &prev); err != nil || !ok {
		msg := fmt.Sprintf("blog %s is not in worker %s's config", t.Blog, name)
		if ok {
			msg = "task not readable: " + err.Error()
		}
		log.Error("task refused", "err", msg)
		// The scheduler takes a done report only from the run's holder:
		// hold it to say why it ends.
		l, err := d.conn.Acquire(d.life.ctx, cluster.BlogKey(t.Blog), name)
		if err != nil {
			rep.Kind, rep.Error = dispatch.Retry, publicText(err.Error(), d.env.Config)
			dl.Nack(rep, time.Duration(d.env.Config.Cluster.RetryDelay))
			return
		}
		defer (&held{leases: []*cluster.Lease{l}}).all()
		if err := d.conn.Hold(d.life.ctx, t.Blog, t.Due); err != nil {
			log.Warn("run not recorded as held: its report will be refused", "err", err)
		}
		d.end(dl, rep, runOutcome{Outcome: schedule.OutcomeFailed, Error: msg}, true)
		return
	}
	d.report(dispatch.Started, rep)
	release, err := d.takeLeases(dl, b)
	if err != nil {
		log.Info("blog busy elsewhere: task handed back", "err", err)
		rep.Kind, rep.Error = dispatch.Retry, publicText(err.Error(), d.env.Config)
		dl.Nack(rep, time.Duration(d.env.Config.Cluster.RetryDelay))
		return
	}
	ctx, cancel := context.WithCancel(d.life.ctx)
	stop := d.heartbeat(ctx, cancel, dl, release.leases)
	outcome, tl, res, runErr := d.run.crawl(ctx, b, prev.Watermark, d.run.previous(b.ID, prev), nil)
	stop()
	cancel()
	release.all()
	if runErr == nil && res != nil {
		var next time.Time // when the blog is due again, as the scheduler will find it
		if spec, err := schedule.ParseSpec(b.Schedule, b.Location(), time.Duration(b.Jitter), b.ID); err == nil {
			next = spec.Next(d.env.Now())
		}
		d.run.carry(b.ID, res.State, next)
	}
	r := d.run.reportOf(outcome, tl, res, runErr)
	r.Run = &tl.run // the scheduler keeps it in its run history
	switch {
	case outcome == schedule.OutcomeInterrupted:
		rep.Kind, rep.Error = dispatch.Retry, "interrupted: the worker is stopping or lost a lease"
		dl.Nack(rep, 0)
	case runErr != nil && r.Transient && (maxN == 0 || n < maxN):
		delay := time.Duration(d.env.Config.Cluster.RetryDelay) << min(n-1, 6)
		rep.Kind, rep.Error = dispatch.Retry, r.Error
		log.Warn("attempt failed; the task is retried", "err", r.Error, "in", delay)
		dl.Nack(rep, delay)
	default:
		d.end(dl, rep, r, runErr != nil)
	}
}

// end ends a task with its run's report: Term if failed, Ack otherwise.
func (d *Worker) end(dl dispatch.Delivery, rep dispatch.Report, r runOutcome, failed bool) {
	rep.Kind, rep.Error = dispatch.Done, r.Error
	rep.Payload, _ = json.Marshal(r)
	var err error
	if failed {
		err = dl.Term(rep)
	} else {
		err = dl.Ack(rep)
	}
	if err != nil {
		d.env.Logger.Error("task not acknowledged: it will be delivered again", "blog", rep.Blog, "err", err)
	}
}

// report sends a report of kind k, logging a failure.
func (d *Worker) report(k string, rep dispatch.Report) {
	rep.Kind = k
	if err := d.conn.Report(d.life.ctx, rep); err != nil {
		d.env.Logger.Warn("report not sent", "blog", rep.Blog, "kind", k, "err", err)
	}
}

// held is what a worker holds while running a blog.
type held struct {
	leases []*cluster.Lease
	folder *os.File // the blog folder's lock
}

func (h *held) all() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for _, l := range h.leases {
		l.Release(ctx)
	}
	if h.folder != nil {
		h.folder.Close()
	}
}

// takeLeases takes the blog's lease (and records this worker as the
// holder of the task's run: cluster.Conn.Hold) and its folder's lock,
// failing at once if another worker holds either, then the lease of each
// of its hosts,
// waiting (with heartbeats) while another worker crawls one of them.
func (d *Worker) takeLeases(dl dispatch.Delivery, b Blog) (*held, error) {
	name := d.env.Config.Cluster.Name
	h := &held{}
	l, err := d.conn.Acquire(d.life.ctx, cluster.BlogKey(b.ID), name)
	if err != nil {
		return nil, err
	}
	h.leases = append(h.leases, l)
	if err := d.conn.Hold(d.life.ctx, b.ID, dl.Task().Due); err != nil { // the scheduler takes the run's report from its holder only
		h.all()
		return nil, err
	}
	if d.arch.lock != nil { // a folder archive; an S3 one has no folder to lock
		if h.folder, err = aip.LockBlog(d.arch.lock, b.ID); err != nil {
			h.all()
			return nil, err
		}
	}
	beat := time.Duration(d.env.Config.Cluster.AckWait) / 3
	last := time.Now()
	for _, host := range hostsOf(b) {
		for {
			l, err := d.conn.Acquire(d.life.ctx, cluster.HostKey(host), name+" for "+b.ID)
			if err == nil {
				h.leases = append(h.leases, l)
				break
			}
			if !errors.Is(err, cluster.ErrHeld) || d.life.ctx.Err() != nil {
				h.all()
				return nil, err
			}
			if time.Since(last) > beat {
				dl.Progress()
				last = time.Now()
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	return h, nil
}

// hostsOf returns the hosts (host[:port]) of a blog's URL and feed, sorted,
// once each.
func hostsOf(b Blog) []string {
	set := map[string]bool{}
	for _, raw := range []string{b.URL, b.Feed} {
		if u, err := url.Parse(raw); err == nil && u.Host != "" {
			set[u.Host] = true
		}
	}
	out := make([]string, 0, len(set))
	for h := range set {
		out = append(out, h)
	}
	sort.Strings(out)
	return out
}

// heartbeat tells the dispatcher the task is in progress every third of the
// ack wait and renews the leases every third of their TTL until stop is
// called; a lease that cannot be renewed cancels the crawl.
func (d *Worker) heartbeat(ctx context.Context, cancel context.CancelFunc, dl dispatch.Delivery, leases []*cluster.Lease) (stop func()) {
	o := d.conn.Options()
	every := min(o.AckWait, o.LeaseTTL) / 3
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if err := dl.Progress(); err != nil {
				d.env.Logger.Warn("heartbeat not sent", "blog", dl.Task().Blog, "err", err)
			}
			for _, l := range leases {
				rctx, rcancel := context.WithTimeout(ctx, every)
				err := l.Renew(rctx)
				rcancel()
				if err != nil && ctx.Err() == nil && !errors.Is(err, cluster.ErrLost) {
					d.env.Logger.Warn("lease not renewed; trying again", "lease", l.Key(), "err", err)
					continue
				}
				if err != nil && ctx.Err() == nil {
					d.env.Logger.Error("lease lost: crawl stopped", "blog", dl.Task().Blog, "lease", l.Key(), "err", err)
					cancel()
					return
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}

// Close stops taking tasks, cancels the crawls (their tasks are handed
// back), waits for them up to Grace and lets go of the archive and the
// connection.
func (d *Worker) Close() error {
	d.life.end(d.env)
	d.conn.Close()
	return d.arch.close()
}

package daemon

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/schedule"
)

// planner is the scheduling part the local daemon and a cluster's
// scheduler share: the schedule store (each blog's state, its run
// history and its backoff: setNext, reschedule), the configured blogs and
// their specs, the schedule.Scheduler that fires them, which runs are in
// flight, the last warning of each blog, and the notifications of failed
// runs. What a firing does is the role's: enqueue, called with mu held,
// hands the run to the role's dispatcher (the in-process pool, or the
// cluster's). openPlanner makes it with its store; plan starts firing.
type planner struct {
	env   *env
	store *schedule.Store // the schedule store
	// history is the last runs of each blog, for the status page (kept in
	// the schedule store: runhistory.go).
	history runHistory

	sched   *schedule.Scheduler
	enqueue func(id string) // hands a run of blog id to the role's dispatcher; mu is held

	mu      sync.Mutex               // guards what follows and env.Config
	blogs   map[string]*Blog         // the config's blogs, by id: pointers into Config.Blogs (a copy each cost 100 000 blogs 44 MB)
	specs   map[string]schedule.Spec // their parsed schedules
	running map[string]bool          // blogs whose run is in progress
	again   map[string]bool          // fired while running: run once more after
	closed  bool
	held    map[string]bool   // blogs an audit reads now (in running too, not shown as running; audit.go)
	idle    chan struct{}     // closed and replaced when a run ends (planner.hold)
	warns   map[string]string // last warning per blog, for /status
	notify  *notifier         // notifications of failed runs and audit problems (notify.go)
}

// newPlanner returns the planner of a role reading and writing store.
func newPlanner(e *env, store *schedule.Store) *planner {
	return &planner{env: e, store: store, warns: map[string]string{}}
}

// openPlanner opens the schedule store of e's config, logging a damaged
// one set aside, and reads its run history. A store another process holds
// is tried again tries times (a scheduler that just lost its lease may
// still be letting go of the file).
func openPlanner(e *env, tries int) (*planner, error) {
	c := e.Config
	if err := os.MkdirAll(filepath.Dir(c.State), 0o755); err != nil {
		return nil, fmt.Errorf("state %s: %w", c.State, err)
	}
	var store *schedule.Store
	var err error
	for range max(tries, 1) {
		if store, err = schedule.Open(c.State); !errors.Is(err, schedule.ErrInUse) {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	logRecovery(e.Logger, store.Recovered())
	p := newPlanner(e, store)
	p.loadHistory()
	p.releaseMapped() // loadHistory read every blog's runs
	return p, nil
}

// releaseEvery is how often a planner takes the state file's pages out of
// its resident set (schedule.Store.ReleaseMapped): every blog's state is
// read at its run and at start-up, so without it a scheduler of 100 000
// blogs held the whole file mapped (202–229 MB; BenchmarkScale,
// doc/scale.md). A minute's reads map a minute's blogs again.
const releaseEvery = time.Minute

// releaseMapped takes the state file's pages out of the resident set,
// logging a failure (the pages stay: nothing else changes).
func (p *planner) releaseMapped() {
	if err := p.store.ReleaseMapped(); err != nil {
		p.env.Logger.Warn("state file pages not released", "err", err)
	}
}

// releaseLoop calls releaseMapped every releaseEvery until ctx ends.
func (p *planner) releaseLoop(ctx context.Context) {
	t := time.NewTicker(releaseEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			p.releaseMapped()
		}
	}
}

// close closes the schedule store.
func (p *planner) close() error { return p.store.Close() }

// plan schedules every blog of c, firing through enqueue, and starts the
// notifications within l; start (p.sched.Open) is the caller's.
func (p *planner) plan(c *Config, enqueue func(id string), l *life) error {
	p.blogs, p.specs = map[string]*Blog{}, map[string]schedule.Spec{}
	p.running, p.again = map[string]bool{}, map[string]bool{}
	p.enqueue = enqueue
	p.sched = schedule.NewScheduler()
	p.sched.Now = p.env.Now
	p.sched.Fire = p.fire
	p.notify = newNotifier(c.Notify, p.env.Logger)
	l.goRun(func() { p.notify.run(l.ctx) })
	l.goRun(func() { p.releaseLoop(l.ctx) })
	_, err := p.apply(c)
	return err
}

// halt stops firing; it reports false if it was halted already.
func (p *planner) halt() bool {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return false
	}
	p.closed = true
	p.mu.Unlock()
	if p.sched != nil {
		p.sched.Close()
	}
	return true
}

// configChange is what applying a config changed, by blog id.
type configChange struct {
	added, removed, rescheduled, changed []string
}

// apply schedules the blogs of c, unschedules those it no longer has, and
// reschedules those whose schedule changed; it returns what changed.
func (p *planner) apply(c *Config) (configChange, error) {
	var ch configChange
	now := p.env.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	keep := map[string]bool{}
	for i := range c.Blogs {
		b := &c.Blogs[i]
		keep[b.ID] = true
		spec, err := schedule.ParseSpec(b.Schedule, b.Location(), time.Duration(b.Jitter), b.ID)
		if err != nil {
			return ch, fmt.Errorf("blog %s: %w", b.ID, err)
		}
		old, existed := p.specs[b.ID]
		oldBlog := p.blogs[b.ID]
		p.blogs[b.ID], p.specs[b.ID] = b, spec
		if existed && old.String() == spec.String() {
			if oldBlog == nil || !reflect.DeepEqual(*oldBlog, *b) {
				ch.changed = append(ch.changed, b.ID)
			}
			continue
		}
		if existed {
			ch.rescheduled = append(ch.rescheduled, b.ID)
		} else {
			ch.added = append(ch.added, b.ID)
		}
		st, _, err := p.store.Get(b.ID)
		if err != nil {
			return ch, err
		}
		p.sched.Set(b.ID, spec, schedule.DueOnStartFor(st, spec, now))
	}
	for id := range p.blogs {
		if !keep[id] {
			delete(p.blogs, id)
			delete(p.specs, id)
			p.sched.Remove(id)
			ch.removed = append(ch.removed, id)
			p.env.Logger.Info("blog removed from schedule", "blog", id)
		}
	}
	sort.Strings(ch.removed)
	p.env.Config = c
	p.env.metrics.blogs.Set(float64(len(p.blogs)))
	p.notify.setConfig(c.Notify)
	return ch, nil
}

// Reload replaces the config: added blogs are scheduled, removed ones
// unscheduled, changed ones rescheduled. Runs in progress go on. The log
// line names the blogs added, removed, rescheduled and otherwise changed.
func (p *planner) Reload(c *Config) error {
	ch, err := p.apply(c)
	if err != nil {
		return err
	}
	p.env.Logger.Info("config reloaded", "blogs", len(c.Blogs), "added", idList(ch.added), "removed", idList(ch.removed),
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

// setNext sets st's next due time after a run that ended with runErr,
// for a blog that is down after failing for downAfter (isDown): the
// backoff of schedule.NextWhileDown, whatever the error.
func setNext(st *schedule.State, spec schedule.Spec, runErr error, now time.Time, downAfter time.Duration) {
	switch {
	case runErr != nil && isDown(*st, now, downAfter):
		st.NextDue = schedule.NextWhileDown(spec, st.Failures, now)
	case runErr == nil, !blogharvest.IsTransient(runErr):
		st.NextDue = schedule.NextAfterSuccess(spec, now)
	default:
		st.NextDue = schedule.NextAfterFailure(spec, st.Failures, now)
	}
	st.Spec = spec.String()
}

// reschedule stores and sets blog id's next due time after a run that
// ended with runErr.
func (p *planner) reschedule(id string, spec schedule.Spec, runErr error) {
	now := p.env.Now()
	b, _, _ := p.blog(id)
	err := p.store.Update(id, func(st *schedule.State) error {
		setNext(st, spec, runErr, now, time.Duration(b.DownAfter))
		return nil
	})
	if err != nil {
		p.env.Logger.Error("schedule state not saved", "blog", id, "err", err)
		return
	}
	p.setDue(id, spec)
}

// setWarning notes w as blog id's last warning, for /status; a run
// without one leaves no entry (100 000 blogs' empty warnings were 6.8 MB
// of a daemon's heap after 74 000 runs: BenchmarkScale, doc/scale.md).
func (p *planner) setWarning(id, w string) {
	p.mu.Lock()
	if w == "" {
		delete(p.warns, id)
	} else {
		p.warns[id] = w
	}
	p.mu.Unlock()
}

// setDue schedules blog id at its stored NextDue, if it is still
// configured.
func (p *planner) setDue(id string, spec schedule.Spec) {
	st, _, _ := p.store.Get(id)
	p.setDueAt(id, spec, st.NextDue)
}

// setDueAt schedules blog id at due, its NextDue as just stored, if it is
// still configured.
func (p *planner) setDueAt(id string, spec schedule.Spec, due time.Time) {
	p.mu.Lock()
	if _, ok := p.blogs[id]; ok && !p.closed {
		p.sched.Set(id, spec, due)
	}
	p.mu.Unlock()
}

// fire is the Scheduler's callback: it enqueues a run of blog id unless one
// is queued or in progress, in which case it runs once more right after.
func (p *planner) fire(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	if p.running[id] {
		p.again[id] = true
		return
	}
	p.running[id] = true
	p.enqueue(id)
}

// backOff forgets that blog id was fired during its run, which failed:
// its next run is the one its backoff set (setNext), not the slot that
// came while it failed (a blog down would otherwise run back to back).
func (p *planner) backOff(id string) {
	p.mu.Lock()
	delete(p.again, id)
	p.mu.Unlock()
}

// ended marks blog id's run over, enqueueing it once more if it was fired
// during the run.
func (p *planner) ended(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.again[id] && !p.closed {
		delete(p.again, id)
		p.enqueue(id)
		return
	}
	delete(p.running, id)
	delete(p.again, id)
	if p.idle != nil {
		close(p.idle)
		p.idle = nil
	}
}

// blog returns blog id's config and spec, and whether it is configured.
func (p *planner) blog(id string) (Blog, schedule.Spec, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b, ok := p.blogs[id]
	if !ok {
		return Blog{}, schedule.Spec{}, false
	}
	return *b, p.specs[id], true
}

// notifyRun notifies blog id's run, whose end st records, when it failed
// and its failures in a row reach a multiple of notify.after_failures.
func (p *planner) notifyRun(id string, st schedule.State) {
	p.mu.Lock()
	every, b := p.env.Config.Notify.afterFailures(), p.blogs[id]
	p.mu.Unlock()
	if b == nil {
		return // no longer configured
	}
	if st.Outcome != schedule.OutcomeFailed || st.Failures < 1 || st.Failures%every != 0 {
		return
	}
	p.notify.send(Notification{Event: "run-failed", Blog: id, URL: b.URL, Error: st.LastError, ConsecutiveFailures: st.Failures})
}

package daemon

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/schedule"
)

// planner is the schedule side the local daemon and a cluster's scheduler
// share: the configured blogs and their specs, the schedule.Scheduler
// that fires them, which runs are in flight, and /status. What a firing
// does is the role's: enqueue, called with mu held, hands the run to the
// role's dispatcher (the in-process pool, or the cluster's).
type planner struct {
	core

	sched   *schedule.Scheduler
	enqueue func(id string) // hands a run of blog id to the role's dispatcher; mu is held
	board   flightBoard     // what a cluster's workers reported, for /status; nil in one process

	blogs   map[string]Blog          // the config's blogs, by id
	specs   map[string]schedule.Spec // their parsed schedules
	running map[string]bool          // blogs whose run is in progress
	again   map[string]bool          // fired while running: run once more after
	closed  bool

	held   map[string]bool // blogs an audit reads now (in running too, not shown as running; audit.go)
	idle   chan struct{}   // closed and replaced when a run ends (planner.waitIdle)
	notify *notifier       // notifications of failed runs and audit problems (notify.go)
	audits *auditor        // the local daemon's fixity audits; nil in a cluster's scheduler
	views  entryViews      // the entries as they looked, as WACZ files (entryview.go)
}

// flightBoard is what a cluster scheduler adds to /status: its workers'
// reports of each blog's run in flight, and the queue's figures.
type flightBoard interface {
	flightOf(id string) flight
	status(name string) clusterStatus
}

// plan schedules every blog of c, firing through enqueue; start
// (p.sched.Open) is the caller's.
func (p *planner) plan(c *Config, enqueue func(id string)) error {
	p.blogs, p.specs = map[string]Blog{}, map[string]schedule.Spec{}
	p.running, p.again = map[string]bool{}, map[string]bool{}
	p.enqueue = enqueue
	p.sched = schedule.NewScheduler()
	p.sched.Now = p.Now
	p.sched.Fire = p.fire
	p.notify = newNotifier(c.Notify, p.Logger)
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		p.notify.run(p.ctx)
	}()
	_, err := p.apply(c)
	return err
}

// stop stops firing, cancels the role's crawls and loops and waits for
// them up to Grace; it reports false if it was stopped already.
func (p *planner) stop() bool {
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
	if p.cancel != nil {
		p.cancel()
	}
	p.waitGrace()
	p.views.close()
	return true
}

// base returns the planner of the role that embeds it.
func (p *planner) base() *planner { return p }

// configChange is what applying a config changed, by blog id.
type configChange struct {
	added, removed, rescheduled, changed []string
}

// apply schedules the blogs of c, unschedules those it no longer has, and
// reschedules those whose schedule changed; it returns what changed.
func (p *planner) apply(c *Config) (configChange, error) {
	var ch configChange
	now := p.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	keep := map[string]bool{}
	for _, b := range c.Blogs {
		keep[b.ID] = true
		spec, err := schedule.ParseSpec(b.Schedule, b.Location(), time.Duration(b.Jitter), b.ID)
		if err != nil {
			return ch, fmt.Errorf("blog %s: %w", b.ID, err)
		}
		old, existed := p.specs[b.ID]
		oldBlog := p.blogs[b.ID]
		p.blogs[b.ID], p.specs[b.ID] = b, spec
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
			p.Logger.Info("blog removed from schedule", "blog", id)
		}
	}
	sort.Strings(ch.removed)
	p.Config = c
	p.metrics.blogs.Set(float64(len(p.blogs)))
	p.notify.setConfig(c.Notify)
	p.audits.reloaded()
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
	p.Logger.Info("config reloaded", "blogs", len(c.Blogs), "added", idList(ch.added), "removed", idList(ch.removed),
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

// setDue schedules blog id at its stored NextDue, if it is still
// configured.
func (p *planner) setDue(id string, spec schedule.Spec) {
	st, _, _ := p.store.Get(id)
	p.mu.Lock()
	if _, ok := p.blogs[id]; ok && !p.closed {
		p.sched.Set(id, spec, st.NextDue)
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
	return b, p.specs[id], ok
}

// notifyRun notifies blog id's run, whose end st records, when it failed
// and its failures in a row reach a multiple of notify.after_failures.
func (p *planner) notifyRun(id string, st schedule.State) {
	p.mu.Lock()
	every, b := p.Config.Notify.afterFailures(), p.blogs[id]
	p.mu.Unlock()
	if st.Outcome != schedule.OutcomeFailed || st.Failures < 1 || st.Failures%every != 0 {
		return
	}
	p.notify.send(Notification{Event: "run-failed", Blog: id, URL: b.URL, Error: st.LastError, ConsecutiveFailures: st.Failures})
}

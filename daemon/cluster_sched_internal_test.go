package daemon

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/dispatch"
	"github.com/blogharvest/blogharvest/schedule"
)

// TestClusterSchedulerThroughLocalDispatcher: the cluster's scheduler
// reaches its workers only through a dispatcher (Enqueue out, Reports
// back), so the in-process dispatch.Local drives it as well as NATS does,
// with no connection and no lease: a due blog's run arrives on the Local
// queue carrying its schedule state (marked running), a failed attempt's
// report shows on /status, and the done report the worker acks with is
// recorded: outcome, entries, watermark and the blog's next regular run.
func TestClusterSchedulerThroughLocalDispatcher(t *testing.T) {
	s, dl := schedulerOnLocal(t, dailyConfig(t, t.TempDir(), "a"))
	task := dl.Task()
	var st schedule.State
	if err := json.Unmarshal(task.Payload, &st); err != nil || task.Blog != "a" || st.Outcome != schedule.OutcomeRunning ||
		st.Runs != 1 || !task.Due.Equal(st.NextDue) {
		t.Fatalf("task %s with state %+v (%v); want blog a, running, run 1, due its NextDue", task.ID(), st, err)
	}
	rep := dispatch.Report{Blog: "a", Due: task.Due, Worker: "w1", Attempt: 2}
	rep.Kind, rep.Error = dispatch.Retry, "503 from the blog"
	if err := dl.Nack(rep, 0); err != nil {
		t.Fatal(err)
	}
	if got := waitStatus(t, s, func(b BlogStatus) bool { return b.AttemptError != "" }); got.Worker != "w1" ||
		got.Attempt != 2 || got.AttemptError != "503 from the blog" || !got.Running {
		t.Errorf("after a retry report, /status %+v; want worker w1, attempt 2, its error, running", got)
	}

	mark := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	out, _ := json.Marshal(runOutcome{Outcome: schedule.OutcomeOK, Stats: RunStats{Entries: 3}, HasResult: true, Watermark: mark})
	rep.Kind, rep.Error, rep.Attempt, rep.Payload = dispatch.Done, "", 3, out
	before := time.Now()
	if err := dl.Ack(rep); err != nil {
		t.Fatal(err)
	}
	got := waitStatus(t, s, func(b BlogStatus) bool { return b.Outcome == schedule.OutcomeOK && !b.Running }) // running ends last
	_, spec, _ := s.plan.blog("a")
	next := schedule.NextAfterSuccess(spec, before)
	if got.Entries != 3 || !got.Watermark.Equal(mark) || got.Runs != 1 || got.Running || got.Attempt != 3 ||
		!got.NextRun.Equal(next) {
		t.Errorf("after the done report, /status %+v; want 3 entries, watermark %v, 1 run, not running, attempt 3, next run %v",
			got, mark, next)
	}
}

// schedulerOnLocal opens a cluster scheduler for c driven by dispatch.Local
// (closed when the test ends) and returns it with the first task it
// enqueued.
func schedulerOnLocal(t *testing.T, c *Config) (*ClusterScheduler, dispatch.Delivery) {
	t.Helper()
	s := NewClusterScheduler(c)
	s.env.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	q := dispatch.NewLocal(nil)
	s.queue = q
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dl, err := q.Receive(ctx)
	if err != nil {
		t.Fatalf("no task enqueued through the dispatcher: %v", err)
	}
	return s, dl
}

// waitStatus waits until s's status of its one blog satisfies ok and
// returns it.
func waitStatus(t *testing.T, s *ClusterScheduler, ok func(BlogStatus) bool) BlogStatus {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, err := s.Status()
		if err != nil || len(st) != 1 {
			t.Fatalf("status %+v, %v", st, err)
		}
		if ok(st[0]) || time.Now().After(deadline) {
			return st[0]
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestRedeliveredRunCountsWhatEarlierAttemptsArchived: a worker whose
// attempt archived entries and then lost its lease (NATS down) never
// reports them; the redelivered attempt finds them unchanged and reports
// none. The blog's count of entries archived then comes from the archive,
// not from the reports alone (TestClusterSchedulerRejoinsAfterLeaseLost
// saw 0 for a blog with 7 entry AIPs, about one run in four).
func TestRedeliveredRunCountsWhatEarlierAttemptsArchived(t *testing.T) {
	dir := t.TempDir()
	c := dailyConfig(t, dir, "a")
	// What attempt 1 published before its lease was lost: two entries,
	// one of them in two versions.
	for _, v := range []string{"2025/first-0a1b2c3d/v1", "2025/second-4e5f6a7b/v1", "2025/second-4e5f6a7b/v2"} {
		if err := os.MkdirAll(filepath.Join(c.Archive, "a", "entries", filepath.FromSlash(v)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s, dl := schedulerOnLocal(t, c)
	out, _ := json.Marshal(runOutcome{Outcome: schedule.OutcomeOK, Stats: RunStats{Entries: 0}, HasResult: true})
	rep := dispatch.Report{Kind: dispatch.Done, Blog: "a", Due: dl.Task().Due, Worker: "w1", Attempt: 2, Payload: out}
	if err := dl.Ack(rep); err != nil {
		t.Fatal(err)
	}
	got := waitStatus(t, s, func(b BlogStatus) bool { return b.Outcome == schedule.OutcomeOK && !b.Running })
	if got.Entries != 3 {
		t.Errorf("after attempt 2 reported 0 new entries, /status says %d entries archived; the archive holds 3", got.Entries)
	}
}

// TestReportedRunIsOneCommit: a cluster scheduler stores a worker's report
// of a run in one commit of the state file (the outcome, the next due time
// and the worker's run record: schedule.Store.EndRun), where it took two
// (the state, then the record) and read the state back to schedule the
// blog; the blog is then due at the stored next due time, and the record
// is in the file and in /status.
func TestReportedRunIsOneCommit(t *testing.T) {
	c := dailyConfig(t, t.TempDir(), "a")
	s, dl := schedulerOnLocal(t, c)
	before, err := s.plan.store.Commits()
	if err != nil {
		t.Fatal(err)
	}
	run := RunRecord{Start: time.Now().Add(-time.Second), End: time.Now(), Outcome: schedule.OutcomeOK, Requests: 2}
	out, _ := json.Marshal(runOutcome{Outcome: schedule.OutcomeOK, HasResult: true, Run: &run})
	if err := dl.Ack(dispatch.Report{Kind: dispatch.Done, Blog: "a", Due: dl.Task().Due, Worker: "w1", Attempt: 1, Payload: out}); err != nil {
		t.Fatal(err)
	}
	got := waitStatus(t, s, func(b BlogStatus) bool { return b.Outcome == schedule.OutcomeOK && !b.Running && b.LastRun != nil })
	after, err := s.plan.store.Commits()
	if err != nil {
		t.Fatal(err)
	}
	if after-before != 1 {
		t.Errorf("storing a reported run took %d commits, want 1", after-before)
	}
	if got.LastRun.Requests != 2 {
		t.Errorf("/status's last run %+v, want the reported one (2 requests)", got.LastRun)
	}
	st, _, err := s.plan.store.Get("a")
	if err != nil {
		t.Fatal(err)
	}
	if due, ok := s.plan.sched.Due("a"); !ok || !due.Equal(st.NextDue) || !st.NextDue.After(dl.Task().Due) {
		t.Errorf("scheduled at %v (%v); stored next due %v, after the run's due %v", due, ok, st.NextDue, dl.Task().Due)
	}
	if recs, err := s.plan.store.Runs("a"); err != nil || len(recs) != 1 {
		t.Errorf("%d run records in the state file (%v), want 1", len(recs), err)
	}
}

package daemon

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/dispatch"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// TestUnchangedRunWritesTwoCommits runs a fixture blog through the pool's
// run path (runTask, a task taken from a real dispatch.Local) twice and
// counts the state file's commits of the second, unchanged run: two, its
// start and its end (the outcome, the run's record and the next due time
// in one transaction). Each was a commit of its own before, four a run,
// and the state file's commits were over a quarter of the daemon's CPU at
// 10 000 blogs (doc/scale.md, "One write at a run's end"). What the end
// stores is checked too: the outcome, the next due time (in the file and
// in the scheduler), and the run's record in the file's run list.
func TestUnchangedRunWritesTwoCommits(t *testing.T) {
	t.Parallel()
	h, c := sampleBlogConfig(t, fixture.MustNew("wordpress"))
	d := openTestDaemon(t, c)
	d.life.begin()
	t.Cleanup(d.life.cancel)
	if err := d.plan.plan(c, func(string) {}, &d.life); err != nil {
		t.Fatal(err)
	}
	q := dispatch.NewLocal(func(dispatch.Report) {})
	run := func() {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		if err := q.Enqueue(ctx, dispatch.Task{Blog: "sample", Due: d.env.Now()}); err != nil {
			t.Fatal(err)
		}
		dl, err := q.Receive(ctx)
		if err != nil {
			t.Fatal(err)
		}
		d.runTask(ctx, dl)
	}
	run() // the first crawl
	h.take()
	before, err := d.plan.store.Commits()
	if err != nil {
		t.Fatal(err)
	}
	start := d.env.Now()
	run()
	after, err := d.plan.store.Commits()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the unchanged run: %d requests, %d commits", len(h.take()), after-before)
	if after-before != 2 {
		t.Errorf("an unchanged run took %d commits of the state file, want 2 (its start and its end)", after-before)
	}
	st, _, err := d.plan.store.Get("sample")
	if err != nil {
		t.Fatal(err)
	}
	if st.Outcome != "ok" || st.Runs != 2 || st.LastEnd.Before(start) || !st.NextDue.After(start.Add(5*time.Hour)) {
		t.Errorf("state after the run: outcome %q, runs %d, last end %v, next due %v; want ok, 2, after %v, about 6 h on",
			st.Outcome, st.Runs, st.LastEnd, st.NextDue, start)
	}
	if enc, err := json.Marshal(st); err == nil {
		t.Logf("the state each write rewrites whole: %d bytes of JSON (%d feed items kept)", len(enc), len(st.Items))
	}
	if due, ok := d.plan.sched.Due("sample"); !ok || !due.Equal(st.NextDue) {
		t.Errorf("scheduler has the blog due at %v (%v), want its stored NextDue %v", due, ok, st.NextDue)
	}
	recs, err := d.plan.store.Runs("sample")
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d run records in the state file (%v), want 2", len(recs), err)
	}
	t.Logf("the run's record: %d bytes", len(recs[1]))
	var r RunRecord
	if err := json.Unmarshal(recs[1], &r); err != nil || r.Outcome != "ok" || r.Start.Before(start) {
		t.Errorf("the newest run record %s (%v): want this run's, outcome ok", recs[1], err)
	}
}

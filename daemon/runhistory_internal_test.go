package daemon

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/schedule"
)

// TestRunHistoryMemoryBounded: a process with a schedule store keeps one
// run of each blog in memory (and the newest that wrote an AIP), the
// store keeps historyLen, and a blog's page reads them from the store,
// newest first; a restarted process reads back the same newest and
// written runs.
func TestRunHistoryMemoryBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	st, err := schedule.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	c := &Config{Blogs: []Blog{{ID: "a"}}}
	d := newPlanner(newEnv(c), st)
	t0 := time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)
	const runs = historyLen + 10
	for i := range runs {
		r := RunRecord{Start: t0.Add(time.Duration(i) * time.Hour), Requests: i}
		if i == runs-5 {
			r.AIPs = []string{"blogs/a/bag"} // the newest run that wrote, followed by four unchanged
		}
		d.keepRun("a", r)
	}
	if n := len(d.history.runs["a"]); n != 1 {
		t.Errorf("memory keeps %d runs of the blog, want 1", n)
	}
	check := func(d *planner, what string) {
		t.Helper()
		if l := d.history.last("a"); l == nil || l.Requests != runs-1 {
			t.Errorf("%s: last run %+v, want the run with %d requests", what, l, runs-1)
		}
		if w := d.history.lastWritten("a"); w == nil || w.Requests != runs-5 {
			t.Errorf("%s: last run that wrote %+v, want the run with %d requests", what, w, runs-5)
		}
		got := d.runsOf("a")
		if len(got) != historyLen || got[0].Requests != runs-1 || got[len(got)-1].Requests != runs-historyLen {
			t.Errorf("%s: runsOf gives %d runs, newest %d, oldest %d; want %d, %d … %d", what, len(got),
				got[0].Requests, got[len(got)-1].Requests, historyLen, runs-1, runs-historyLen)
		}
	}
	check(d, "running process")
	again := newPlanner(newEnv(c), st)
	again.loadHistory()
	if n := len(again.history.runs["a"]); n != 1 {
		t.Errorf("restarted: memory keeps %d runs, want 1", n)
	}
	check(again, "restarted process")
	st.Close()
}

// TestRunHistoryKeepsMapsCompact: the run records a process keeps in
// memory hold their Methods and Confidence as JSON, not as maps (about
// 3 KB a run that wrote a bag, kept for every blog that ever changed:
// doc/scale.md), and give them back whole.
func TestRunHistoryKeepsMapsCompact(t *testing.T) {
	var h runHistory
	r := RunRecord{Requests: 7, AIPs: []string{"blogs/a/bag"},
		Methods:    map[string]map[string]int{"title": {"feed": 3, "rule": 1}, "created": {"feed": 4}},
		Confidence: map[string]float64{"title": 0.9}}
	h.add("a", r, 1)
	if k := h.runs["a"][0]; k.r.Methods != nil || k.r.Confidence != nil || len(k.methods) == 0 || len(k.confidence) == 0 {
		t.Errorf("the kept run holds maps %v %v and JSON %q %q; want JSON only", k.r.Methods, k.r.Confidence, k.methods, k.confidence)
	}
	if k := h.written["a"]; k.r.Methods != nil {
		t.Errorf("the kept written run holds its Methods as a map")
	}
	for what, got := range map[string]*RunRecord{"last": h.last("a"), "lastWritten": h.lastWritten("a"), "of": &h.of("a")[0]} {
		if got == nil || !reflect.DeepEqual(got.Methods, r.Methods) || !reflect.DeepEqual(got.Confidence, r.Confidence) || got.Requests != 7 {
			t.Errorf("%s: %+v, want %+v", what, got, r)
		}
	}
}

// TestNoWarningLeavesNoEntry: a run without a warning leaves nothing in
// the planner's warnings (100 000 blogs' empty strings: 6.8 MB,
// doc/scale.md), and clears the blog's last one.
func TestNoWarningLeavesNoEntry(t *testing.T) {
	p := newPlanner(newEnv(&Config{}), nil)
	p.setWarning("a", "")
	p.setWarning("b", "slow")
	p.setWarning("b", "")
	if len(p.warns) != 0 {
		t.Errorf("warnings kept: %q, want none", p.warns)
	}
}

package daemon

import (
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
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
	if n := len(d.history.of("a")); n != 1 {
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
	if n := len(again.history.of("a")); n != 1 {
		t.Errorf("restarted: memory keeps %d runs, want 1", n)
	}
	check(again, "restarted process")
	st.Close()
}

// TestRunHistoryCompact: the run records a process keeps in memory are
// encoded (keptRun), give every field back, and weigh about a third of a
// RunRecord in the live heap: on the code before (a RunRecord, its maps
// as JSON, in a one-element slice) 100 000 blogs' newest runs held 26 MB
// of a scheduler's heap, about 290 bytes a blog (BenchmarkScale,
// doc/scale.md). Not parallel: it measures the process's heap.
func TestRunHistoryCompact(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 10, 0, 0, 123456789, time.FixedZone("x", 3600))
	full := RunRecord{Start: t0, End: t0.Add(1500 * time.Millisecond), Duration: "1.5s", Outcome: "ok", Entries: 3,
		Unchanged: 4, Comments: 5, Bytes: 1 << 40, Requests: 7, Warnings: 1, Error: "a problem", AIPs: []string{"blogs/a/bag"},
		AIPsWritten: 12, NewEntries: 2, NewVersions: 1, Changed: []Change{{URL: "https://a.example/p", Bag: "blogs/a/p", Version: 2}},
		Methods:    map[string]map[string]int{"title": {"feed": 3, "rule": 1}, "created": {"feed": 4}},
		Confidence: map[string]float64{"title": 0.9}, Shortfalls: []Shortfall{{URL: "https://a.example/p", Note: "3 of 5"}}}
	unchanged := RunRecord{Start: t0, End: t0.Add(300 * time.Millisecond), Duration: "300ms", Outcome: "ok", Requests: 2}
	var h runHistory
	h.add("a", full)
	h.add("b", unchanged)
	same := func(got *RunRecord, want RunRecord) bool {
		return got != nil && got.Start.Equal(want.Start) && got.End.Equal(want.End) &&
			got.Start.Format(time.RFC3339Nano) == want.Start.Format(time.RFC3339Nano) &&
			reflect.DeepEqual(func() RunRecord { r := *got; r.Start, r.End = time.Time{}, time.Time{}; return r }(),
				func() RunRecord { r := want; r.Start, r.End = time.Time{}, time.Time{}; return r }())
	}
	for what, got := range map[string]*RunRecord{"last": h.last("a"), "lastWritten": h.lastWritten("a"), "of": &h.of("a")[0]} {
		if !same(got, full) {
			t.Errorf("%s: %+v, want %+v", what, got, full)
		}
	}
	if got := h.last("b"); !same(got, unchanged) {
		t.Errorf("unchanged run: %+v, want %+v", got, unchanged)
	}
	if got := h.lastWritten("b"); got != nil {
		t.Errorf("a run that wrote nothing kept as written: %+v", got)
	}
	if k := h.runs["a"]; strings.Contains(string(k), "Methods") || strings.Contains(string(k), "start") {
		t.Errorf("the kept run holds a RunRecord's JSON: %q", k)
	}

	// The weight: 100 000 blogs' unchanged newest runs.
	var many runHistory
	ids := make([]string, 100000)
	for i := range ids {
		ids[i] = fmt.Sprintf("blog-%06d", i)
	}
	before := liveHeap()
	for i, id := range ids {
		r := unchanged
		r.Start = t0.Add(time.Duration(i) * time.Second)
		r.End = r.Start.Add(312 * time.Millisecond)
		r.Duration = (312 * time.Millisecond).String()
		many.add(id, r)
	}
	held := liveHeap() - before
	t.Logf("100 000 blogs' newest runs: %d bytes live, %.0f a blog (the encoding of one: %d bytes)", held,
		float64(held)/100000, len(many.runs["blog-000000"]))
	if per := held / 100000; per > 160 {
		t.Errorf("%d bytes live a blog's newest run, want at most 160 (a RunRecord alone is 256)", per)
	}
	runtime.KeepAlive(&many)
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

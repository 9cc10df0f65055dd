package daemon

import (
	"strings"
	"testing"
	"time"
)

// TestBlogPageWrittenBeforeItsRunIsStored: a run's record reaches the
// in-memory history (the "last run that archived something") before the
// state file's run list, which the blog page reads, holds it (keepRun
// writes the store after the memory; a cluster scheduler's status page
// asked in between saw it). The page renders whole in that window, and
// says "the runs since wrote nothing new" only when the newest stored run
// is not the written one.
func TestBlogPageWrittenBeforeItsRunIsStored(t *testing.T) {
	start := time.Date(2026, 12, 7, 14, 44, 36, 0, time.UTC)
	written := &RunRecord{Start: start, Outcome: "ok", Entries: 3, AIPs: []string{"b/blog/v1"}}
	for _, tc := range []struct {
		name       string
		runs       []RunRecord
		nothingNew bool
	}{
		{"no run stored yet", nil, false},
		{"the written run is the newest", []RunRecord{*written}, false},
		{"a later run wrote nothing", []RunRecord{{Start: start.Add(time.Hour), Outcome: "ok"}, *written}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			err := statusTemplates().ExecuteTemplate(&b, "blog", map[string]any{"Blog": BlogStatus{ID: "b", URL: "https://blog.example/"},
				"Runs": tc.runs, "Written": written, "Version": "test", "Now": start.Add(2 * time.Hour)})
			if err != nil {
				t.Fatalf("the blog page failed: %v", err)
			}
			page := b.String()
			if !strings.Contains(page, `id="written-run"`) || !strings.Contains(page, "</html>") {
				t.Fatalf("the blog page is not whole:\n%s", page)
			}
			if got := strings.Contains(page, "the runs since wrote nothing new"); got != tc.nothingNew {
				t.Errorf("says the runs since wrote nothing new: %v, want %v", got, tc.nothingNew)
			}
		})
	}
}

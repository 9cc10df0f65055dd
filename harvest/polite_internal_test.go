package harvest

import (
	"testing"
	"time"
)

// TestHomeDue: an UpdateCrawl reads the home page (and emits the Blog
// record) when its daily recheck is due, and once a day when rechecks are
// off; a NewCrawl always does.
func TestHomeDue(t *testing.T) {
	now := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		update  bool
		every   time.Duration
		checked time.Time
		want    bool
	}{
		{"new crawl", false, 0, now.Add(-time.Hour), true},
		{"update, never rechecked", true, 0, time.Time{}, true},
		{"update, recheck due", true, 0, now.Add(-25 * time.Hour), true},
		{"update within a day", true, 0, now.Add(-2 * time.Hour), false},
		{"update within the recheck period", true, 72 * time.Hour, now.Add(-25 * time.Hour), false},
		{"rechecks off, within a day", true, -1, now.Add(-2 * time.Hour), false},
		{"rechecks off, a day later", true, -1, now.Add(-25 * time.Hour), true},
	} {
		o := Options{RecheckPosts: tc.every}
		o.State.PostsChecked = tc.checked
		pol := newCrawlPolicy()
		if tc.update {
			pol = updatePolicy(o, now, now)
		}
		c := newCrawl(o, pol, now, nil)
		if got := c.homeDue(); got != tc.want {
			t.Errorf("%s: homeDue %v, want %v", tc.name, got, tc.want)
		}
	}
}

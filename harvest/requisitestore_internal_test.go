package harvest

import (
	"net/http"
	"testing"
	"time"
)

// TestFreshFor: the freshness lifetime of a stored requisite follows RFC
// 9111 §4.2 (max-age before Expires before the heuristic, no-cache and
// no-store stale at once, an invalid Expires expired, the heuristic a
// tenth of the time since Last-Modified, capped).
func TestFreshFor(t *testing.T) {
	date := "Mon, 02 Jan 2006 15:04:05 GMT"
	for _, c := range []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{"Cache-Control": {"public, max-age=600"}, "Expires": {"Mon, 02 Jan 2006 16:04:05 GMT"}, "Date": {date}}, 10 * time.Minute},
		{http.Header{"Cache-Control": {"max-age=600, no-cache"}}, 0},
		{http.Header{"Cache-Control": {"no-store"}, "Last-Modified": {"Mon, 02 Jan 2000 15:04:05 GMT"}, "Date": {date}}, 0},
		{http.Header{"Expires": {"Mon, 02 Jan 2006 16:04:05 GMT"}, "Date": {date}}, time.Hour},
		{http.Header{"Expires": {"0"}, "Date": {date}}, 0},
		{http.Header{"Last-Modified": {"Mon, 02 Jan 2006 05:04:05 GMT"}, "Date": {date}}, time.Hour},
		{http.Header{"Last-Modified": {"Mon, 02 Jan 2000 15:04:05 GMT"}, "Date": {date}}, MaxHeuristicFreshness},
		{http.Header{"Last-Modified": {date}}, 0},
		{http.Header{"ETag": {`"x"`}}, 0},
	} {
		if got := freshFor(c.h); got != c.want {
			t.Errorf("freshFor(%v) = %v, want %v", c.h, got, c.want)
		}
	}
}

package fetch_test

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// TestStatsDelayed: Stats.Delayed counts the requests that waited for their
// host's turn. The clock stands still and sleeps are recorded, not slept, so
// every request after the first comes before the delay has passed.
func TestStatsDelayed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		delay  time.Duration
		robots string
		want   func(requests int64) int64
	}{
		{"delay 0: back to back", 0, "", func(int64) int64 { return 0 }},
		{"delay 1h: all but the first wait", time.Hour, "", func(n int64) int64 { return n - 1 }},
		// robots.txt itself goes at once, and so does the first page: the
		// Crawl-delay spaces the requests after it.
		{"delay 0, Crawl-delay 2: all but robots.txt and the first page wait", 0, "User-agent: *\nCrawl-delay: 2\n",
			func(n int64) int64 { return n - 2 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := serve(t, tc.robots, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
			now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			s := new(sleeps)
			c := newClient(t, fetch.Options{Delay: tc.delay, Now: func() time.Time { return now }, Sleep: s.sleep})
			for range 4 {
				if _, err := c.Get(context.Background(), srv.URL+"/p"); err != nil {
					t.Fatal(err)
				}
			}
			st := c.Stats()
			var n int64
			for _, k := range st.Requests {
				n += k
			}
			if n < 4 {
				t.Fatalf("%d requests counted, want at least the 4 pages: %+v", n, st)
			}
			if want := tc.want(n); st.Delayed != want {
				t.Errorf("Delayed %d of %d requests, want %d; waits %v", st.Delayed, n, want, s.d)
			}
		})
	}
}

// TestTurnWaitOutsideRequestDeadline: the wait for a host's turn before a
// request goes through Options.TurnWait, before the request's deadline
// starts, so a TurnWait that returns later than asked (a daemon waiting to
// take a harvest slot back) does not make the request run out of time.
func TestTurnWaitOutsideRequestDeadline(t *testing.T) {
	srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	var turns []time.Duration
	turnWait := func(ctx context.Context, d time.Duration) error {
		if d > 0 {
			turns = append(turns, d)
			if _, ok := ctx.Deadline(); ok {
				t.Error("TurnWait runs under the request's deadline")
			}
			time.Sleep(300 * time.Millisecond) // longer than the request deadline
		}
		return ctx.Err()
	}
	c := newClient(t, fetch.Options{Delay: 50 * time.Millisecond, RequestDeadline: 200 * time.Millisecond,
		Retries: -1, TurnWait: turnWait})
	for i := range 3 {
		if _, err := c.Get(context.Background(), srv.URL+"/p"); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	if len(turns) == 0 {
		t.Error("TurnWait never asked to wait for the host's turn")
	}
}

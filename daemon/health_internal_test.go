package daemon

import (
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/schedule"
)

// TestBlogDownState: the state a run's end leaves for a blog whose runs
// fail in a row: failing since the first failed run's start, with its last
// answer; down once down_after has passed, then rescheduled by
// schedule.NextWhileDown (a permanent error too); healthy again, with the
// failure forgotten, after one run that succeeds.
func TestBlogDownState(t *testing.T) {
	spec, err := schedule.ParseSpec("@every 2s", time.UTC, 0, "b")
	if err != nil {
		t.Fatal(err)
	}
	const downAfter = time.Hour
	t0 := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	st := schedule.State{LastStart: t0}
	fail := func(at time.Time, answer string, transient bool) {
		st.LastStart = at
		r := runOutcome{Outcome: schedule.OutcomeFailed, Error: "harvest: " + answer, Transient: transient, Answer: answer}
		r.apply(&st, at.Add(time.Second))
		setNext(&st, spec, r.err(), at.Add(time.Second), downAfter)
	}
	fail(t0, "connection refused", true)
	if st.FailingSince != t0 || st.Failures != 1 || st.LastAnswer != "connection refused" {
		t.Fatalf("after one failed run: since %v, failures %d, answer %q", st.FailingSince, st.Failures, st.LastAnswer)
	}
	if h := healthOf(st, t0.Add(time.Minute), downAfter); h != HealthFailing {
		t.Errorf("a minute after the first failure: health %q, want failing", h)
	}
	if want := schedule.NextAfterFailure(spec, 1, t0.Add(time.Second)); !st.NextDue.Equal(want) {
		t.Errorf("failing: next due %v, want NextAfterFailure's %v", st.NextDue, want)
	}
	later := t0.Add(downAfter + time.Minute)
	fail(later, "HTTP 503 Service Unavailable", false) // permanent or not: down is down
	if st.FailingSince != t0 || st.Failures != 2 || st.LastAnswer != "HTTP 503 Service Unavailable" {
		t.Fatalf("after the second failed run: since %v, failures %d, answer %q", st.FailingSince, st.Failures, st.LastAnswer)
	}
	if h := healthOf(st, later, downAfter); h != HealthDown {
		t.Errorf("down_after after the first failure: health %q, want down", h)
	}
	if want := schedule.NextWhileDown(spec, 2, later.Add(time.Second)); !st.NextDue.Equal(want) {
		t.Errorf("down: next due %v, want NextWhileDown's %v", st.NextDue, want)
	}
	ok := runOutcome{Outcome: schedule.OutcomeOK}
	ok.apply(&st, later.Add(time.Hour))
	setNext(&st, spec, nil, later.Add(time.Hour), downAfter)
	if h := healthOf(st, later.Add(time.Hour), downAfter); h != HealthOK || !st.FailingSince.IsZero() || st.LastAnswer != "" {
		t.Errorf("after a run that succeeded: health %q, since %v, answer %q", h, st.FailingSince, st.LastAnswer)
	}
}

// TestAnswerOf: the last answer of a blog that refuses connections, and of
// one that answers 503, names the URL without its user info or query.
func TestAnswerOf(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	_, err = http.Get("http://ada:s3cret@" + addr + "/feed.xml?token=s3cret")
	if err == nil {
		t.Fatal("a closed port answered")
	}
	got := answerOf(blogharvest.Transient(err))
	if want := "connection refused by http://" + addr + "/feed.xml"; got != want {
		t.Errorf("refused: %q, want %q", got, want)
	}
	got = answerOf(errors.Join(errors.New("harvest"), &fetch.StatusError{URL: "https://ada:s3cret@blog.example/feed?key=s3cret", Code: 503}))
	if want := "HTTP 503 Service Unavailable from https://blog.example/feed"; got != want {
		t.Errorf("503: %q, want %q", got, want)
	}
	if got := answerOf(errors.New("fetch https://ada:s3cret@blog.example/x: HTTP 502 Bad Gateway")); strings.Contains(got, "s3cret") || !strings.Contains(got, "502") {
		t.Errorf("502 in text: %q", got)
	}
}

// TestConfigDownAfter: down_after defaults to 72h, a blog may set it, and
// a value that is no positive duration is reported at its line.
func TestConfigDownAfter(t *testing.T) {
	c, err := ParseConfig("t.yaml", []byte("blogs:\n  - id: a\n    url: https://a.example/\n  - id: b\n    url: https://b.example/\n    down_after: 10m\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := time.Duration(c.Blogs[0].DownAfter); got != DefaultDownAfter {
		t.Errorf("down_after unset: %v, want %v", got, DefaultDownAfter)
	}
	if got := time.Duration(c.Blogs[1].DownAfter); got != 10*time.Minute {
		t.Errorf("down_after 10m: %v", got)
	}
	for _, v := range []string{"soon", "0s"} {
		_, err := ParseConfig("t.yaml", []byte("blogs:\n  - id: a\n    url: https://a.example/\n    down_after: "+v+"\n"))
		if err == nil || !strings.Contains(err.Error(), "line 4") || !strings.Contains(err.Error(), "down_after") {
			t.Errorf("down_after %s: %v; want a problem at line 4", v, err)
		}
	}
}

package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sort"
	"time"

	"github.com/blogharvest/blogharvest/schedule"
)

// BlogStatus is one blog's line of /status and of the status command.
type BlogStatus struct {
	ID        string    `json:"id"`
	URL       string    `json:"url"`
	Schedule  string    `json:"schedule"`
	Running   bool      `json:"running"`
	LastStart time.Time `json:"last_start,omitzero"`
	LastEnd   time.Time `json:"last_end,omitzero"`
	Outcome   string    `json:"outcome,omitempty"`
	LastError string    `json:"last_error,omitempty"`
	Warning   string    `json:"warning,omitempty"`
	NextRun   time.Time `json:"next_run,omitzero"`
	Entries   int       `json:"entries_archived"`
	Runs      int       `json:"runs"`
	Failures  int       `json:"consecutive_failures"`
	Watermark time.Time `json:"watermark,omitzero"`
	// Health is HealthOK, HealthFailing or HealthDown (health.go): down
	// once the blog's runs have failed in a row for its down_after.
	Health string `json:"health"`
	// FailingSince is when the first of the failed runs in a row started
	// (the blog is down since then); LastAnswer what the blog answered the
	// last of them, without any secret of a URL. Both empty when healthy.
	FailingSince time.Time `json:"failing_since,omitzero"`
	LastAnswer   string    `json:"last_answer,omitempty"`
	// DownAfter is the blog's down_after, as Go writes a duration.
	DownAfter string `json:"down_after"`
	// IdentityChanged is when a run found the site at the blog's address
	// no longer the blog archived; the blog is paused until accept_change
	// names that day or a later one (zero: not paused). IdentityEvidence
	// is what that run found.
	IdentityChanged  time.Time `json:"identity_changed,omitzero"`
	IdentityEvidence string    `json:"identity_evidence,omitempty"`
	// In cluster mode, of the run in flight (between runs, of the last
	// run): the worker that took it, its delivery (over 1: redelivered) and
	// the error of its last failed attempt.
	Worker       string `json:"worker,omitempty"`
	Attempt      int    `json:"attempt,omitempty"`
	AttemptError string `json:"attempt_error,omitempty"`

	// LastRun is this process's newest run of the blog (runhistory.go);
	// LastWritten its newest run that wrote an AIP.
	LastRun     *RunRecord `json:"last_run,omitempty"`
	LastWritten *RunRecord `json:"last_written,omitempty"`
	// Progress is the run going on in this process: entries written so
	// far, the page its crawl reads now. Nil between runs (and in a
	// cluster's scheduler, whose runs go on in workers).
	Progress *RunProgress `json:"progress,omitempty"`
	// Shortfalls counts, by fate, what the crawl ledger of the blog's
	// latest Blog AIP knows but the archive does not hold (ledgershort.go).
	Shortfalls map[string]int `json:"shortfalls,omitempty"`
}

// statusFrom builds a BlogStatus from config and stored state at now.
func statusFrom(b Blog, st schedule.State, now time.Time) BlogStatus {
	return BlogStatus{ID: b.ID, URL: b.URL, Schedule: b.Schedule, LastStart: st.LastStart, LastEnd: st.LastEnd,
		Outcome: st.Outcome, LastError: st.LastError, NextRun: st.NextDue, Entries: st.Entries, Runs: st.Runs,
		Failures: st.Failures, Watermark: st.Watermark, Health: healthOf(st, now, time.Duration(b.DownAfter)),
		FailingSince: st.FailingSince, LastAnswer: st.LastAnswer, DownAfter: time.Duration(b.DownAfter).String(),
		IdentityChanged: st.IdentityChanged, IdentityEvidence: st.IdentityEvidence}
}

// shown is what a scheduling role adds to what its status server shows:
// the progress of its runs going on in this process, the cluster's
// reports of a blog's run in flight, and its own keys of /status.
type shown interface {
	progress(id string) *RunProgress   // nil: no run of blog id goes on here
	flightOf(id string) (flight, bool) // false: no worker reports runs (one process)
	auditStatus() *AuditStatus         // nil: no audits here
	extra(out map[string]any)          // adds the role's own keys to /status
}

// statusSource is what the status server of a scheduling role (the local
// daemon, a cluster's scheduler) shows: the blogs, their states and runs
// (the planner), what the archive holds of them (the view), the entries
// as WACZ files, and the role's own additions (shown).
type statusSource struct {
	env   *env
	plan  *planner
	view  *archiveView
	views *entryViews
	role  shown
}

// Status returns every configured blog's status, sorted by id.
func (d *statusSource) Status() ([]BlogStatus, error) {
	p := d.plan
	p.mu.Lock()
	blogs := make([]Blog, 0, len(p.blogs))
	for _, b := range p.blogs {
		blogs = append(blogs, *b)
	}
	p.mu.Unlock()
	sort.Slice(blogs, func(i, j int) bool { return blogs[i].ID < blogs[j].ID })
	out := make([]BlogStatus, 0, len(blogs))
	for _, b := range blogs {
		st, _, err := p.store.Get(b.ID)
		if err != nil {
			return nil, err
		}
		s := statusFrom(b, st, d.env.Now())
		p.mu.Lock()
		s.Running, s.Warning = p.running[b.ID] && !p.held[b.ID], publicText(p.warns[b.ID], d.env.Config)
		p.mu.Unlock()
		s.LastRun, s.LastWritten = p.history.last(b.ID), p.history.lastWritten(b.ID)
		s.Progress = d.role.progress(b.ID)
		s.Shortfalls = d.view.shortfalls.of(d.view.store(), b.ID).Counts
		if due, ok := p.sched.Due(b.ID); ok {
			s.NextRun = due
		}
		if f, ok := d.role.flightOf(b.ID); ok {
			s.Worker, s.Attempt, s.AttemptError = f.Worker, f.Attempt, publicText(f.LastFail, d.env.Config)
		}
		out = append(out, s)
	}
	return out, nil
}

// Handler serves /healthz, /metrics, /status (JSON) and the status pages
// (statuspage.go).
func (d *statusSource) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
	d.statusPages(mux)
	d.views.plan, d.views.view = d.plan, d.view
	d.views.routes(mux)
	mux.Handle("GET /metrics", d.env.metrics)
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, r *http.Request) {
		st, err := d.Status()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		out := map[string]any{"version": Build().Version, "blogs": st}
		d.role.extra(out)
		if a := d.role.auditStatus(); a != nil {
			out["audit"] = a
		}
		enc.Encode(out)
	})
	return mux
}

// serveHandler listens on addr and serves h with the timeouts and
// connection cap of limits (defaultHTTPLimits when zero). It returns the
// bound address (addr may end in :0) and a function that shuts the
// server down, waiting at most a few seconds.
func serveHandler(addr string, h http.Handler, limits httpLimits, log *slog.Logger) (net.Addr, func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	stop := serveOn(ln, h, limits, log)
	return ln.Addr(), stop, nil
}

// serveOn serves h on the bound listener ln, as serveHandler does, and
// returns the function that stops it.
func serveOn(ln net.Listener, h http.Handler, limits httpLimits, log *slog.Logger) func() {
	if limits.maxConns == 0 {
		limits = defaultHTTPLimits
	}
	srv, conns := limits.server(h)
	go func() {
		if err := srv.Serve(conns.listener(ln)); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("status server stopped", "err", err)
		}
	}()
	stop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}
	return stop
}

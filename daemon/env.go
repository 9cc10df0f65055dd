package daemon

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest/schedule"
)

// env is what every part of a role reads: the config (replaced by a
// reload under the planner's lock), the log, the clock, the metrics, and
// how long Close waits. A role makes one (newEnv) and hands it to each of
// its parts; the CLI and tests set its fields before Open.
type env struct {
	Config *Config
	Logger *slog.Logger
	Now    func() time.Time // the clock; defaults to time.Now
	// Grace bounds how long Close waits for harvests to end after
	// cancelling them (AIP writes in flight finish within it). If zero, 30s.
	Grace   time.Duration
	metrics *metrics
}

// newEnv returns the env of a role for c with production defaults.
func newEnv(c *Config) *env {
	return &env{Config: c, Logger: slog.Default(), Now: time.Now, metrics: newMetrics()}
}

// life is a role's lifetime: the goroutines it starts count in wg and
// end with ctx, which Close cancels.
type life struct {
	ctx    context.Context // cancelled by Close: ends crawls and loops
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// begin starts the lifetime (Open).
func (l *life) begin() { l.ctx, l.cancel = context.WithCancel(context.Background()) }

// goRun runs f in a goroutine counted in wg.
func (l *life) goRun(f func()) {
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		f()
	}()
}

// end cancels ctx and waits for the goroutines to end, at most e.Grace
// (30s if zero).
func (l *life) end(e *env) {
	if l.cancel != nil {
		l.cancel()
	}
	grace := e.Grace
	if grace == 0 {
		grace = 30 * time.Second
	}
	done := make(chan struct{})
	go func() { l.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		e.Logger.Warn("harvests still running after the grace period; closing anyway", "grace", grace)
	}
}

// logRecovery logs, once, that a damaged state file was set aside.
func logRecovery(log *slog.Logger, r *schedule.Recovery) {
	if r == nil {
		return
	}
	log.Error("state file damaged: set aside, a fresh one started; every blog runs once now (nothing archived is lost)",
		"state", r.Path, "aside", r.Aside, "damage", r.Damage.Reason)
}

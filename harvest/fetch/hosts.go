package fetch

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// hostState holds the politeness of one host: a token bucket spacing
// requests and a semaphore bounding those in flight.
type hostState struct {
	lim *rate.Limiter
	sem chan struct{}
}

// host returns the state of host key h, creating it on first use.
func (c *Client) host(h string) *hostState {
	c.mu.Lock()
	defer c.mu.Unlock()
	hs, ok := c.hosts[h]
	if !ok {
		limit := rate.Inf
		if c.o.Delay > 0 {
			limit = rate.Every(c.o.Delay)
		}
		hs = &hostState{lim: rate.NewLimiter(limit, 1), sem: make(chan struct{}, c.o.PerHost)}
		c.hosts[h] = hs
	}
	return hs
}

// acquire takes a concurrency slot of the host; release gives it back.
func (hs *hostState) acquire(ctx context.Context) (release func(), err error) {
	select {
	case hs.sem <- struct{}{}:
		return func() { <-hs.sem }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// slowDown raises the host's minimum delay to d if it is larger.
func (hs *hostState) slowDown(now time.Time, d time.Duration) {
	if d <= 0 {
		return
	}
	if l := rate.Every(d); l < hs.lim.Limit() {
		hs.lim.SetLimitAt(now, l)
	}
}

// wait blocks until the host's token bucket lets one request through,
// counting the request in Stats.Delayed if it had to wait; sleep does the
// waiting.
func (c *Client) wait(ctx context.Context, h string, sleep func(context.Context, time.Duration) error) error {
	hs := c.host(h)
	now := c.o.Now()
	r := hs.lim.ReserveN(now, 1)
	if !r.OK() {
		return nil
	}
	d := r.DelayFrom(now)
	if d > 0 {
		c.stats.delayed()
	}
	return sleep(ctx, d)
}

// turnKey is the context key of a request whose first exchange already
// had its host's turn (takeTurn): a *atomic.Bool, true until used.
type turnKey struct{}

// takeTurn waits for the host's turn of a request's first exchange with
// Options.TurnWait, before the request's deadline starts, and returns
// the context that tells politeTransport the turn is taken.
func (c *Client) takeTurn(ctx context.Context, h string) (context.Context, error) {
	if err := c.wait(ctx, h, c.o.TurnWait); err != nil {
		return nil, err
	}
	taken := &atomic.Bool{}
	taken.Store(true)
	return context.WithValue(ctx, turnKey{}, taken), nil
}

// turnTaken reports, once, whether ctx's request had its turn already.
func turnTaken(ctx context.Context) bool {
	taken, _ := ctx.Value(turnKey{}).(*atomic.Bool)
	return taken != nil && taken.CompareAndSwap(true, false)
}

// politeTransport spaces every HTTP exchange, redirect hops included, and
// counts them.
type politeTransport struct {
	c    *Client
	next http.RoundTripper
}

// RoundTrip waits for the host's turn (unless the request's first
// exchange took it already), then sends req.
func (t *politeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !turnTaken(req.Context()) {
		if err := t.c.wait(req.Context(), hostKey(req.URL), t.c.o.Sleep); err != nil {
			return nil, err
		}
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		t.c.stats.request(0)
		return nil, err
	}
	t.c.stats.request(resp.StatusCode)
	return resp, nil
}

var _ http.RoundTripper = (*politeTransport)(nil)

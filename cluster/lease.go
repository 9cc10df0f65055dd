package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// ErrHeld is returned by Acquire when another holds the lease.
var ErrHeld = errors.New("cluster: lease held by another")

// ErrLost is returned by Renew when the lease is no longer its holder's:
// the server refused the renewal (the lease lapsed, or another took it),
// or no renewal succeeded for a whole TTL.
var ErrLost = errors.New("cluster: lease lost")

// Lease is one held key of the lease bucket. It lapses LeaseTTL after its
// last renewal.
type Lease struct {
	c     *Conn
	key   string
	owner string

	mu      sync.Mutex
	rev     uint64    // 0 once released or lost
	renewed time.Time // the last successful create or renewal
}

// Acquire takes the lease key for owner if no one holds it; ErrHeld (with
// the holder named) otherwise.
func (c *Conn) Acquire(ctx context.Context, key, owner string) (*Lease, error) {
	rev, err := c.leases.Create(ctx, key, []byte(owner))
	if errors.Is(err, jetstream.ErrKeyExists) {
		holder := ""
		if e, err := c.leases.Get(ctx, key); err == nil {
			holder = string(e.Value())
		}
		return nil, fmt.Errorf("%w: %s holds %s", ErrHeld, holder, key)
	}
	if err != nil {
		return nil, fmt.Errorf("cluster: lease %s: %w", key, err)
	}
	return &Lease{c: c, key: key, owner: owner, rev: rev, renewed: time.Now()}, nil
}

// Renew extends the lease by LeaseTTL. It fails with ErrLost if the lease
// lapsed or was taken by another meanwhile, or no renewal succeeded for a
// whole TTL: the holder must then stop what the lease guards. Any other
// error (the server unreachable for a moment) is worth another try.
func (l *Lease) Renew(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.rev == 0 {
		return fmt.Errorf("%w: %s released", ErrLost, l.key)
	}
	rev, err := l.c.leases.Update(ctx, l.key, []byte(l.owner), l.rev)
	var apiErr *jetstream.APIError
	switch {
	case err == nil:
		l.rev, l.renewed = rev, time.Now()
		return nil
	case errors.As(err, &apiErr), errors.Is(err, jetstream.ErrKeyExists), errors.Is(err, jetstream.ErrKeyNotFound):
		l.rev = 0
		return fmt.Errorf("%w: %s: %v", ErrLost, l.key, err)
	case time.Since(l.renewed) >= l.c.o.LeaseTTL:
		l.rev = 0
		return fmt.Errorf("%w: %s not renewed for %v: %v", ErrLost, l.key, l.c.o.LeaseTTL, err)
	}
	return fmt.Errorf("cluster: lease %s not renewed (trying again): %w", l.key, err)
}

// Release gives the lease up if it is still this holder's.
func (l *Lease) Release(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.rev == 0 {
		return nil
	}
	err := l.c.leases.Delete(ctx, l.key, jetstream.LastRevision(l.rev))
	l.rev = 0
	return err
}

// Key returns the lease's key.
func (l *Lease) Key() string { return l.key }

// BlogKey is the lease key of a blog's run.
func BlogKey(id string) string { return "blog." + id }

// HostKey is the lease key of crawling host (host[:port]): characters a
// key may not hold become "_".
func HostKey(host string) string {
	return "host." + strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.':
			return r
		}
		return '_'
	}, strings.ToLower(host))
}

// SchedulerKey is the lease key of the active scheduler.
const SchedulerKey = "scheduler"

package fetch

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
)

// Backoff bounds: the first retry waits about backoffBase, each next one
// twice as long, never more than backoffMax (before jitter).
const (
	backoffBase = 500 * time.Millisecond
	backoffMax  = 30 * time.Second
)

// retryWait decides whether err after attempt (0-based) is retried and
// after how long.
func (c *Client) retryWait(ctx context.Context, err error, attempt int) (time.Duration, bool) {
	if err == nil || ctx.Err() != nil || attempt >= c.o.Retries || !blogharvest.IsTransient(err) {
		return 0, false
	}
	if errors.Is(err, blogharvest.ErrDisallowed) {
		return 0, false
	}
	if ue := (*UnreachableError)(nil); errors.As(err, &ue) && ue.Robots {
		return 0, false // robots.txt is asked for again after robotsRetry, not at once
	}
	var se *StatusError
	if errors.As(err, &se) && se.RetryAfter > 0 {
		return se.RetryAfter, se.RetryAfter <= MaxRetryAfter
	}
	return backoff(attempt), true
}

// backoff is an exponential delay with ±50 % jitter.
func backoff(attempt int) time.Duration {
	d := backoffBase << min(attempt, 16)
	d = min(d, backoffMax)
	return d/2 + rand.N(d)
}

// parseRetryAfter reads a Retry-After value, delay-seconds or HTTP-date,
// as a duration from now. It returns zero if v is empty, invalid or past.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(min(s, 1<<30)) * time.Second
	}
	t, err := http.ParseTime(v)
	if err != nil || !t.After(now) {
		return 0
	}
	return t.Sub(now).Round(time.Second)
}

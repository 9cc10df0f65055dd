package fetch

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/temoto/robotstxt"
)

// robotsRetry is how long an unreachable robots.txt (5xx, network error)
// keeps its host disallowed before it is asked for again.
const robotsRetry = time.Minute

// RobotsLifetime is how long a fetched robots.txt is used before it is
// asked for again, within one client and across clients given it through
// Options.Robots (RFC 9309 §2.4: no more than 24 hours).
const RobotsLifetime = 24 * time.Hour

// maxRobots is the robots.txt size parsed (RFC 9309 asks for at least
// 500 KiB).
const maxRobots = 512 << 10

// Robots is what a host's robots.txt says to this client.
type Robots struct {
	URL        string
	Status     int           // HTTP status; zero when unreachable
	CrawlDelay time.Duration // for our user agent; zero if none
	Sitemaps   []string      // Sitemap: lines
	File       *blogharvest.File
	Err        error // why it is unreachable; nil when fetched
	data       *robotstxt.RobotsData

	// What netCause and blogharvest.IsTransient say of Err, worked out
	// once when fetchRobots sets it (known), not for every request to the
	// unreachable host that Allowed turns away.
	known     bool
	cause     string
	network   bool // netCause's ok
	transient bool
}

// robotsEntry caches one host's robots.txt; ready closes when fetched.
type robotsEntry struct {
	ready   chan struct{}
	r       *Robots
	expires time.Time // when to ask again
}

// Allowed reports whether robots.txt lets this client fetch rawURL: nil,
// or an error wrapping blogharvest.ErrDisallowed, permanent when the file
// says so and transient when the server answered it with a 5xx. A host
// that gave no answer at all (connection refused, DNS, TLS, timeout)
// disallows nothing: the error is then an *UnreachableError (Robots set),
// transient or permanent as the network error is.
func (c *Client) Allowed(ctx context.Context, rawURL string) error {
	if c.o.IgnoreRobots {
		return nil
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return blogharvest.Permanent(fmt.Errorf("robots %q: %w", rawURL, err))
	}
	if u.Path == "/robots.txt" {
		return nil
	}
	r := c.RobotsFor(ctx, u)
	if r.Err != nil && ctx.Err() != nil {
		// The crawl was cancelled or ran out of time: robots.txt said nothing.
		return fmt.Errorf("fetch %s: robots.txt not read: %w", rawURL, ctx.Err())
	}
	if r.Err != nil && r.Status == 0 {
		// No answer at all: the host is unreachable, which is no robots.txt
		// rule. The page is not fetched, and fails as the host's.
		cause, ok, transient := r.cause, r.network, r.transient
		if !r.known {
			cause, ok = netCause(r.Err)
			transient = blogharvest.IsTransient(r.Err)
		}
		if ok {
			e := &UnreachableError{URL: rawURL, Cause: cause, Robots: true, Err: r.Err}
			if transient {
				return blogharvest.Transient(e)
			}
			return blogharvest.Permanent(e)
		}
	}
	if r.Err != nil {
		return blogharvest.Transient(fmt.Errorf("fetch %s: robots.txt unavailable (%v): %w", rawURL, r.Err, blogharvest.ErrDisallowed))
	}
	if c.refusesDelay(r) {
		return blogharvest.Permanent(&CrawlDelayError{URL: r.URL, Asked: r.CrawlDelay, Cap: c.o.MaxCrawlDelay})
	}
	if !r.data.TestAgent(u.EscapedPath()+querySuffix(u), c.o.UserAgent) {
		return blogharvest.Permanent(fmt.Errorf("fetch %s: %w", rawURL, blogharvest.ErrDisallowed))
	}
	return nil
}

func querySuffix(u *url.URL) string {
	if u.RawQuery == "" {
		return ""
	}
	return "?" + u.RawQuery
}

// RobotsFor returns the robots.txt of u's scheme and host, fetching it on
// first use (unless Options.Robots holds it) and caching it for
// RobotsLifetime (an unreachable one is asked for again after a minute).
func (c *Client) RobotsFor(ctx context.Context, u *url.URL) *Robots {
	key := u.Scheme + "://" + hostKey(u)
	c.mu.Lock()
	e, ok := c.robots[key]
	if ok && isClosed(e.ready) && c.o.Now().After(e.expires) {
		ok = false
	}
	if !ok {
		e = &robotsEntry{ready: make(chan struct{})}
		c.robots[key] = e
		c.mu.Unlock()
		e.r = c.fetchRobots(ctx, key+"/robots.txt")
		e.expires = c.o.Now().Add(RobotsLifetime)
		switch {
		case e.r.Err != nil && ctx.Err() != nil:
			e.expires = c.o.Now() // cancelled: says nothing about the host
		case e.r.Err != nil:
			e.expires = c.o.Now().Add(robotsRetry)
		}
		close(e.ready)
		return e.r
	}
	c.mu.Unlock()
	select {
	case <-e.ready:
		return e.r
	case <-ctx.Done():
		return &Robots{URL: key + "/robots.txt", Err: ctx.Err()}
	}
}

func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// fetchRobots fetches and parses one robots.txt (RFC 9309: 4xx allows
// all, 5xx and network errors disallow all for now; a redirect out of the
// client's scope makes it unavailable, like a 4xx).
func (c *Client) fetchRobots(ctx context.Context, raw string) *Robots {
	r := &Robots{URL: raw}
	u, _ := url.Parse(raw)
	resp, err := c.attempt(ctx, u, Request{URL: raw, Accept: "text/plain"})
	if errors.Is(err, ErrOutOfScope) || errors.Is(err, ErrRefused) {
		// Redirected where this client may not go: unavailable, as after
		// too many redirects (RFC 9309 §2.3.1.2), so no rules apply.
		r.data, _ = robotstxt.FromStatusAndBytes(http.StatusNotFound, nil)
		r.Status = http.StatusNotFound
		return r
	}
	var se *StatusError
	if err != nil && !errors.As(err, &se) {
		r.Err = err
		r.cause, r.network = netCause(err)
		r.transient, r.known = blogharvest.IsTransient(err), true
		return r
	}
	r.Status = resp.Status
	f := resp.File(blogharvest.RoleRobots)
	r.File = &f
	body := resp.Body
	if len(body) > maxRobots {
		body = body[:maxRobots]
	}
	if resp.Status >= 500 {
		r.Err = fmt.Errorf("HTTP %d", resp.Status)
		return r
	}
	c.parseRobots(u, r, resp.Status, body)
	return r
}

// parseRobots parses a robots.txt body answered with status into r and
// applies it.
func (c *Client) parseRobots(u *url.URL, r *Robots, status int, body []byte) {
	var err error
	r.data, err = robotstxt.FromStatusAndBytes(status, body)
	if err != nil {
		r.data, _ = robotstxt.FromStatusAndBytes(404, nil)
	}
	c.applyRobots(u, r)
}

// seedRobots caches the robots.txt captures of Options.Robots that are
// still fresh, so that they are not asked for again.
func (c *Client) seedRobots() {
	now := c.o.Now()
	for _, f := range c.o.Robots {
		u, err := url.Parse(f.URL)
		if err != nil || f.Role != blogharvest.RoleRobots || u.Host == "" || u.Path != "/robots.txt" ||
			f.Status == 0 || f.Status >= 500 || f.Captured.IsZero() || !now.Before(f.Captured.Add(RobotsLifetime)) {
			continue
		}
		body := f.Body
		if len(body) > maxRobots {
			body = body[:maxRobots]
		}
		file := f
		r := &Robots{URL: f.URL, Status: f.Status, File: &file}
		c.parseRobots(u, r, f.Status, body)
		e := &robotsEntry{ready: make(chan struct{}), r: r, expires: f.Captured.Add(RobotsLifetime)}
		close(e.ready)
		c.robots[u.Scheme+"://"+hostKey(u)] = e
	}
}

// RobotsFiles returns the robots.txt captures this client holds and may
// still use (fetched or given in Options.Robots, neither expired nor
// unreachable), for Options.Robots of a later client.
func (c *Client) RobotsFiles() []blogharvest.File {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.o.Now()
	var out []blogharvest.File
	for _, e := range c.robots {
		if !isClosed(e.ready) || e.r == nil || e.r.Err != nil || e.r.File == nil || now.After(e.expires) {
			continue
		}
		out = append(out, *e.r.File)
	}
	slices.SortFunc(out, func(a, b blogharvest.File) int { return strings.Compare(a.URL, b.URL) })
	return out
}

// applyRobots records the sitemaps and applies the crawl-delay of r, at
// most Options.MaxCrawlDelay (a larger one is recorded in Stats).
func (c *Client) applyRobots(u *url.URL, r *Robots) {
	r.Sitemaps = r.data.Sitemaps
	if g := r.data.FindGroup(c.o.UserAgent); g != nil {
		r.CrawlDelay = g.CrawlDelay
		if r.CrawlDelay < 0 { // seconds beyond time.Duration's range wrap around in the parser
			r.CrawlDelay = math.MaxInt64
		}
	}
	d := r.CrawlDelay
	if c.o.MaxCrawlDelay > 0 && d > c.o.MaxCrawlDelay {
		d = c.o.MaxCrawlDelay
		c.stats.cappedDelay(u.Scheme+"://"+hostKey(u), r.CrawlDelay)
	}
	c.host(hostKey(u)).slowDown(c.o.Now(), d)
}

// refusesDelay reports whether r's Crawl-delay exceeds the cap while the
// cap is strict.
func (c *Client) refusesDelay(r *Robots) bool {
	return c.o.StrictCrawlDelay && c.o.MaxCrawlDelay > 0 && r.CrawlDelay > c.o.MaxCrawlDelay
}

// ForgetRobots drops the robots.txt this client holds for u's scheme and
// host (fetched or given in Options.Robots), so that the next RobotsFor
// fetches it again.
func (c *Client) ForgetRobots(u *url.URL) {
	key := u.Scheme + "://" + hostKey(u)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.robots[key]; ok && isClosed(e.ready) {
		delete(c.robots, key)
	}
}

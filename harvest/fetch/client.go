package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"

	"github.com/blogharvest/blogharvest"
)

// Client fetches the resources of one crawl politely and safely. It is safe
// for concurrent use. Create it with New.
type Client struct {
	o      Options
	hc     *http.Client
	tr     *http.Transport // the transport New built (nil when Options.Transport is set): Close closes its connections
	guard  *guard
	proxy  func(*url.URL) (*url.URL, error) // nil when Options.Transport is set
	mu     sync.Mutex
	hosts  map[string]*hostState
	robots map[string]*robotsEntry
	stats  statsCounter
}

// Request is one GET with optional conditional-request validators.
type Request struct {
	URL          string
	ETag         string // sent as If-None-Match (its BaseETag) when set
	LastModified string // sent as If-Modified-Since when set
	Accept       string // the Accept header; if empty, "*/*"
	// Kind says where the request may go (see Page and Subresource); the
	// zero value is Page.
	Kind Kind
	// MaxBody, when positive and below Options.MaxBody, caps this
	// request's body instead (a *TooLargeError past it).
	MaxBody int64
}

// New returns a client configured by o. Proxy variables (HTTP_PROXY,
// HTTPS_PROXY, NO_PROXY) and SSL_CERT_FILE are read now. It fails on an
// unreadable CA file and on an entry of Options.Origins that is not an
// absolute http(s) URL.
func New(o Options) (*Client, error) {
	o = o.withDefaults()
	c := &Client{o: o, hosts: map[string]*hostState{}, robots: map[string]*robotsEntry{}}
	c.stats.init()
	origins, err := newOrigins(o.Origins)
	if err != nil {
		return nil, fmt.Errorf("fetch: new client: %w", err)
	}
	rt := o.Transport
	if rt == nil {
		proxy, addrs := proxyConfig()
		c.proxy = proxy
		c.guard = newGuard(o.AllowHosts, origins, addrs)
		t, err := newTransport(o, c.guard, proxy)
		if err != nil {
			return nil, fmt.Errorf("fetch: new client: %w", err)
		}
		rt, c.tr = t, t
	} else {
		c.guard = newGuard(o.AllowHosts, origins, nil)
	}
	for _, h := range o.FeedHosts {
		c.guard.feedHosts[normHost(h)] = true
	}
	c.seedRobots()
	jar, _ := cookiejar.New(nil)
	rt = c.capturing(rt)
	c.hc = &http.Client{Transport: &politeTransport{c: c, next: withAuth(rt, o.Auth)}, CheckRedirect: c.checkRedirect, Jar: jar}
	return c, nil
}

// Close closes the idle connections of the transport New built (not
// those of an Options.Transport, which the caller owns): a client is one
// crawl's, and a process that runs one crawl after another, each blog with
// its own client, would otherwise keep each finished crawl's connections,
// their buffers and goroutines open until the server or the idle timeout
// (90 s) closes them. The client still works after Close; it dials anew.
func (c *Client) Close() {
	if c.tr != nil {
		c.tr.CloseIdleConnections()
	}
}

// Get fetches rawURL; see Do.
func (c *Client) Get(ctx context.Context, rawURL string) (*Response, error) {
	return c.Do(ctx, Request{URL: rawURL})
}

// Do fetches r.URL: it checks the scope (r.Kind), the address and
// robots.txt, waits its turn for the host, follows redirects and retries
// transient failures with backoff. A 304 answer yields a Response with NotModified set. A non-2xx
// final status returns both the Response (to capture it) and a
// *StatusError; every other error returns a nil Response. Errors are marked
// transient or permanent (blogharvest.IsTransient); a page outside the
// blog's origins, or redirected out of them, wraps ErrOutOfScope and
// nothing is sent to its origin.
func (c *Client) Do(ctx context.Context, r Request) (*Response, error) {
	ctx = context.WithValue(ctx, kindKey{}, r.Kind)
	u, err := c.checkTarget(ctx, r.URL)
	if err != nil {
		return nil, err
	}
	release, err := c.host(hostKey(u)).acquire(ctx)
	if err != nil {
		return nil, blogharvest.Transient(fmt.Errorf("fetch %s: %w", u, err))
	}
	defer release()
	ctx, err = c.takeTurn(ctx, hostKey(u))
	if err != nil {
		return nil, blogharvest.Transient(fmt.Errorf("fetch %s: %w", u, err))
	}
	deadline := c.o.Now().Add(c.o.RequestDeadline)
	ctx, cancel := context.WithTimeoutCause(ctx, c.o.RequestDeadline, c.deadlineError(u, nil))
	defer cancel()
	for attempt := 0; ; attempt++ {
		resp, err := c.attempt(ctx, u, r)
		wait, retry := c.retryWait(ctx, err, attempt)
		if !retry {
			return resp, err
		}
		if c.o.Now().Add(wait).After(deadline) {
			return resp, blogharvest.Transient(c.deadlineError(u, err))
		}
		c.stats.retried()
		if serr := c.o.Sleep(ctx, wait); serr != nil {
			return resp, err
		}
	}
}

// kindKey is the context key of the Kind of the request under way, for
// its redirect hops.
type kindKey struct{}

// kindOf returns the Kind ctx carries; Page when none.
func kindOf(ctx context.Context) Kind {
	k, _ := ctx.Value(kindKey{}).(Kind)
	return k
}

// deadlineError is the end of a request that ran out of
// Options.RequestDeadline; last is its last attempt's error, if any.
func (c *Client) deadlineError(u *url.URL, last error) *TimeoutError {
	return &TimeoutError{URL: u.String(), What: "request deadline", After: c.o.RequestDeadline, Err: last}
}

// checkTarget parses raw and refuses what must not be fetched: other
// schemes, pages (by ctx's Kind) outside the blog's origins, non-public
// literal addresses and private or metadata names, robots.txt exclusions.
func (c *Client) checkTarget(ctx context.Context, raw string) (*url.URL, error) {
	raw = blogharvest.NormalizeURL(raw) // percent-encoded on the wire, as a browser sends it
	u, err := url.Parse(raw)
	if err != nil {
		return nil, blogharvest.Permanent(fmt.Errorf("fetch %q: %w", raw, err))
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, blogharvest.Permanent(fmt.Errorf("fetch %q: not an absolute http(s) URL", raw))
	}
	u.Fragment = ""
	if err := c.guard.checkURL(u, kindOf(ctx)); err != nil {
		return nil, err
	}
	if err := c.Allowed(ctx, u.String()); err != nil {
		return nil, err
	}
	return u, nil
}

// checkRedirect vets each redirect hop like the first URL: no loops, not
// too many, in scope for the request's Kind, no private addresses,
// robots.txt respected.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if n := blogharvest.NormalizeURL(req.URL.String()); n != req.URL.String() {
		if u, err := url.Parse(n); err == nil { // a Location with spaces or braces
			req.URL, req.Host = u, u.Host
		}
	}
	chain := make([]string, 0, len(via)+1)
	for _, v := range via {
		chain = append(chain, v.URL.String())
	}
	next := req.URL.String()
	chain = append(chain, next)
	if c.o.MaxRedirects < 0 {
		return http.ErrUseLastResponse
	}
	for _, v := range chain[:len(chain)-1] {
		if v == next {
			return blogharvest.Permanent(&RedirectError{URL: chain[0], Chain: chain, Loop: true})
		}
	}
	if len(via) > c.o.MaxRedirects {
		return blogharvest.Permanent(&RedirectError{URL: chain[0], Chain: chain})
	}
	_, err := c.checkTarget(req.Context(), next)
	return err
}

// unwrapURLError returns the error inside a *url.Error that our own code
// made (already classified), or err itself.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		var t interface{ Transient() bool }
		if errors.As(ue.Err, &t) {
			return ue.Err
		}
	}
	return err
}

// isProxied reports whether requests to u go through a proxy.
func (c *Client) isProxied(u *url.URL) bool {
	if c.proxy == nil {
		return false
	}
	p, err := c.proxy(u)
	return err == nil && p != nil
}

// capturing wraps rt so that every exchange is recorded (capture.go).
func (c *Client) capturing(rt http.RoundTripper) http.RoundTripper {
	return &captureTransport{next: rt, now: c.o.Now,
		proxied:  func(req *http.Request) bool { return c.isProxied(req.URL) },
		redirect: func(code int) bool { return c.o.MaxRedirects >= 0 && isRedirect(code) }}
}

func hostKey(u *url.URL) string { return strings.ToLower(u.Host) }

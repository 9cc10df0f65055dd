package fetch

import (
	"context"
	"net/http"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/internal/clock"
)

// Defaults used by New for zero fields of Options.
const (
	DefaultUserAgent       = "blogharvest/1.0 (+https://github.com/blogharvest/blogharvest)"
	DefaultTimeout         = 60 * time.Second
	DefaultConnectTimeout  = 10 * time.Second
	DefaultIdleReadTimeout = 20 * time.Second
	DefaultMaxBody         = 20 << 20
	DefaultMaxRedirects    = 10
	DefaultRetries         = 2
	// MaxRetryAfter bounds how long a single Retry-After is waited for
	// inside a request; longer waits are returned to the caller as a
	// transient *StatusError carrying RetryAfter.
	MaxRetryAfter = 2 * time.Minute
	// DefaultMaxCrawlDelay caps a robots.txt Crawl-delay (Options.MaxCrawlDelay).
	DefaultMaxCrawlDelay = time.Minute
	// DefaultRequestDeadline bounds one request with its retries and waits
	// (Options.RequestDeadline).
	DefaultRequestDeadline = 3 * time.Minute
	// DefaultMinRate is the slowest body transfer kept, in bytes per second
	// (Options.MinRate).
	DefaultMinRate = 1 << 10
	// DefaultMinRateWindow is the window over which Options.MinRate is
	// averaged; the first check comes one window after the headers.
	DefaultMinRateWindow = 10 * time.Second
)

// Options configures a Client. The zero value is usable: every zero field
// takes the default stated on it.
type Options struct {
	// UserAgent is sent with every request and used to pick the robots.txt
	// group. If empty, DefaultUserAgent.
	UserAgent string
	// Timeout bounds one attempt of a request, from dialling to the last
	// body byte. If zero, DefaultTimeout.
	Timeout time.Duration
	// ConnectTimeout bounds dialling and the TLS handshake. If zero,
	// DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// IdleReadTimeout bounds the wait for the response headers and for each
	// read of the body (a slow drip is cut off). If zero,
	// DefaultIdleReadTimeout.
	IdleReadTimeout time.Duration
	// MaxBody caps a body in bytes after decompression. If zero,
	// DefaultMaxBody (20 MB).
	MaxBody int64
	// MaxRedirects caps the redirects followed per request. If zero,
	// DefaultMaxRedirects; if negative, redirects are not followed.
	MaxRedirects int
	// Delay is the minimum time between two requests to one host. A larger
	// robots.txt Crawl-delay wins. If zero, requests are not spaced.
	Delay time.Duration
	// PerHost is the number of requests in flight to one host. If zero, 1.
	PerHost int
	// Retries is the number of retries after a transient failure (429, 5xx,
	// timeout, connection error). If zero, DefaultRetries; if negative, none.
	Retries int
	// CAFile names a PEM file of CA certificates added to the system pool,
	// as is the file named by SSL_CERT_FILE. If empty, only SSL_CERT_FILE.
	CAFile string
	// AllowHosts lists host names (or literal IPs) that may resolve to
	// loopback, private or link-local addresses on any port. It is coarse
	// (every port of the host); a crawl uses Origins instead. If empty,
	// only Origins may be non-public.
	AllowHosts []string
	// Origins are the blog's origins, given as URLs of which only scheme,
	// host and port count ("https://blog.example.org", "http://127.0.0.1:8081").
	// When set, every request of Kind Page and each of its redirect hops
	// must lie on one of them (else ErrOutOfScope). The www./bare twin of a
	// host name on the same scheme and port, and for a name on a default
	// port the other of http:80 and https:443, count as the same origin;
	// another port never does. The origins' host:port (exactly) may also
	// resolve to non-public addresses. If empty, pages may go anywhere
	// public.
	Origins []string
	// FeedHosts are host names of blog platforms' own feed services
	// (Blogger's www.blogger.com) where a request of Kind FeedPage may go
	// besides Origins, on any scheme and port; a page or subresource gets
	// nothing from them, and a non-public address is refused there as
	// anywhere off the origins.
	FeedHosts []string
	// IgnoreRobots skips robots.txt entirely (for an archivist's own blogs).
	IgnoreRobots bool
	// Auth, if set, is sent as HTTP basic authentication to its origins
	// only (see BasicAuth). If nil, no credentials are sent.
	Auth *BasicAuth
	// MaxCrawlDelay caps a robots.txt Crawl-delay: a host asking for more is
	// crawled at the cap (Stats.CappedDelays names it). If zero,
	// DefaultMaxCrawlDelay; if negative, no cap.
	MaxCrawlDelay time.Duration
	// StrictCrawlDelay refuses, instead of capping, a host whose Crawl-delay
	// exceeds MaxCrawlDelay: its requests fail with a permanent
	// *CrawlDelayError.
	StrictCrawlDelay bool
	// RequestDeadline bounds a request as a whole: its turn for the host,
	// every attempt, backoff and Retry-After wait. A retry that would end
	// past it is not made; the request then fails with a transient
	// *TimeoutError (What "request deadline") wrapping the last error. If
	// zero, DefaultRequestDeadline.
	RequestDeadline time.Duration
	// MinRate is the slowest body transfer accepted, in bytes per second
	// averaged over MinRateWindow: a slower body is cut off with a transient
	// *SlowTransferError. If zero, DefaultMinRate; if negative, no minimum.
	MinRate int64
	// MinRateWindow is the window MinRate is averaged over (the first check
	// comes one window after the headers). If zero, DefaultMinRateWindow.
	MinRateWindow time.Duration
	// Robots are robots.txt captures of an earlier client (Client.RobotsFiles),
	// used instead of asking again until RobotsLifetime after their capture
	// (RFC 9309 §2.4). Files of another role, with no URL, or expired are
	// ignored. If empty, every host's robots.txt is fetched on first use.
	Robots []blogharvest.File
	// Transport, if set, replaces the default transport; then proxies, CA
	// files, ConnectTimeout and the dial-time address check do not apply
	// (literal private IPs are still refused).
	Transport http.RoundTripper
	// Now returns the current time. If nil, time.Now.
	Now func() time.Time
	// Sleep waits for d or until ctx is done. If nil, a timer-based sleep.
	Sleep func(ctx context.Context, d time.Duration) error
	// TurnWait waits d for a host's turn before a request (Delay, a
	// robots.txt Crawl-delay), outside RequestDeadline; the turns of
	// redirect hops and retries use Sleep. It must return ctx's error
	// when ctx ends, and may return later than d: a daemon lends the
	// crawl's harvest slot to another blog meanwhile and waits to take
	// one back. If nil, Sleep.
	TurnWait func(ctx context.Context, d time.Duration) error
}

// withDefaults returns o with every zero field set to its default.
func (o Options) withDefaults() Options {
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	o.Timeout = orDuration(o.Timeout, DefaultTimeout)
	o.ConnectTimeout = orDuration(o.ConnectTimeout, DefaultConnectTimeout)
	o.IdleReadTimeout = orDuration(o.IdleReadTimeout, DefaultIdleReadTimeout)
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.MaxRedirects == 0 {
		o.MaxRedirects = DefaultMaxRedirects
	}
	if o.PerHost <= 0 {
		o.PerHost = 1
	}
	if o.Retries == 0 {
		o.Retries = DefaultRetries
	}
	if o.MaxCrawlDelay == 0 {
		o.MaxCrawlDelay = DefaultMaxCrawlDelay
	}
	o.RequestDeadline = orDuration(o.RequestDeadline, DefaultRequestDeadline)
	if o.MinRate == 0 {
		o.MinRate = DefaultMinRate
	}
	o.MinRateWindow = orDuration(o.MinRateWindow, DefaultMinRateWindow)
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = clock.Sleep
	}
	if o.TurnWait == nil {
		o.TurnWait = o.Sleep
	}
	return o
}

func orDuration(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

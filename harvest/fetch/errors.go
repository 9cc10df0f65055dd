package fetch

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/blogharvest/blogharvest"
)

// ErrRefused is wrapped by errors for URLs pointing at loopback, private,
// link-local or otherwise non-public addresses that Options.AllowHosts does
// not allow.
var ErrRefused = errors.New("refused non-public address")

// StatusError is an HTTP response whose status is not a success (nor a 304
// answer to a conditional request).
type StatusError struct {
	URL        string
	Code       int
	RetryAfter time.Duration // the server's Retry-After; zero if absent
}

// Error names the URL, the status and any Retry-After.
func (e *StatusError) Error() string {
	s := fmt.Sprintf("fetch %s: HTTP %d %s", e.URL, e.Code, http.StatusText(e.Code))
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(" (retry after %s)", e.RetryAfter)
	}
	return s
}

// TooLargeError is a body that exceeded Options.MaxBody after
// decompression. It wraps blogharvest.ErrTooLarge.
type TooLargeError struct {
	URL   string
	Limit int64 // bytes
}

// Error names the URL and the limit.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("fetch %s: body exceeds %d bytes", e.URL, e.Limit)
}

// Unwrap returns blogharvest.ErrTooLarge.
func (e *TooLargeError) Unwrap() error { return blogharvest.ErrTooLarge }

// RedirectError is a redirect chain that loops or is longer than
// Options.MaxRedirects.
type RedirectError struct {
	URL   string   // the URL first asked for
	Chain []string // the URLs visited, in order, ending with the offending one
	Loop  bool     // true when the chain returns to a URL already visited
}

// Error names the chain's start and whether it loops.
func (e *RedirectError) Error() string {
	if e.Loop {
		return fmt.Sprintf("fetch %s: redirect loop after %d hops back to %s", e.URL, len(e.Chain)-1, e.Chain[len(e.Chain)-1])
	}
	return fmt.Sprintf("fetch %s: more than %d redirects", e.URL, len(e.Chain)-2)
}

// TimeoutError is a request that took too long: to connect, to answer, or
// between two reads of the body.
type TimeoutError struct {
	URL   string
	What  string // "request", "idle read" or "request deadline"
	After time.Duration
	Err   error // for "request deadline": the last attempt's error, if any
}

// Error names what timed out and after how long.
func (e *TimeoutError) Error() string {
	s := fmt.Sprintf("fetch %s: %s timeout after %s", e.URL, e.What, e.After)
	if e.Err != nil {
		s += fmt.Sprintf(" (last error: %v)", e.Err)
	}
	return s
}

// Unwrap returns the last error before a request deadline, or nil.
func (e *TimeoutError) Unwrap() error { return e.Err }

// Timeout reports true, so net.Error-style checks recognise it.
func (e *TimeoutError) Timeout() bool { return true }

// classifyStatus wraps a StatusError as transient or permanent.
func classifyStatus(e *StatusError) error {
	switch {
	case e.Code == http.StatusTooManyRequests, e.Code >= 500, e.Code == http.StatusRequestTimeout:
		return blogharvest.Transient(e)
	default:
		return blogharvest.Permanent(e)
	}
}

// SlowTransferError is a body that arrived slower than Options.MinRate,
// averaged over Options.MinRateWindow.
type SlowTransferError struct {
	URL     string
	Bytes   int64         // bytes read in the window
	Window  time.Duration // the window
	MinRate int64         // bytes per second asked for
}

// Error names the URL, the rate seen and the minimum.
func (e *SlowTransferError) Error() string {
	return fmt.Sprintf("fetch %s: body too slow: %d bytes in %s, below the minimum of %d bytes/s",
		e.URL, e.Bytes, e.Window.Round(time.Millisecond), e.MinRate)
}

// CrawlDelayError is a host whose robots.txt Crawl-delay exceeds
// Options.MaxCrawlDelay while Options.StrictCrawlDelay is set.
type CrawlDelayError struct {
	URL   string        // the robots.txt
	Asked time.Duration // its Crawl-delay
	Cap   time.Duration // Options.MaxCrawlDelay
}

// Error names the robots.txt, the delay it asks for and the cap.
func (e *CrawlDelayError) Error() string {
	return fmt.Sprintf("%s asks for a Crawl-delay of %s, above the cap of %s, and the crawl delay is obeyed strictly: host not crawled",
		e.URL, e.Asked, e.Cap)
}

package fetch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
)

// attempt performs one request of Do, redirects included, and reads the
// body within the limits.
func (c *Client) attempt(ctx context.Context, u *url.URL, r Request) (*Response, error) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	overall := time.AfterFunc(c.o.Timeout, func() {
		cancel(&TimeoutError{URL: u.String(), What: "request", After: c.o.Timeout})
	})
	defer overall.Stop()
	actx, xlog := withExchangeLog(actx)
	var remote string
	actx = httptrace.WithClientTrace(actx, &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) {
		if i.Conn != nil {
			remote = i.Conn.RemoteAddr().String()
		}
	}})
	resp, err := c.hc.Do(c.newRequest(actx, u, r))
	if err != nil {
		return nil, c.transportError(actx, u, err)
	}
	defer resp.Body.Close()
	body, err := c.read(actx, cancel, u, resp, r.MaxBody)
	if err != nil {
		return nil, err
	}
	out, err := c.finish(u, r, resp, body, remote)
	if out != nil {
		out.Exchanges = xlog.exchanges()
	}
	return out, err
}

// newRequest builds the GET for r.
func (c *Client) newRequest(ctx context.Context, u *url.URL, r Request) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	req.Header.Set("User-Agent", c.o.UserAgent)
	req.Header.Set("Accept-Encoding", acceptEncoding)
	req.Header.Set("Accept", "*/*")
	if r.Accept != "" {
		req.Header.Set("Accept", r.Accept)
	}
	if r.ETag != "" {
		req.Header.Set("If-None-Match", BaseETag(r.ETag))
	}
	if r.LastModified != "" {
		req.Header.Set("If-Modified-Since", r.LastModified)
	}
	return req
}

// read reads the body of resp with the idle-read timeout and the size cap
// (Options.MaxBody, or max when smaller and positive: Request.MaxBody).
func (c *Client) read(ctx context.Context, cancel context.CancelCauseFunc, u *url.URL, resp *http.Response, max int64) ([]byte, error) {
	if max <= 0 || max > c.o.MaxBody {
		max = c.o.MaxBody
	}
	idle := c.o.IdleReadTimeout
	t := time.AfterFunc(idle, func() { cancel(&TimeoutError{URL: u.String(), What: "idle read", After: idle}) })
	defer t.Stop()
	var r io.Reader = &idleReader{r: resp.Body, idle: idle, timer: t}
	if c.o.MinRate > 0 {
		r = newRateReader(r, u.String(), c.o.MinRate, c.o.MinRateWindow)
	}
	body, err := readBody(r, resp.Header.Get("Content-Encoding"), resp.Request.URL.String(), max, resp.ContentLength)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil {
			return nil, c.transportError(ctx, u, cause)
		}
		var t interface{ Transient() bool }
		if errors.As(err, &t) {
			return nil, err
		}
		return nil, blogharvest.Transient(fmt.Errorf("fetch %s: read body: %w", u, err))
	}
	c.stats.addBytes(int64(len(body)))
	return body, nil
}

// finish turns a read response into a Response and, for a failure status,
// a classified *StatusError.
func (c *Client) finish(u *url.URL, r Request, resp *http.Response, body []byte, remote string) (*Response, error) {
	out := &Response{
		URL: resp.Request.URL.String(), Status: resp.StatusCode, Header: resp.Header, Body: body,
		Redirects: redirectChain(resp), Captured: c.o.Now(),
	}
	if remote != "" && !c.isProxied(resp.Request.URL) {
		out.RemoteIP, _, _ = net.SplitHostPort(remote)
	}
	switch {
	case resp.StatusCode == http.StatusNotModified:
		out.NotModified = true
		return out, nil
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return out, nil
	case resp.StatusCode >= 300 && resp.StatusCode < 400 && c.o.MaxRedirects < 0:
		return out, nil
	}
	e := &StatusError{URL: out.URL, Code: resp.StatusCode, RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"), c.o.Now())}
	return out, classifyStatus(e)
}

// redirectChain lists the URLs that redirected to resp's, first first.
func redirectChain(resp *http.Response) []string {
	var chain []string
	for prev := resp.Request.Response; prev != nil; prev = prev.Request.Response {
		chain = append([]string{prev.Request.URL.String()}, chain...)
	}
	return chain
}

// transportError classifies an error of the HTTP exchange itself.
func (c *Client) transportError(ctx context.Context, u *url.URL, err error) error {
	if cause := context.Cause(ctx); cause != nil {
		var te *TimeoutError
		if errors.As(cause, &te) {
			return blogharvest.Transient(te)
		}
		return blogharvest.Transient(fmt.Errorf("fetch %s: %w", u, cause))
	}
	err = unwrapURLError(err)
	var t interface{ Transient() bool }
	if errors.As(err, &t) {
		return err
	}
	return classifyNetError(u, err)
}

// classifyNetError marks refused addresses, bad certificates and unknown
// hosts permanent, everything else (resets, refusals, timeouts) transient.
func classifyNetError(u *url.URL, err error) error {
	if ue := unreachable(u.String(), err, false); ue != err {
		err = ue // "host … unreachable (connection refused): …"
	} else {
		err = fmt.Errorf("fetch %s: %w", u, err)
	}
	var dns *net.DNSError
	var cert *tls.CertificateVerificationError
	switch {
	case errors.Is(err, ErrRefused), errors.As(err, &cert):
		return blogharvest.Permanent(err)
	case errors.As(err, &dns) && dns.IsNotFound:
		return blogharvest.Permanent(err)
	}
	return blogharvest.Transient(err)
}

// BaseETag undoes what Apache's mod_deflate does to the ETag of a body it
// compresses ("abc" becomes "abc-gzip", DeflateAlterETag AddSuffix): the
// application behind it (WordPress compares If-None-Match with its own
// ETag, and wants it to match as well as If-Modified-Since) never sees the
// suffix and answers 200 to it. Apache itself matches the base ETag too.
// Every conditional request the client sends carries the base ETag.
func BaseETag(etag string) string {
	for _, suffix := range []string{`-gzip"`, `-br"`} {
		if base, ok := strings.CutSuffix(etag, suffix); ok {
			return base + `"`
		}
	}
	return etag
}

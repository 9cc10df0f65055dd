package fetch

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
)

// maxRedirectBody caps the body kept of a redirect hop; a longer one is
// kept truncated (Exchange.Truncated).
const maxRedirectBody = 64 << 10

// exchangeLog collects the exchanges of one attempt, redirect hops
// included, in the order they happened.
type exchangeLog struct {
	mu  sync.Mutex
	all []blogharvest.Exchange
}

// logKey is the context key of the exchangeLog of the attempt under way.
type logKey struct{}

// withExchangeLog returns ctx carrying a fresh exchangeLog.
func withExchangeLog(ctx context.Context) (context.Context, *exchangeLog) {
	l := &exchangeLog{}
	return context.WithValue(ctx, logKey{}, l), l
}

// add appends x.
func (l *exchangeLog) add(x blogharvest.Exchange) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = append(l.all, x)
}

// exchanges returns what was collected, the last exchange's payload left
// to the Response (its Body is the final response's).
func (l *exchangeLog) exchanges() []blogharvest.Exchange {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := append([]blogharvest.Exchange(nil), l.all...)
	if n := len(out); n > 0 {
		out[n-1].Body, out[n-1].Truncated = nil, false
	}
	return out
}

// captureTransport records every exchange that passes through it into the
// request's exchangeLog, if any. It sits innermost, so it sees the request
// as sent: cookies and credentials added, which it redacts.
type captureTransport struct {
	next     http.RoundTripper
	now      func() time.Time
	proxied  func(req *http.Request) bool
	redirect func(status int) bool // whether the client follows this status
}

// RoundTrip sends req and records the exchange. The body of a response the
// client follows as a redirect is read here (it would be discarded) and
// handed on from memory.
func (t *captureTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	l, _ := req.Context().Value(logKey{}).(*exchangeLog)
	if l == nil {
		return t.next.RoundTrip(req)
	}
	var remote string
	ctx := httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) {
		if i.Conn != nil {
			remote = i.Conn.RemoteAddr().String()
		}
	}})
	req = req.WithContext(ctx)
	x := blogharvest.Exchange{Method: req.Method, URL: withoutUserinfo(req.URL.String()),
		RequestHeader: redactRequest(req), Sent: t.now()}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	x.Received = t.now()
	x.RequestProto, x.Proto, x.Status, x.Reason = resp.Proto, resp.Proto, resp.StatusCode, resp.Status
	x.ResponseHeader = redactResponse(resp.Header)
	if remote != "" && !t.proxied(req) {
		x.RemoteIP, _, _ = net.SplitHostPort(remote)
	}
	if resp.Header.Get("Location") != "" && t.redirect(resp.StatusCode) {
		raw, truncated := readRedirectBody(resp)
		x.Body, x.Truncated = decodeRedirectBody(raw, resp.Header.Get("Content-Encoding")), truncated
	}
	l.add(x)
	return resp, nil
}

// readRedirectBody reads up to maxRedirectBody bytes of resp's body and
// replaces the body by what was read.
func readRedirectBody(resp *http.Response) ([]byte, bool) {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxRedirectBody+1))
	resp.Body.Close()
	truncated := len(raw) > maxRedirectBody
	if truncated {
		raw = raw[:maxRedirectBody]
	}
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	return raw, truncated
}

// decodeRedirectBody content-decodes a redirect's body as readBody does a
// final one; a body that does not decode is kept as it came.
func decodeRedirectBody(raw []byte, enc string) []byte {
	b, err := readBody(bytes.NewReader(raw), enc, "", maxRedirectBody*16, int64(len(raw)))
	if err != nil {
		return raw
	}
	return b
}

// isRedirect reports whether the client follows a response with status
// code (and a Location) as a redirect.
func isRedirect(code int) bool {
	switch code {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}

// secretRequestHeaders hold credentials; their values are never kept.
var secretRequestHeaders = []string{"Authorization", "Proxy-Authorization"}

// redactRequest returns the headers of req as sent, Host first set, with
// credentials and cookie values redacted.
func redactRequest(req *http.Request) map[string][]string {
	h := req.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	h.Set("Host", host)
	for _, k := range secretRequestHeaders {
		for i, v := range h[k] {
			scheme, _, _ := strings.Cut(v, " ")
			h[k][i] = scheme + " " + blogharvest.Redacted
		}
	}
	for i, v := range h["Cookie"] {
		h["Cookie"][i] = redactCookies(v)
	}
	return h
}

// redactResponse returns a copy of the response headers h with the values
// of Set-Cookie redacted (names and attributes kept).
func redactResponse(h http.Header) map[string][]string {
	out := h.Clone()
	for i, v := range out["Set-Cookie"] {
		pair, attrs, found := strings.Cut(v, ";")
		name, _, _ := strings.Cut(pair, "=")
		out["Set-Cookie"][i] = strings.TrimSpace(name) + "=" + blogharvest.Redacted
		if found {
			out["Set-Cookie"][i] += ";" + attrs
		}
	}
	return out
}

// redactCookies replaces each value of a Cookie header's name=value pairs.
func redactCookies(v string) string {
	pairs := strings.Split(v, ";")
	for i, p := range pairs {
		name, _, _ := strings.Cut(strings.TrimSpace(p), "=")
		pairs[i] = name + "=" + blogharvest.Redacted
	}
	return strings.Join(pairs, "; ")
}

// withoutUserinfo returns raw without a user:password@ part.
func withoutUserinfo(raw string) string {
	s, _ := blogharvest.StripUserinfo(raw)
	return s
}

// Redact removes the secrets from an exchange recorded by another client
// (the browser): credentials and cookie values of the request, cookie
// values of the response, as this client's own exchanges keep them, and
// user-info from its URL.
func Redact(x *blogharvest.Exchange) {
	req := &http.Request{Header: http.Header(x.RequestHeader).Clone(), Host: http.Header(x.RequestHeader).Get("Host")}
	if u, err := url.Parse(x.URL); err == nil {
		req.URL = u
	} else {
		req.URL = &url.URL{}
	}
	x.RequestHeader = redactRequest(req)
	x.ResponseHeader = redactResponse(http.Header(x.ResponseHeader))
	x.URL = withoutUserinfo(x.URL)
}

package render

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// Response is one HTTP response the browser received while rendering a
// page, as the DevTools protocol's Network domain reported it, with its
// body: the way Browsertrix records what a browser loads, so that HTTPS
// resources are kept as well (the filtering proxy sees only tunnels).
type Response struct {
	// Exchanges are the request and response, redirect hops first. Headers
	// are as Chromium reports them, secrets included: whoever keeps them
	// must redact them (harvest does, as for its own requests).
	Exchanges []blogharvest.Exchange
	Body      []byte // the last response's body, decoded
	Type      string // Chromium's resource type: Document, Stylesheet, Image, Font, Script, XHR, Fetch …
	// Main is true for the main frame's document (the page itself).
	Main bool
	// FromCache is true when Chromium served the response from its own
	// cache (memory, disk or prefetch cache): no request reached the
	// server, the exchange is a copy of an earlier one.
	FromCache bool
}

// maxRecorded caps the responses recorded per page; maxUnrecorded caps the
// responses past it that are named in Result.Unrecorded (the rest are
// counted in one more item).
const (
	maxRecorded   = 1000
	maxUnrecorded = 100
)

// Unrecorded is a response the browser received whose body is in no
// Response, and why.
type Unrecorded struct {
	URL string
	Why string
}

// netRecorder follows one tab's Network events while it renders one page
// and keeps every finished response, bodies fetched at the end (Chromium
// holds them until the tab navigates away). It is self-contained: a
// listener (onEvent) and a collector (responses).
type netRecorder struct {
	mu     sync.Mutex
	main   string // the main frame's id
	byID   map[network.RequestID]*netEntry
	order  []network.RequestID
	frozen bool
	// over are the URLs requested past maxRecorded (the first
	// maxUnrecorded of them) and overN how many there were in all.
	over  []string
	overN int
}

// netEntry is one request, its redirect hops and its final response.
type netEntry struct {
	hops     []blogharvest.Exchange
	req      *network.Request
	sent     time.Time
	resp     *network.Response
	typ      network.ResourceType
	frame    string
	finished bool
	cached   bool // Network.requestServedFromCache: from the memory cache
}

func newNetRecorder(mainFrame string) *netRecorder {
	return &netRecorder{main: mainFrame, byID: map[network.RequestID]*netEntry{}}
}

// onEvent is a chromedp target listener; it must not block.
func (r *netRecorder) onEvent(ev any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.frozen {
		return
	}
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		r.sent(ev)
	case *network.EventResponseReceived:
		if e := r.byID[ev.RequestID]; e != nil {
			e.resp, e.typ = ev.Response, ev.Type
		}
	case *network.EventLoadingFinished:
		if e := r.byID[ev.RequestID]; e != nil {
			e.finished = true
		}
	case *network.EventRequestServedFromCache:
		if e := r.byID[ev.RequestID]; e != nil {
			e.cached = true
		}
	}
}

// sent starts an entry, or turns the entry's response so far into a
// redirect hop (Chromium reuses the request id across redirects).
func (r *netRecorder) sent(ev *network.EventRequestWillBeSent) {
	if ev.Request == nil || !strings.HasPrefix(ev.Request.URL, "http") {
		return
	}
	e := r.byID[ev.RequestID]
	switch {
	case e != nil && ev.RedirectResponse != nil:
		e.hops = append(e.hops, exchange(e.req, e.sent, ev.RedirectResponse))
	case e == nil && len(r.order) < maxRecorded:
		e = &netEntry{}
		r.byID[ev.RequestID] = e
		r.order = append(r.order, ev.RequestID)
	case e == nil:
		if r.overN++; len(r.over) < maxUnrecorded {
			r.over = append(r.over, ev.Request.URL)
		}
		return
	default:
		return
	}
	e.req, e.sent, e.typ, e.frame = ev.Request, time.Now(), ev.Type, string(ev.FrameID)
}

// responses returns the responses received, in the order their requests
// were sent, with their bodies, and those it could not record: a body
// Chromium no longer holds (or never kept: one over its buffer sizes)
// leaves its response out, named with the reason among the unrecorded, as
// is every request past maxRecorded.
func (r *netRecorder) responses(ctx context.Context) ([]Response, []Unrecorded) {
	r.mu.Lock()
	r.frozen = true
	var todo []network.RequestID
	var missed []Unrecorded
	for _, id := range r.order {
		switch e := r.byID[id]; {
		case e.finished && e.resp != nil:
			todo = append(todo, id)
		case e.req != nil:
			// A request the page sent that had not finished loading (or
			// failed) when the page was captured: it may have reached
			// the server, so it is named, never dropped silently.
			missed = append(missed, Unrecorded{URL: e.req.URL, Why: "not loaded when the page was captured"})
		}
	}
	for _, u := range r.over {
		missed = append(missed, Unrecorded{URL: u, Why: "past the " + itoa(maxRecorded) + " responses recorded per page"})
	}
	if rest := r.overN - len(r.over); rest > 0 {
		missed = append(missed, Unrecorded{Why: itoa(rest) + " more requests past the cap, not named"})
	}
	r.mu.Unlock()
	var out []Response
	for i, id := range todo {
		e := r.byID[id]
		var body []byte
		err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
			var err error
			body, err = network.GetResponseBody(id).Do(ctx)
			return err
		}))
		if ctx.Err() != nil {
			// The page's time ran out while its bodies were read: the
			// responses left are named, never dropped without a word.
			for _, id := range todo[i:] {
				missed = append(missed, Unrecorded{URL: r.byID[id].resp.URL, Why: "its body not read before the page's time ran out"})
			}
			break
		}
		if err != nil {
			if e.resp.Status != 204 && e.resp.Status != 304 { // no body to keep
				missed = append(missed, Unrecorded{URL: e.resp.URL, Why: "the browser kept no body: " + err.Error()})
			}
			continue
		}
		if body == nil {
			body = []byte{}
		}
		xs := append(append([]blogharvest.Exchange(nil), e.hops...), exchange(e.req, e.sent, e.resp))
		out = append(out, Response{Exchanges: xs, Body: body, Type: string(e.typ),
			Main:      e.typ == network.ResourceTypeDocument && e.frame == r.main,
			FromCache: e.cached || e.resp.FromDiskCache || e.resp.FromPrefetchCache})
	}
	return out, missed
}

// exchange turns a request and its response into an Exchange (headers as
// Chromium reports them; multi-valued ones come joined by newlines).
func exchange(req *network.Request, sent time.Time, resp *network.Response) blogharvest.Exchange {
	x := blogharvest.Exchange{Method: req.Method, URL: resp.URL, RequestHeader: headers(req.Headers),
		Status: int(resp.Status), ResponseHeader: headers(resp.Headers), RemoteIP: resp.RemoteIPAddress,
		Sent: sent, Received: sent}
	if len(resp.RequestHeaders) > 0 { // what went over the wire, when Chromium knows it
		x.RequestHeader = headers(resp.RequestHeaders)
	}
	x.Proto = "HTTP/1.1"
	switch strings.ToLower(resp.Protocol) {
	case "h2":
		x.Proto = "HTTP/2.0"
	case "http/1.0":
		x.Proto = "HTTP/1.0"
	}
	x.RequestProto = x.Proto
	if resp.StatusText != "" {
		x.Reason = itoa(int(resp.Status)) + " " + resp.StatusText
	}
	if u := req.URL + req.URLFragment; x.URL == "" {
		x.URL = u
	}
	return x
}

// headers converts DevTools headers into an http.Header-shaped map,
// keys canonicalised and joined values split.
func headers(h network.Headers) map[string][]string {
	out := http.Header{}
	for k, v := range h {
		s, ok := v.(string)
		if !ok || strings.HasPrefix(k, ":") { // HTTP/2 pseudo-headers
			continue
		}
		for _, part := range strings.Split(s, "\n") {
			out.Add(k, part)
		}
	}
	return out
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

package render

import (
	"context"
	"net/http"
	"strings"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// This file keeps the JSON a page's scripts fetched while it rendered
// (XHR and fetch responses): the API a comment widget draws its thread
// from is a better source of the comments than the DOM it draws.

// APIResponse is one JSON response a rendered page's scripts fetched.
type APIResponse struct {
	URL    string // the request URL
	Method string // the request method ("GET", "POST", …)
	Status int    // the HTTP status
	Body   []byte // the response body, decoded
	// ETag and LastModified are the response's validators; "" if none.
	ETag, LastModified string
	// Script is the URL of the script whose code made the request (the
	// innermost frame of the initiator's stack that has a URL: a comment
	// widget's client, not the page that loaded it), as the browser
	// reports it; "" when it does not say.
	Script string
}

// maxAPIResponses and maxAPIBody bound what one page keeps: the first
// responses, each up to maxAPIBody bytes (a larger one is left out).
const (
	maxAPIResponses = 64
	maxAPIBody      = 4 << 20
)

// apiCall is a JSON response seen by the watcher: its request, and whether
// its body has finished loading.
type apiCall struct {
	id             network.RequestID
	url, method    string
	status         int
	etag, modified string
	script         string
	done           bool
}

// apiResponseSeen notes a script's JSON response (the watcher's lock is
// held).
func (w *watcher) apiResponseSeen(ev *network.EventResponseReceived) {
	if ev.Type != network.ResourceTypeXHR && ev.Type != network.ResourceTypeFetch {
		return
	}
	mt := strings.ToLower(ev.Response.MimeType)
	if !strings.Contains(mt, "json") || len(w.apis) >= maxAPIResponses || ev.Response.EncodedDataLength > maxAPIBody {
		return
	}
	h := http.Header(headers(ev.Response.Headers))
	w.apis = append(w.apis, apiCall{id: ev.RequestID, url: ev.Response.URL, method: w.methods[ev.RequestID], status: int(ev.Response.Status),
		etag: h.Get("ETag"), modified: h.Get("Last-Modified"), script: w.scripts[ev.RequestID]})
}

// apiLoaded marks a JSON response's body loaded (the lock is held).
func (w *watcher) apiLoaded(id network.RequestID) {
	for k := range w.apis {
		if w.apis[k].id == id {
			w.apis[k].done = true
		}
	}
}

// apiResponses reads the bodies of the JSON responses of the tab's own
// session whose loading finished; one the browser no longer holds is left
// out.
func (p *pageRun) apiResponses(ctx context.Context) []APIResponse {
	p.w.mu.Lock()
	calls := append([]apiCall(nil), p.w.apis...)
	p.w.mu.Unlock()
	var out []APIResponse
	for _, c := range calls {
		if !c.done {
			continue
		}
		var data []byte
		err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
			var err error
			data, err = network.GetResponseBody(c.id).Do(ctx)
			return err
		}))
		if err != nil || len(data) > maxAPIBody {
			continue
		}
		out = append(out, APIResponse{URL: c.url, Method: c.method, Status: c.status, Body: data, ETag: c.etag, LastModified: c.modified, Script: c.script})
	}
	return out
}

// initiatorScript returns the URL of the script that made a request: the
// first frame with a URL of the initiator's stack and of the stacks it
// continues (an await, a timer), else the initiator's own URL when a
// script made the request; "" for the parser and the browser.
func initiatorScript(in *network.Initiator) string {
	if in == nil || in.Type != network.InitiatorTypeScript {
		return ""
	}
	for st, depth := in.Stack, 0; st != nil && depth < 8; st, depth = st.Parent, depth+1 {
		for _, f := range st.CallFrames {
			if f.URL != "" {
				return f.URL
			}
		}
	}
	return in.URL
}

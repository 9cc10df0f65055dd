package harvest

import (
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/render"
)

// TestFreshFor: the freshness lifetime of a stored requisite follows RFC
// 9111 §4.2 (max-age before Expires before the heuristic, no-cache and
// no-store stale at once, an invalid Expires expired, the heuristic a
// tenth of the time since Last-Modified, capped).
func TestFreshFor(t *testing.T) {
	date := "Mon, 02 Jan 2006 15:04:05 GMT"
	for _, c := range []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{"Cache-Control": {"public, max-age=600"}, "Expires": {"Mon, 02 Jan 2006 16:04:05 GMT"}, "Date": {date}}, 10 * time.Minute},
		{http.Header{"Cache-Control": {"max-age=600, no-cache"}}, 0},
		{http.Header{"Cache-Control": {"no-store"}, "Last-Modified": {"Mon, 02 Jan 2000 15:04:05 GMT"}, "Date": {date}}, 0},
		{http.Header{"Expires": {"Mon, 02 Jan 2006 16:04:05 GMT"}, "Date": {date}}, time.Hour},
		{http.Header{"Expires": {"0"}, "Date": {date}}, 0},
		{http.Header{"Last-Modified": {"Mon, 02 Jan 2006 05:04:05 GMT"}, "Date": {date}}, time.Hour},
		{http.Header{"Last-Modified": {"Mon, 02 Jan 2000 15:04:05 GMT"}, "Date": {date}}, MaxHeuristicFreshness},
		{http.Header{"Last-Modified": {date}}, 0},
		{http.Header{"ETag": {`"x"`}}, 0},
	} {
		if got := freshFor(c.h); got != c.want {
			t.Errorf("freshFor(%v) = %v, want %v", c.h, got, c.want)
		}
	}
}

// TestBrowserRevalidated: a response Chromium revalidated while rendering
// a page (its conditional request answered 304) is the crawl's capture of
// that URL confirmed: the request as sent, answered with the capture's
// status, payload and headers freshened by the 304's, so that aip records
// it as a revisit record naming that capture; a 304 for a URL the crawl
// holds no capture of is not kept (nothing could name its original).
func TestBrowserRevalidated(t *testing.T) {
	const u, other = "http://blog.example/style.css", "http://blog.example/gone.css"
	first := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	orig := blogharvest.File{URL: u, Role: blogharvest.RoleRequisite, MediaType: "text/css", Body: []byte("p{color:red}"),
		Captured: first, Status: 200, Header: map[string][]string{"Content-Type": {"text/css"}, "Etag": {`"a"`}, "Date": {"then"}},
		Exchanges: []blogharvest.Exchange{{Method: "GET", URL: u, Status: 200, Reason: "200 OK", Sent: first}}}
	orig.Sum()
	w := &pageWorker{log: slog.New(slog.NewTextHandler(io.Discard, nil)), fetch: testFetching(Options{})}
	w.fetch.requisites.put(u, mediaResult{file: orig})
	later := first.Add(time.Minute)
	notModified := func(raw string) render.Response {
		return render.Response{Exchanges: []blogharvest.Exchange{{Method: "GET", URL: raw, Status: 304, Reason: "304 Not Modified",
			RequestHeader: map[string][]string{"If-None-Match": {`"a"`}}, ResponseHeader: map[string][]string{"Etag": {`"a"`}, "Date": {"now"}},
			Sent: later}}, Body: []byte{}}
	}
	got := w.browserRequisites(&render.Result{Responses: []render.Response{notModified(u), notModified(other)}})
	if len(got) != 1 {
		t.Fatalf("%d requisites, want 1 (the 304 of a URL the crawl holds no capture of is not kept): %+v", len(got), got)
	}
	f := got[0]
	x := f.Exchanges[len(f.Exchanges)-1]
	if f.SHA256 != orig.SHA256 || string(f.Body) != string(orig.Body) || f.Status != 200 || x.Status != 200 || x.Method != "GET" ||
		!x.Sent.Equal(later) || x.RequestHeader["If-None-Match"] == nil {
		t.Errorf("revalidated requisite %+v, exchange %+v: want the capture's payload and status, the conditional request as sent", f, x)
	}
	if h := http.Header(f.Header); h.Get("Date") != "now" || h.Get("Content-Type") != "text/css" {
		t.Errorf("headers %v: want the capture's, freshened by the 304's", f.Header)
	}
}

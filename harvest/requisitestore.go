package harvest

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// A blog's requisites packages keep every stylesheet, script and image of
// its theme once (aip/requisites.go). An UpdateCrawl that re-reads a
// changed post needs the same requisites again; instead of fetching them
// all once more, it treats the requisites packages as an HTTP cache
// (RFC 9111) of the blog's requisites (Options.ArchivedRequisites):
//
//   - a stored response still fresh (§4.2: Cache-Control max-age, else
//     Expires minus Date, else the heuristic tenth of the time between Date
//     and Last-Modified, capped at MaxHeuristicFreshness; no-cache and
//     no-store make it stale at once) is not asked for: the File is the
//     stored capture (Reused set, an exchange without a method), which
//     no WARC records again (none was sent; the page's metadata record
//     names it);
//   - a stale one is asked for conditionally (If-None-Match with its ETag,
//     If-Modified-Since with its Last-Modified). A 304 keeps the stored
//     payload: the revisit record (WARC-Refers-To the stored response)
//     holds the stored response's status line and headers freshened by the
//     304's (§4.3.4), dated when the 304 came, with the conditional
//     request's record; anything else is a new capture, stored as any
//     other (a revisit record when its payload is the stored one).
//
// The stored captures are read once per crawl, at the first requisite.

// MaxHeuristicFreshness caps the heuristic freshness of a stored requisite
// whose response gave no explicit expiry: a daily update revalidates
// (conditionally) what an hourly one reuses.
const MaxHeuristicFreshness = 24 * time.Hour

// storedRequisites is what the blog's requisites packages hold, by URL,
// read on first use.
type storedRequisites struct {
	load  func() []blogharvest.File // Options.ArchivedRequisites; nil: none
	once  sync.Once
	byURL map[string]heldRequisite
}

// heldRequisite is one stored capture.
type heldRequisite struct{ f blogharvest.File }

// get returns the stored capture of u, if any.
func (s *storedRequisites) get(u string) (heldRequisite, bool) {
	if s == nil || s.load == nil {
		return heldRequisite{}, false
	}
	s.once.Do(func() {
		s.byURL = map[string]heldRequisite{}
		for _, f := range s.load() {
			if f.Status >= 200 && f.Status < 300 && f.SHA256 != "" {
				s.byURL[f.URL] = heldRequisite{f}
			}
		}
	})
	h, ok := s.byURL[u]
	return h, ok
}

// freshFor is the freshness lifetime of a stored response (RFC 9111
// §4.2.1, §4.2.2, as a private cache: s-maxage is not read).
func freshFor(h http.Header) time.Duration {
	cc := strings.ToLower(strings.Join(h.Values("Cache-Control"), ","))
	maxAge := -1
	for _, d := range strings.Split(cc, ",") {
		name, val, _ := strings.Cut(strings.TrimSpace(d), "=")
		switch name {
		case "no-store", "no-cache":
			return 0
		case "max-age":
			if n, err := strconv.Atoi(strings.Trim(val, `"`)); err == nil && n >= 0 {
				maxAge = n
			}
		}
	}
	if maxAge >= 0 {
		return time.Duration(maxAge) * time.Second
	}
	date, derr := http.ParseTime(h.Get("Date"))
	if exp := h.Get("Expires"); exp != "" {
		t, err := http.ParseTime(exp)
		if err != nil || derr != nil { // an invalid Expires means already expired
			return 0
		}
		return max(t.Sub(date), 0)
	}
	lm, err := http.ParseTime(h.Get("Last-Modified"))
	if err != nil || derr != nil || !date.After(lm) {
		return 0
	}
	return min(date.Sub(lm)/10, MaxHeuristicFreshness)
}

// freshAt reports whether the stored response is still fresh at now (its
// age counted from its capture).
func (r heldRequisite) freshAt(now time.Time) bool {
	return now.Sub(r.f.Captured) < freshFor(r.f.Header)
}

// validators returns the ETag and Last-Modified of the stored response,
// for a conditional request.
func (r heldRequisite) validators() (etag, lastModified string) {
	h := http.Header(r.f.Header)
	return h.Get("ETag"), h.Get("Last-Modified")
}

// reuse returns the stored capture as the requisite of a page captured at
// when, without a request: no WARC records it again.
func (r heldRequisite) reuse(when time.Time) blogharvest.File {
	f := r.stored()
	f.Exchanges = []blogharvest.Exchange{{URL: f.URL, Status: f.Status, ResponseHeader: f.Header, Sent: when}}
	return f
}

// revalidated returns the stored capture as confirmed by the 304 resp:
// the conditional request as sent, answered by the stored response's
// status with its headers freshened by the 304's (RFC 9111 §4.3.4).
func (r heldRequisite) revalidated(resp *fetch.Response) blogharvest.File {
	f := r.stored()
	x := blogharvest.Exchange{URL: f.URL, ResponseHeader: resp.Header, Sent: resp.Captured}
	if n := len(resp.Exchanges); n > 0 {
		x = resp.Exchanges[n-1]
	}
	return revalidate(f, nil, x)
}

// revalidate returns the capture orig (its payload, Body or Stored, and
// sha256) as confirmed by the exchange x answered 304, after the redirect
// hops: x as sent, answered by orig's status with orig's headers
// freshened by the 304's (RFC 9111 §4.3.4), so that the WARC holds the
// fetch as a revisit record naming orig's record (aip) and a replayer
// serves orig's response.
func revalidate(orig blogharvest.File, hops []blogharvest.Exchange, x blogharvest.Exchange) blogharvest.File {
	f := orig
	h := http.Header(f.Header).Clone()
	if h == nil {
		h = http.Header{}
	}
	for k, v := range x.ResponseHeader {
		switch http.CanonicalHeaderKey(k) {
		case "Content-Length", "Content-Encoding", "Transfer-Encoding", "Content-Range":
		default:
			h[http.CanonicalHeaderKey(k)] = v
		}
	}
	x.Status, x.Reason, x.ResponseHeader, x.Body = f.Status, "", h, nil
	f.Header = h
	f.Exchanges = append(append([]blogharvest.Exchange(nil), hops...), x)
	return f
}

// stored returns a copy of the stored capture, its body read when it is
// a stylesheet or HTML document (what embedsOf reads for the requisites
// it names in turn), through the archive's store; others keep only their
// store reference (File.Stored).
func (r heldRequisite) stored() blogharvest.File {
	f := r.f
	f.Role = blogharvest.RoleRequisite
	if f.Body == nil && f.Stored != nil && (strings.Contains(f.MediaType, "css") || strings.Contains(f.MediaType, "html")) {
		if b, err := f.Content(); err == nil {
			f.Body = b
		}
	}
	return f
}

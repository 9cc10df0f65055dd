package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/internal/lazyregexp"
	"github.com/blogharvest/blogharvest/schedule"
)

// A blog's health, as the status page and /status show it (BlogStatus.Health).
const (
	HealthOK      = "ok"      // the last run succeeded (or none failed yet)
	HealthFailing = "failing" // its runs have failed in a row for less than down_after
	HealthDown    = "down"    // its runs have failed in a row for down_after or longer: polled with NextWhileDown
)

// isDown reports whether st's blog is down at now: its runs have failed in
// a row since st.FailingSince for downAfter or longer. A zero downAfter
// (a Blog built in code) is DefaultDownAfter.
func isDown(st schedule.State, now time.Time, downAfter time.Duration) bool {
	if downAfter <= 0 {
		downAfter = DefaultDownAfter
	}
	return st.Failures > 0 && !st.FailingSince.IsZero() && now.Sub(st.FailingSince) >= downAfter
}

// healthOf is the health of st's blog at now (HealthOK, HealthFailing or
// HealthDown).
func healthOf(st schedule.State, now time.Time, downAfter time.Duration) string {
	switch {
	case st.Failures == 0:
		return HealthOK
	case isDown(st, now, downAfter):
		return HealthDown
	}
	return HealthFailing
}

// httpStatusRE finds an HTTP status in an error's text ("HTTP 503
// Service Unavailable"), for errors whose chain was flattened.
var httpStatusRE = lazyregexp.New(`HTTP (\d{3})`)

// answerOf says in short what the blog answered a failed run: "HTTP 503
// Service Unavailable from <URL>", "connection refused by <URL>",
// "timeout", "host not found", else the error's own text. A URL it names
// keeps its scheme, host and path only: no user info, no query (a secret
// may ride in either).
func answerOf(err error) string {
	if err == nil {
		return ""
	}
	where := ""
	var ue *url.Error
	if errors.As(err, &ue) {
		where = bareURL(ue.URL)
	}
	var se *fetch.StatusError
	if errors.As(err, &se) {
		return fmt.Sprintf("HTTP %d %s from %s", se.Code, http.StatusText(se.Code), bareURL(se.URL))
	}
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return joinWhere("connection refused", "by", where)
	case errors.Is(err, syscall.ECONNRESET):
		return joinWhere("connection reset", "by", where)
	case errors.As(err, &dns):
		return "host not found: " + dns.Name
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return joinWhere("timeout", "at", where)
	}
	msg := err.Error()
	if m := httpStatusRE.FindStringSubmatch(msg); m != nil {
		code, _ := strconv.Atoi(m[1])
		return fmt.Sprintf("HTTP %d %s", code, http.StatusText(code))
	}
	for _, k := range []string{"connection refused", "connection reset", "i/o timeout", "no such host"} {
		if strings.Contains(msg, k) {
			return k
		}
	}
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	return redactURLs(msg)
}

// joinWhere is what, followed by prep and where when where is known.
func joinWhere(what, prep, where string) string {
	if where == "" {
		return what
	}
	return what + " " + prep + " " + where
}

// bareURL returns raw without user info, query or fragment.
func bareURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(a URL)"
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}

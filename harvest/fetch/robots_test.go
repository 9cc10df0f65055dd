package fetch_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

const robotsTxt = `User-agent: *
Disallow: /private
Crawl-delay: 5

User-agent: blogharvest
Disallow: /drafts
Disallow: /*?replytocom=
Crawl-delay: 1.5
Sitemap: http://example.org/sitemap.xml
`

func TestRobotsDisallow(t *testing.T) {
	var seen atomic.Int32
	srv := serve(t, robotsTxt, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/drafts/x" || r.URL.RawQuery != "" {
			seen.Add(1)
		}
	})
	c := newClient(t, fetch.Options{UserAgent: "blogharvest/1.0 (+mailto:a@example.org)", Sleep: new(sleeps).sleep})
	ctx := context.Background()
	for path, allowed := range map[string]bool{"/drafts/x": false, "/post?replytocom=4": false, "/private": true, "/post": true} {
		_, err := c.Get(ctx, srv.URL+path)
		if allowed != (err == nil) {
			t.Errorf("%s: err %v, want allowed %v", path, err, allowed)
		}
		if !allowed && (!errors.Is(err, blogharvest.ErrDisallowed) || blogharvest.IsTransient(err)) {
			t.Errorf("%s: err %v, want permanent ErrDisallowed", path, err)
		}
	}
	if seen.Load() != 0 {
		t.Errorf("disallowed paths were requested %d times", seen.Load())
	}
	r := c.RobotsFor(ctx, mustParse(t, srv.URL))
	if r.CrawlDelay != 1500*time.Millisecond || len(r.Sitemaps) != 1 || r.File == nil || r.File.Role != blogharvest.RoleRobots {
		t.Errorf("robots %+v", r)
	}
}

func TestRobotsCrawlDelay(t *testing.T) {
	srv := serve(t, robotsTxt, func(w http.ResponseWriter, r *http.Request) {})
	s := new(sleeps)
	c := newClient(t, fetch.Options{UserAgent: "blogharvest/1.0", Delay: 100 * time.Millisecond, Sleep: s.sleep})
	for range 3 {
		if _, err := c.Get(context.Background(), srv.URL+"/p"); err != nil {
			t.Fatal(err)
		}
	}
	// The robots.txt request, then three pages at least 1.5 s apart: the
	// recorded (not slept) waits grow by 1.5 s each.
	if got := s.max(); got < 2*1500*time.Millisecond-100*time.Millisecond {
		t.Errorf("longest wait %v, want about 3s; waits %v", got, s.d)
	}
}

func TestRobotsDelayReallyWaits(t *testing.T) {
	srv := serve(t, "User-agent: *\nCrawl-delay: 0.3\n", func(w http.ResponseWriter, r *http.Request) {})
	c := newClient(t, fetch.Options{})
	start := time.Now()
	for range 3 {
		if _, err := c.Get(context.Background(), srv.URL+"/p"); err != nil {
			t.Fatal(err)
		}
	}
	if el := time.Since(start); el < 550*time.Millisecond {
		t.Errorf("3 requests with a 0.3 s crawl-delay took %v", el)
	}
}

func TestRobotsStatus(t *testing.T) {
	for code, want := range map[int]string{404: "allow", 403: "allow", 503: "transient", 0: "unreachable"} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				if code == 0 {
					panic(http.ErrAbortHandler) // connection dropped
				}
				w.WriteHeader(code)
				return
			}
			io.WriteString(w, "page")
		}))
		c := newClient(t, fetch.Options{Retries: -1})
		_, err := c.Get(context.Background(), srv.URL+"/p")
		srv.Close()
		switch want {
		case "allow":
			if err != nil {
				t.Errorf("robots %d: %v", code, err)
			}
		case "transient":
			if !errors.Is(err, blogharvest.ErrDisallowed) || !blogharvest.IsTransient(err) {
				t.Errorf("robots %d: %v, want transient ErrDisallowed", code, err)
			}
		case "unreachable": // no answer is no rule: not ErrDisallowed
			var ue *fetch.UnreachableError
			if errors.Is(err, blogharvest.ErrDisallowed) || !errors.As(err, &ue) || !ue.Robots || !blogharvest.IsTransient(err) ||
				strings.Contains(err.Error(), "disallowed") {
				t.Errorf("robots dropped: %v, want a transient *UnreachableError not saying disallowed", err)
			}
		}
	}
}

func TestIgnoreRobots(t *testing.T) {
	srv := serve(t, "User-agent: *\nDisallow: /\n", func(w http.ResponseWriter, r *http.Request) {})
	c := newClient(t, fetch.Options{IgnoreRobots: true})
	if _, err := c.Get(context.Background(), srv.URL+"/p"); err != nil {
		t.Fatal(err)
	}
	if c.Stats().Requests[200] != 1 {
		t.Errorf("stats %+v: robots.txt fetched", c.Stats())
	}
}

// TestCrawlDelayCapped: a robots.txt asking for a day between requests is
// crawled at the cap, and the asked delay is reported.
func TestCrawlDelayCapped(t *testing.T) {
	srv := serve(t, "User-agent: *\nCrawl-delay: 86400\n", func(w http.ResponseWriter, r *http.Request) {})
	s := new(sleeps)
	c := newClient(t, fetch.Options{MaxCrawlDelay: 50 * time.Millisecond, Sleep: s.sleep})
	for range 3 {
		if _, err := c.Get(context.Background(), srv.URL+"/p"); err != nil {
			t.Fatal(err)
		}
	}
	// The clock does not move while the fake sleeps: the recorded waits
	// add up the cap (50 ms, 100 ms), where a day would be 86400 s.
	if got := s.max(); got > time.Second {
		t.Errorf("longest wait %v, want the 50 ms cap; waits %v", got, s.d)
	}
	if got := c.Stats().CappedDelays[srv.URL]; got != 24*time.Hour {
		t.Errorf("capped delays %v, want %s asking for 24h", c.Stats().CappedDelays, srv.URL)
	}
}

// TestCrawlDelayStrict: with StrictCrawlDelay, a Crawl-delay above the cap
// refuses the host with a permanent *CrawlDelayError; no page is fetched.
func TestCrawlDelayStrict(t *testing.T) {
	var pages atomic.Int32
	srv := serve(t, "User-agent: *\nCrawl-delay: 86400\n", func(w http.ResponseWriter, r *http.Request) { pages.Add(1) })
	c := newClient(t, fetch.Options{StrictCrawlDelay: true, Sleep: new(sleeps).sleep})
	_, err := c.Get(context.Background(), srv.URL+"/p")
	var ce *fetch.CrawlDelayError
	if !errors.As(err, &ce) || ce.Asked != 24*time.Hour || ce.Cap != fetch.DefaultMaxCrawlDelay || blogharvest.IsTransient(err) {
		t.Fatalf("err %v, want a permanent CrawlDelayError", err)
	}
	if pages.Load() != 0 {
		t.Errorf("%d pages fetched from a refused host", pages.Load())
	}
}

// TestRobotsCachedAcrossClients: a client given an earlier client's
// robots.txt captures (RobotsFiles) obeys them without asking again while
// they are fresh (RobotsLifetime), and asks again once they are not.
func TestRobotsCachedAcrossClients(t *testing.T) {
	var asked atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		io.WriteString(w, robotsTxt)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ctx := context.Background()
	ua := "blogharvest/1.0"
	first := newClient(t, fetch.Options{UserAgent: ua, Sleep: new(sleeps).sleep})
	if _, err := first.Get(ctx, srv.URL+"/p"); err != nil {
		t.Fatal(err)
	}
	files := first.RobotsFiles()
	if asked.Load() != 1 || len(files) != 1 || files[0].URL != srv.URL+"/robots.txt" {
		t.Fatalf("first client: robots.txt asked %d times, files %+v", asked.Load(), files)
	}
	second := newClient(t, fetch.Options{UserAgent: ua, Sleep: new(sleeps).sleep, Robots: files})
	if _, err := second.Get(ctx, srv.URL+"/drafts/x"); !errors.Is(err, blogharvest.ErrDisallowed) {
		t.Errorf("cached robots.txt not obeyed: %v", err)
	}
	if _, err := second.Get(ctx, srv.URL+"/p"); err != nil {
		t.Fatal(err)
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("robots.txt asked %d times with a fresh capture given, want 1", n)
	}
	if got := second.RobotsFiles(); len(got) != 1 || !got[0].Captured.Equal(files[0].Captured) {
		t.Errorf("second client's robots files %+v, want the first's capture", got)
	}
	later := func() time.Time { return files[0].Captured.Add(fetch.RobotsLifetime + time.Minute) }
	third := newClient(t, fetch.Options{UserAgent: ua, Sleep: new(sleeps).sleep, Robots: files, Now: later})
	if _, err := third.Get(ctx, srv.URL+"/p"); err != nil {
		t.Fatal(err)
	}
	if n := asked.Load(); n != 2 {
		t.Errorf("robots.txt asked %d times after its lifetime, want 2", n)
	}
}

// A crawl cancelled while robots.txt is being read is cancelled, not
// disallowed by robots.txt, and the next crawl asks for robots.txt again.
func TestRobotsCancelledIsNotDisallowed(t *testing.T) {
	asked := make(chan struct{}, 4)
	var hang atomic.Bool
	hang.Store(true)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			asked <- struct{}{}
			if hang.Load() {
				<-r.Context().Done()
				return
			}
			io.WriteString(w, "User-agent: *\nAllow: /\n")
			return
		}
		io.WriteString(w, "page")
	}))
	defer srv.Close()
	c := newClient(t, fetch.Options{Retries: -1})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-asked; cancel() }()
	err := c.Allowed(ctx, srv.URL+"/p")
	if err == nil || errors.Is(err, blogharvest.ErrDisallowed) || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled while reading robots.txt: %v, want context.Canceled and not ErrDisallowed", err)
	}
	hang.Store(false)
	if err := c.Allowed(context.Background(), srv.URL+"/p"); err != nil {
		t.Errorf("after the cancellation robots.txt allows /p: %v", err)
	}
}

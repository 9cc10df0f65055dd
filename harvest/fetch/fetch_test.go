package fetch_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// sleeps records the waits a client asked for, without waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) max() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	var m time.Duration
	for _, d := range s.d {
		m = max(m, d)
	}
	return m
}

// newClient returns a client allowed to reach 127.0.0.1, with o's other
// fields.
func newClient(t *testing.T, o fetch.Options) *fetch.Client {
	t.Helper()
	o.AllowHosts = append(o.AllowHosts, "127.0.0.1")
	c, err := fetch.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// serve starts a test server running h for every path but /robots.txt,
// which answers robots (404 if empty).
func serve(t *testing.T, robots string, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		if robots == "" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, robots)
	})
	mux.HandleFunc("/", h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestGet(t *testing.T) {
	srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("User-Agent") != "tester/2.0" {
			t.Errorf("User-Agent = %q", r.Header.Get("User-Agent"))
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<p>hello</p>")
	})
	c := newClient(t, fetch.Options{UserAgent: "tester/2.0"})
	resp, err := c.Get(context.Background(), srv.URL+"/post")
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != "<p>hello</p>" || resp.Status != 200 || resp.RemoteIP != "127.0.0.1" {
		t.Errorf("got %d %q from %q", resp.Status, resp.Body, resp.RemoteIP)
	}
	f := resp.File(blogharvest.RolePage)
	if err := f.Validate(); err != nil || f.Size != 12 || len(f.SHA256) != 64 || f.MediaType != "text/html; charset=utf-8" {
		t.Errorf("file %+v: %v", f, err)
	}
	st := c.Stats()
	if st.Requests[200] != 1 || st.Requests[404] != 1 || st.Bytes < 12 {
		t.Errorf("stats %+v", st)
	}
}

func TestStatusErrors(t *testing.T) {
	for code, transient := range map[int]bool{404: false, 410: false, 403: false, 503: true, 500: true} {
		var hits atomic.Int32
		srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			w.WriteHeader(code)
		})
		c := newClient(t, fetch.Options{Retries: 2, Sleep: new(sleeps).sleep})
		resp, err := c.Get(context.Background(), srv.URL+"/x")
		var se *fetch.StatusError
		if !errors.As(err, &se) || se.Code != code || blogharvest.IsTransient(err) != transient {
			t.Errorf("%d: err %v", code, err)
			continue
		}
		if resp == nil || resp.Status != code {
			t.Errorf("%d: response %v", code, resp)
		}
		if want := map[bool]int32{false: 1, true: 3}[transient]; hits.Load() != want {
			t.Errorf("%d: %d requests, want %d", code, hits.Load(), want)
		}
	}
}

func TestRetryThenSuccess(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 1 {
			w.WriteHeader(500)
			return
		}
		io.WriteString(w, "ok")
	})
	s := new(sleeps)
	c := newClient(t, fetch.Options{Sleep: s.sleep})
	resp, err := c.Get(context.Background(), srv.URL+"/x")
	if err != nil || string(resp.Body) != "ok" {
		t.Fatalf("%v %v", resp, err)
	}
	if c.Stats().Retries != 1 || s.max() < 250*time.Millisecond {
		t.Errorf("retries %d, waits %v", c.Stats().Retries, s.d)
	}
}

func TestRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		name, header string
		want         time.Duration
	}{
		{"seconds", "7", 7 * time.Second},
		{"date", time.Now().Add(42 * time.Second).UTC().Format(http.TimeFormat), 42 * time.Second},
	} {
		var hits atomic.Int32
		srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
			if hits.Add(1) == 1 {
				w.Header().Set("Retry-After", tc.header)
				w.WriteHeader(429)
				return
			}
			io.WriteString(w, "ok")
		})
		s := new(sleeps)
		c := newClient(t, fetch.Options{Sleep: s.sleep})
		if _, err := c.Get(context.Background(), srv.URL+"/x"); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := s.max(); got < tc.want-time.Second || got > tc.want+time.Second {
			t.Errorf("%s: waited %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestRetryAfterTooLong(t *testing.T) {
	srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(503)
	})
	c := newClient(t, fetch.Options{Sleep: new(sleeps).sleep})
	_, err := c.Get(context.Background(), srv.URL+"/x")
	var se *fetch.StatusError
	if !errors.As(err, &se) || se.RetryAfter != time.Hour || !blogharvest.IsTransient(err) {
		t.Fatalf("err %v", err)
	}
	if c.Stats().Retries != 0 {
		t.Errorf("retried %d times", c.Stats().Retries)
	}
}

func TestConditionalGet(t *testing.T) {
	srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` || r.Header.Get("If-Modified-Since") == "Mon, 02 Jan 2006 15:04:05 GMT" {
			w.WriteHeader(304)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		io.WriteString(w, "feed")
	})
	c := newClient(t, fetch.Options{})
	for _, r := range []fetch.Request{{ETag: `"v1"`}, {LastModified: "Mon, 02 Jan 2006 15:04:05 GMT"}, {ETag: `"v0"`}} {
		r.URL = srv.URL + "/feed"
		resp, err := c.Do(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		if want := r.ETag != `"v0"`; resp.NotModified != want {
			t.Errorf("%+v: NotModified %v", r, resp.NotModified)
		}
	}
}

func TestPerHostConcurrency(t *testing.T) {
	var cur, peak atomic.Int32
	srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		n := cur.Add(1)
		defer cur.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		time.Sleep(20 * time.Millisecond)
	})
	c := newClient(t, fetch.Options{PerHost: 2})
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			if _, err := c.Get(context.Background(), srv.URL+"/p"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if peak.Load() != 2 {
		t.Errorf("peak concurrency %d, want 2", peak.Load())
	}
}

func TestBadURL(t *testing.T) {
	c := newClient(t, fetch.Options{})
	for _, u := range []string{"ftp://example.org/", "/relative", "http://%zz"} {
		if _, err := c.Get(context.Background(), u); err == nil || blogharvest.IsTransient(err) {
			t.Errorf("%s: err %v", u, err)
		}
	}
}

func mustParse(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// httptestServer serves h for a benchmark and returns its URL.
func httptestServer(tb testing.TB, h http.HandlerFunc) string {
	tb.Helper()
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	return srv.URL
}

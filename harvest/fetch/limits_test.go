package fetch_test

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

func TestEndlessBody(t *testing.T) {
	srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("a"), 32<<10)
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	c := newClient(t, fetch.Options{MaxBody: 1 << 20})
	_, err := c.Get(context.Background(), srv.URL+"/endless")
	var tl *fetch.TooLargeError
	if !errors.As(err, &tl) || tl.Limit != 1<<20 || !errors.Is(err, blogharvest.ErrTooLarge) || blogharvest.IsTransient(err) {
		t.Fatalf("err %v, want permanent TooLargeError", err)
	}
}

// bomb is 16 MB of zeros compressed to about 16 KB.
func bomb(t *testing.T) []byte {
	var b bytes.Buffer
	z, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for range 16 {
		z.Write(zeros)
	}
	z.Close()
	return b.Bytes()
}

func TestGzipBomb(t *testing.T) {
	payload := bomb(t)
	srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(payload)
	})
	c := newClient(t, fetch.Options{MaxBody: 1 << 20})
	_, err := c.Get(context.Background(), srv.URL+"/bomb")
	var tl *fetch.TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("err %v, want TooLargeError", err)
	}
}

func TestContentEncodings(t *testing.T) {
	want := strings.Repeat("<p>Grüße aus dem Blog</p>\n", 500)
	encoders := map[string]func(io.Writer) io.WriteCloser{
		"gzip":    func(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) },
		"br":      func(w io.Writer) io.WriteCloser { return brotli.NewWriter(w) },
		"deflate": func(w io.Writer) io.WriteCloser { z, _ := flate.NewWriter(w, 5); return z },
	}
	for name, enc := range encoders {
		srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
			if !strings.Contains(r.Header.Get("Accept-Encoding"), name) {
				t.Errorf("Accept-Encoding %q lacks %s", r.Header.Get("Accept-Encoding"), name)
			}
			w.Header().Set("Content-Encoding", name)
			z := enc(w)
			io.WriteString(z, want)
			z.Close()
		})
		c := newClient(t, fetch.Options{})
		resp, err := c.Get(context.Background(), srv.URL+"/p")
		if err != nil || string(resp.Body) != want {
			t.Errorf("%s: err %v, body %d bytes", name, err, len(resp.Body))
		}
	}
}

func TestRedirects(t *testing.T) {
	srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/a":
			http.Redirect(w, r, "/b", http.StatusFound)
		case r.URL.Path == "/b":
			http.Redirect(w, r, "/a", http.StatusMovedPermanently)
		case strings.HasPrefix(r.URL.Path, "/n/"):
			n, _ := strconv.Atoi(r.URL.Path[3:])
			http.Redirect(w, r, fmt.Sprintf("/n/%d", n+1), http.StatusFound)
		case r.URL.Path == "/old":
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
		default:
			io.WriteString(w, "here")
		}
	})
	c := newClient(t, fetch.Options{MaxRedirects: 5})
	ctx := context.Background()
	var re *fetch.RedirectError
	if _, err := c.Get(ctx, srv.URL+"/a"); !errors.As(err, &re) || !re.Loop || blogharvest.IsTransient(err) {
		t.Errorf("loop: err %v", err)
	}
	if _, err := c.Get(ctx, srv.URL+"/n/0"); !errors.As(err, &re) || re.Loop || len(re.Chain) != 7 {
		t.Errorf("chain: err %v", err)
	}
	resp, err := c.Get(ctx, srv.URL+"/old")
	if err != nil || resp.URL != srv.URL+"/new" || len(resp.Redirects) != 1 || resp.Redirects[0] != srv.URL+"/old" {
		t.Errorf("redirect: %+v %v", resp, err)
	}
}

func TestSlowDrip(t *testing.T) {
	drip := func(every time.Duration) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			for i := 0; i < 100; i++ {
				if _, err := w.Write([]byte("x")); err != nil {
					return
				}
				w.(http.Flusher).Flush()
				select {
				case <-time.After(every):
				case <-r.Context().Done():
					return
				}
			}
		}
	}
	for _, tc := range []struct {
		what    string
		every   time.Duration
		o       fetch.Options
		wantErr string
	}{
		{"idle read", 400 * time.Millisecond, fetch.Options{IdleReadTimeout: 100 * time.Millisecond, Retries: -1}, "idle read"},
		{"request", 20 * time.Millisecond, fetch.Options{Timeout: 200 * time.Millisecond, Retries: -1}, "request"},
	} {
		srv := serve(t, "", drip(tc.every))
		c := newClient(t, tc.o)
		start := time.Now()
		_, err := c.Get(context.Background(), srv.URL+"/drip")
		var te *fetch.TimeoutError
		if !errors.As(err, &te) || te.What != tc.wantErr || !blogharvest.IsTransient(err) {
			t.Errorf("%s: err %v", tc.what, err)
		}
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("%s: took %v", tc.what, el)
		}
	}
}

// TestCompressedTooLarge caps the encoded body too: a gzip stream longer
// than the limit is refused as too large, not as a broken stream.
func TestCompressedTooLarge(t *testing.T) {
	noise := make([]byte, 3<<20)
	for i := range noise {
		noise[i] = byte(i*7919 + i>>8*31)
	}
	var b bytes.Buffer
	z, _ := gzip.NewWriterLevel(&b, gzip.NoCompression)
	z.Write(noise)
	z.Close()
	srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(b.Bytes())
	})
	c := newClient(t, fetch.Options{MaxBody: 1 << 20})
	_, err := c.Get(context.Background(), srv.URL+"/big")
	var tl *fetch.TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("err %v, want TooLargeError", err)
	}
}

// TestMinRateCutsDrip: a body dripping one byte per 100 ms (it would take
// 10 s, each byte well inside the idle-read timeout) is cut off by the
// minimum transfer rate after one window, with a typed, transient error.
func TestMinRateCutsDrip(t *testing.T) {
	srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		for range 100 {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-time.After(100 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
	})
	c := newClient(t, fetch.Options{MinRateWindow: 500 * time.Millisecond, Retries: -1})
	_, err := c.Get(context.Background(), srv.URL+"/drip")
	var se *fetch.SlowTransferError
	if !errors.As(err, &se) || !blogharvest.IsTransient(err) || se.MinRate != fetch.DefaultMinRate {
		t.Fatalf("err %v, want a transient SlowTransferError", err)
	}
}

// fakeClock is an injected Now and Sleep: Sleep advances Now at once and
// records the wait.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

func (f *fakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if d > 0 { // the host's turn is asked for with zero waits too
		f.now = f.now.Add(d)
		f.waits = append(f.waits, d)
	}
	return ctx.Err()
}

// TestRequestDeadlineBoundsRetries: a server answering 503 with
// Retry-After: 60 is retried only while the waits fit in the request
// deadline (3 min: three waits), not as many times as Retries allows.
func TestRequestDeadlineBoundsRetries(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	clk := &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	c := newClient(t, fetch.Options{Retries: 10, RequestDeadline: 3 * time.Minute, Now: clk.Now, Sleep: clk.Sleep})
	resp, err := c.Get(context.Background(), srv.URL+"/busy")
	var te *fetch.TimeoutError
	var st *fetch.StatusError
	if !errors.As(err, &te) || te.What != "request deadline" || !errors.As(err, &st) || st.Code != 503 || !blogharvest.IsTransient(err) {
		t.Fatalf("err %v, want a transient request-deadline TimeoutError wrapping the 503", err)
	}
	if resp == nil || resp.Status != 503 {
		t.Errorf("response %+v, want the last 503 for the capture", resp)
	}
	if len(clk.waits) != 3 || hits.Load() != 4 {
		t.Errorf("waits %v, %d requests: want 3 waits of 60s and 4 requests", clk.waits, hits.Load())
	}
}

package fetch_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// TestExchangesCaptured: a fetch keeps every exchange, redirect hop first,
// with the request as sent (Host, Accept-Encoding, the cookie the first
// answer set) but no secret (credentials and cookie values redacted), the
// response headers as received, the hop's body and the server's address;
// the final exchange's payload is the File's decoded body.
func TestExchangesCaptured(t *testing.T) {
	srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.SetCookie(w, &http.Cookie{Name: "sess", Value: "tok3n", Path: "/"})
			http.Redirect(w, r, "/post", http.StatusMovedPermanently)
			return
		}
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write([]byte("<p>post</p>"))
		zw.Close()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(z.Bytes())
	})
	c := newClient(t, fetch.Options{Auth: &fetch.BasicAuth{User: "ann", Password: "s3cret", Origins: []string{srv.URL}}})
	resp, err := c.Get(context.Background(), srv.URL+"/old")
	if err != nil {
		t.Fatal(err)
	}
	f := resp.File(blogharvest.RolePage)
	if len(f.Exchanges) != 2 {
		t.Fatalf("%d exchanges, want the redirect and the page", len(f.Exchanges))
	}
	hop, page := f.Exchanges[0], f.Exchanges[1]
	if hop.Status != 301 || hop.URL != srv.URL+"/old" || !strings.Contains(string(hop.Body), "Moved Permanently") ||
		hop.Method != "GET" || hop.RemoteIP != "127.0.0.1" || hop.Sent.IsZero() {
		t.Errorf("redirect hop: %+v", hop)
	}
	if got := http.Header(hop.ResponseHeader).Get("Set-Cookie"); got != "sess="+blogharvest.Redacted+"; Path=/" {
		t.Errorf("Set-Cookie archived as %q", got)
	}
	rh := http.Header(page.RequestHeader)
	if rh.Get("Authorization") != "Basic "+blogharvest.Redacted || rh.Get("Cookie") != "sess="+blogharvest.Redacted ||
		rh.Get("Host") != strings.TrimPrefix(srv.URL, "http://") || rh.Get("Accept-Encoding") == "" {
		t.Errorf("page request headers %v", rh)
	}
	if page.Status != 200 || page.Reason != "200 OK" || page.Proto != "HTTP/1.1" || page.Body != nil ||
		http.Header(page.ResponseHeader).Get("Content-Encoding") != "gzip" {
		t.Errorf("page exchange: %+v", page)
	}
	if string(f.Body) != "<p>post</p>" {
		t.Errorf("file body %q", f.Body)
	}
	for _, x := range f.Exchanges {
		for _, vs := range x.RequestHeader {
			for _, v := range vs {
				if strings.Contains(v, "s3cret") || strings.Contains(v, "tok3n") || strings.Contains(v, "YW5uOnMzY3JldA") {
					t.Errorf("a secret in the captured request: %q", v)
				}
			}
		}
	}
}

// TestLongRedirectBodyTruncated: a redirect's body beyond 64 KiB is kept
// cut there and marked truncated (WARC-Truncated in the WARC); the client
// still follows the redirect.
func TestLongRedirectBodyTruncated(t *testing.T) {
	srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			w.Header().Set("Location", "/new")
			w.WriteHeader(http.StatusFound)
			w.Write(bytes.Repeat([]byte("x"), 100<<10))
			return
		}
		w.Write([]byte("new"))
	})
	resp, err := newClient(t, fetch.Options{}).Get(context.Background(), srv.URL+"/old")
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Exchanges) != 2 || string(resp.Body) != "new" {
		t.Fatalf("%d exchanges, body %q", len(resp.Exchanges), resp.Body)
	}
	if hop := resp.Exchanges[0]; !hop.Truncated || len(hop.Body) != 64<<10 {
		t.Errorf("redirect hop: truncated %v, %d bytes kept", hop.Truncated, len(hop.Body))
	}
	if resp.Exchanges[1].Truncated {
		t.Error("the final exchange is marked truncated")
	}
}

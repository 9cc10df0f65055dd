package fetch_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// TestCloseClosesIdleConnections: a client's keep-alive connection stays
// open after a request, and Close closes it (the server sees it closed),
// as a crawl's end does: a process running one crawl after another kept
// every finished crawl's connections until the idle timeout.
func TestCloseClosesIdleConnections(t *testing.T) {
	closed := make(chan struct{}, 16)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("hello"))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateClosed {
			closed <- struct{}{}
		}
	}
	srv.Start()
	defer srv.Close()
	c := newClient(t, fetch.Options{IgnoreRobots: true, Delay: time.Millisecond})
	if _, err := c.Get(context.Background(), srv.URL+"/a"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
		t.Fatal("the connection closed before Close: no keep-alive to test")
	case <-time.After(200 * time.Millisecond):
	}
	c.Close()
	select {
	case <-closed:
	case <-time.After(3 * time.Minute):
		t.Fatal("Close left the idle connection open")
	}
	if _, err := c.Get(context.Background(), srv.URL+"/b"); err != nil {
		t.Fatalf("the client after Close: %v", err)
	}
}

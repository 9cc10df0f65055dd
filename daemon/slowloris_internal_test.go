package daemon

import (
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// trickle is a slowloris client: it connects to addr and sends a request
// header one byte at a time, never finishing it, and connects again as
// soon as the server closes the connection, until stop is closed.
func trickle(addr string, stop <-chan struct{}) {
	header := "GET /status HTTP/1.1\r\nHost: status\r\nX-Slow: " + string(make([]byte, 4096))
	for {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
				continue
			}
		}
		for i := 0; ; i++ {
			if _, err := io.WriteString(conn, header[i%len(header):i%len(header)+1]); err != nil {
				break
			}
			select {
			case <-stop:
				conn.Close()
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
		conn.Close()
	}
}

// TestStatusServerSurvivesSlowloris: 100 connections trickle request
// headers that never end, more than the cap of 64 and reconnecting when
// closed. The read-header timeout is set far beyond the test, so only the
// cap's eviction of connections that have sent no whole request can make
// room: every /status and /healthz probe must be answered.
func TestStatusServerSurvivesSlowloris(t *testing.T) {
	limits := defaultHTTPLimits
	limits.readHeader, limits.read = 10*time.Minute, 10*time.Minute
	addr := serveLimited(t, limits)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(1)
		go func() { defer wg.Done(); trickle(addr, stop) }()
	}
	defer func() { close(stop); wg.Wait() }()
	time.Sleep(2 * time.Second) // the tricklers fill the cap
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	failed := 0
	const probes = 12
	for i := range probes {
		path := []string{"/status", "/healthz"}[i%2]
		resp, err := client.Get("http://" + addr + path)
		if err != nil {
			failed++
			t.Logf("probe %d %s: %v", i, path, err)
			if failed == 3 {
				break // no need to wait out the rest
			}
			continue
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			failed++
			t.Logf("probe %d %s: %s", i, path, resp.Status)
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d probes failed under 100 trickling connections", failed, probes)
	}
}

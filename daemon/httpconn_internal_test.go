package daemon

import (
	"bufio"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"testing"
	"time"
)

// serveLimited starts d's status server on loopback with limits.
func serveLimited(t *testing.T, limits httpLimits) string {
	t.Helper()
	d := NewDaemon(&Config{})
	d.plan = newPlanner(d.env, nil) // the pages this test asks for read no schedule store
	addr, stop, err := serveHandler("127.0.0.1:0", d.Handler(), limits, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return addr.String()
}

// keepAlive opens a connection to addr, asks for path on it and returns
// it open, as a keep-alive client leaves it.
func keepAlive(t *testing.T, addr, path string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, "GET "+path+" HTTP/1.1\r\nHost: status\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Close {
		t.Fatalf("GET %s: %s, close %v", path, resp.Status, resp.Close)
	}
	return conn
}

// closedByServer reports whether the server closed conn, waiting up to d.
func closedByServer(conn net.Conn, d time.Duration) bool {
	conn.SetReadDeadline(time.Now().Add(d))
	_, err := conn.Read(make([]byte, 1))
	return err != nil && !errors.Is(err, os.ErrDeadlineExceeded)
}

func healthz(t *testing.T, addr string) {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatalf("healthz: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("healthz: %s", resp.Status)
	}
}

// TestStatusServerCapsConnections holds more idle keep-alive connections
// than the cap: every one is answered, the server closes idle ones to stay
// under the cap, and /healthz still answers.
func TestStatusServerCapsConnections(t *testing.T) {
	limits := defaultHTTPLimits
	limits.maxConns = 4
	addr := serveLimited(t, limits)
	var conns []net.Conn
	for range 12 {
		conns = append(conns, keepAlive(t, addr, "/healthz"))
	}
	healthz(t, addr)
	open := 0
	for _, c := range conns {
		if !closedByServer(c, 200*time.Millisecond) {
			open++
		}
	}
	if open > limits.maxConns {
		t.Errorf("%d of %d idle connections still open, cap %d", open, len(conns), limits.maxConns)
	}
}

// TestStatusServerTimeouts checks that idle keep-alive connections and
// connections that never send a request are closed after their timeouts.
func TestStatusServerTimeouts(t *testing.T) {
	limits := httpLimits{readHeader: 300 * time.Millisecond, read: time.Second, write: time.Second, idle: 300 * time.Millisecond, maxConns: 64}
	addr := serveLimited(t, limits)
	idle := keepAlive(t, addr, "/healthz")
	silent, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	if !closedByServer(idle, 10*time.Second) {
		t.Error("an idle keep-alive connection was not closed after the idle timeout")
	}
	if !closedByServer(silent, 10*time.Second) {
		t.Error("a connection that sent nothing was not closed after the read-header timeout")
	}
	healthz(t, addr)
}

package daemon

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// httpLimits bound what clients of the status server may hold: its
// timeouts and the number of connections it keeps open.
type httpLimits struct {
	readHeader, read, write, idle time.Duration
	maxConns                      int
}

// defaultHTTPLimits are the status server's limits: /metrics and /status
// are small and quick, so a client has no reason to be slow, and 64
// connections leave the harvests their file descriptors.
var defaultHTTPLimits = httpLimits{readHeader: 5 * time.Second, read: 10 * time.Second, write: 30 * time.Second,
	idle: 30 * time.Second, maxConns: 64}

// server returns an http.Server for h with the limits' timeouts, and the
// connection cap that must wrap its listener.
func (l httpLimits) server(h http.Handler) (*http.Server, *connCap) {
	cc := newConnCap(l.maxConns)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: l.readHeader, ReadTimeout: l.read, WriteTimeout: l.write,
		IdleTimeout: l.idle, ConnState: cc.track}
	return srv, cc
}

// connCap caps the connections a server holds open. At the cap it closes
// an idle keep-alive connection to take a new one; when none is idle, new
// connections wait in the kernel's backlog (holding no file descriptor of
// ours) until one closes.
type connCap struct {
	mu     sync.Mutex
	cond   *sync.Cond
	max    int
	conns  map[net.Conn]http.ConnState
	closed bool
}

func newConnCap(max int) *connCap {
	c := &connCap{max: max, conns: map[net.Conn]http.ConnState{}}
	c.cond = sync.NewCond(&c.mu)
	return c
}

// track is the server's ConnState hook.
func (c *connCap) track(conn net.Conn, st http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch st {
	case http.StateClosed, http.StateHijacked:
		delete(c.conns, conn)
		c.cond.Broadcast()
	default:
		c.conns[conn] = st
		if st == http.StateIdle {
			c.cond.Broadcast()
		}
	}
}

// room waits until a new connection may be taken, closing an idle one if
// that makes room. It returns false once the listener is closed.
func (c *connCap) room() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.conns) >= c.max && !c.closed {
		if idle := c.idleConn(); idle != nil {
			delete(c.conns, idle)
			idle.Close()
			continue
		}
		c.cond.Wait()
	}
	return !c.closed
}

// idleConn returns a connection waiting for its next request, or nil.
func (c *connCap) idleConn() net.Conn {
	for conn, st := range c.conns {
		if st == http.StateIdle {
			return conn
		}
	}
	return nil
}

// listener wraps ln so that it accepts only while there is room.
func (c *connCap) listener(ln net.Listener) net.Listener { return &capListener{Listener: ln, cap: c} }

// capListener is a listener under a connCap.
type capListener struct {
	net.Listener
	cap *connCap
}

// Accept waits for room, then accepts; the connection is counted until
// the server reports it closed.
func (l *capListener) Accept() (net.Conn, error) {
	if !l.cap.room() {
		return nil, net.ErrClosed
	}
	conn, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.cap.mu.Lock()
	l.cap.conns[conn] = http.StateNew
	l.cap.mu.Unlock()
	return conn, nil
}

// Close closes the listener and wakes an Accept waiting for room.
func (l *capListener) Close() error {
	l.cap.mu.Lock()
	l.cap.closed = true
	l.cap.cond.Broadcast()
	l.cap.mu.Unlock()
	return l.Listener.Close()
}

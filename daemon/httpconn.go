package daemon

import (
	"context"
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
	// headerGrace is how long a connection may take to send a whole
	// request before, at the cap, it may be closed to make room (a
	// slowloris client trickling a header that never ends). If zero, 1s.
	headerGrace time.Duration
}

// defaultHTTPLimits are the status server's limits: /metrics and /status
// are small and quick, so a client has no reason to be slow, and 64
// connections leave the harvests their file descriptors.
var defaultHTTPLimits = httpLimits{readHeader: 5 * time.Second, read: 10 * time.Second, write: 30 * time.Second,
	idle: 30 * time.Second, maxConns: 64, headerGrace: time.Second}

// server returns an http.Server for h with the limits' timeouts, and the
// connection cap that must wrap its listener.
func (l httpLimits) server(h http.Handler) (*http.Server, *connCap) {
	cc := newConnCap(l.maxConns, l.headerGrace)
	srv := &http.Server{Handler: cc.handler(h), ReadHeaderTimeout: l.readHeader, ReadTimeout: l.read,
		WriteTimeout: l.write, IdleTimeout: l.idle, ConnState: cc.track, ConnContext: withConn}
	return srv, cc
}

// connPhase is where a connection of the status server stands.
type connPhase int

const (
	phaseWaiting connPhase = iota // accepted, or reading a request header: no whole request yet
	phaseServing                  // a request is being answered
	phaseIdle                     // kept alive, waiting for the next request
)

// connInfo is a connection's phase and when it entered it.
type connInfo struct {
	phase connPhase
	since time.Time
}

// connCap caps the connections a server holds open. At the cap it closes
// an idle keep-alive connection to take a new one, else the connection
// that has waited longest, beyond the header grace, without sending a
// whole request (a slowloris client); a connection being answered is
// never closed. When no connection may be closed yet, new connections
// wait in the kernel's backlog (holding no file descriptor of ours).
type connCap struct {
	mu     sync.Mutex
	cond   *sync.Cond
	max    int
	grace  time.Duration
	conns  map[net.Conn]connInfo
	closed bool
}

func newConnCap(max int, grace time.Duration) *connCap {
	if grace <= 0 {
		grace = time.Second
	}
	c := &connCap{max: max, grace: grace, conns: map[net.Conn]connInfo{}}
	c.cond = sync.NewCond(&c.mu)
	return c
}

// track is the server's ConnState hook. A connection is "waiting" from
// its accept, and again from the first byte of each further request,
// until its handler starts (handler).
func (c *connCap) track(conn net.Conn, st http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	info, known := c.conns[conn]
	switch st {
	case http.StateClosed, http.StateHijacked:
		delete(c.conns, conn)
		c.cond.Broadcast()
	case http.StateIdle:
		c.conns[conn] = connInfo{phaseIdle, time.Now()}
		c.cond.Broadcast()
	case http.StateNew, http.StateActive:
		if !known || info.phase == phaseIdle {
			c.conns[conn] = connInfo{phaseWaiting, time.Now()}
		}
	}
}

// connKey is the context key of the connection a request came on.
type connKey struct{}

// withConn is the server's ConnContext hook: it keeps the connection in
// the context of its requests.
func withConn(ctx context.Context, conn net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, conn)
}

// handler wraps h so that a connection counts as serving once a whole
// request header has arrived.
func (c *connCap) handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if conn, ok := r.Context().Value(connKey{}).(net.Conn); ok {
			c.mu.Lock()
			if _, known := c.conns[conn]; known {
				c.conns[conn] = connInfo{phaseServing, time.Now()}
			}
			c.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	})
}

// room waits until a new connection may be taken, closing an idle or a
// slow one if that makes room. It returns false once the listener is
// closed.
func (c *connCap) room() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.conns) >= c.max && !c.closed {
		victim, wait := c.victim(time.Now())
		if victim != nil {
			delete(c.conns, victim)
			victim.Close()
			continue
		}
		var t *time.Timer
		if wait > 0 { // a waiting connection passes its grace then
			t = time.AfterFunc(wait, func() {
				c.mu.Lock()
				c.cond.Broadcast()
				c.mu.Unlock()
			})
		}
		c.cond.Wait()
		if t != nil {
			t.Stop()
		}
	}
	return !c.closed
}

// victim returns the connection to close to make room: an idle one, else
// the one waiting longest for its request beyond the grace; or nil and
// how long until a waiting connection's grace ends (0: none waits).
func (c *connCap) victim(now time.Time) (net.Conn, time.Duration) {
	var slow net.Conn
	var oldest time.Time
	for conn, info := range c.conns {
		switch {
		case info.phase == phaseIdle:
			return conn, 0
		case info.phase == phaseWaiting && (slow == nil || info.since.Before(oldest)):
			slow, oldest = conn, info.since
		}
	}
	if slow == nil {
		return nil, 0
	}
	if left := oldest.Add(c.grace).Sub(now); left > 0 {
		return nil, left
	}
	return slow, 0
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
	l.cap.conns[conn] = connInfo{phaseWaiting, time.Now()}
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

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
	// maxConns caps the connections that have sent a whole request: being
	// answered or kept alive (idle) for the next.
	maxConns int
	// maxWaiting caps the connections that have not sent a whole request
	// yet (just accepted, or a slowloris client trickling a header that
	// never ends). If zero, defaultHTTPLimits.maxWaiting.
	maxWaiting int
}

// defaultHTTPLimits are the status server's limits: /metrics and /status
// are small and quick, so a client has no reason to be slow; 64 answered
// or kept-alive connections and 2 048 waiting ones (a goroutine and a
// descriptor each, no buffers of size) leave the harvests their file
// descriptors, and 1 000 slow clients fit without pushing a probe out.
var defaultHTTPLimits = httpLimits{readHeader: 5 * time.Second, read: 10 * time.Second, write: 30 * time.Second,
	idle: 30 * time.Second, maxConns: 64, maxWaiting: 2048}

// server returns an http.Server for h with the limits' timeouts, and the
// connection cap that must wrap its listener.
func (l httpLimits) server(h http.Handler) (*http.Server, *connCap) {
	if l.maxWaiting <= 0 {
		l.maxWaiting = defaultHTTPLimits.maxWaiting
	}
	cc := newConnCap(l.maxConns, l.maxWaiting)
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

// connCap caps the connections a server holds open, and never makes a
// client wait in the kernel's accept queue: that queue is a first-come
// line, and a probe that joined it behind a thousand slow clients waited
// for every one of them to be taken and closed (15–30 s with 64 slots and
// a second of grace each). Every connection is accepted at once; at
// maxWaiting connections without a whole request, the one waiting longest
// is closed (a slowloris client: a real one sends its header within a
// round trip, and the newcomer is the last to be chosen); a connection
// whose request has arrived is answered, closing an idle keep-alive one
// beyond maxConns, or, with maxConns being answered already, told 503
// and closed. A connection being answered is never closed.
type connCap struct {
	mu         sync.Mutex
	maxConns   int
	maxWaiting int
	conns      map[net.Conn]connInfo
	evicted    int // connections closed to stay under a cap (tests)
}

func newConnCap(maxConns, maxWaiting int) *connCap {
	return &connCap{maxConns: maxConns, maxWaiting: maxWaiting, conns: map[net.Conn]connInfo{}}
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
	case http.StateIdle:
		if known {
			c.conns[conn] = connInfo{phaseIdle, time.Now()}
		}
	case http.StateNew, http.StateActive:
		if known && info.phase == phaseIdle {
			c.conns[conn] = connInfo{phaseWaiting, time.Now()}
			c.trimWaiting(conn)
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
// request header has arrived: beyond maxConns answered or kept-alive
// connections the oldest idle one is closed, and with maxConns being
// answered the request is refused (503, Connection: close).
func (c *connCap) handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if conn, ok := r.Context().Value(connKey{}).(net.Conn); ok && !c.serve(conn) {
			w.Header().Set("Connection", "close")
			w.Header().Set("Retry-After", "1")
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// serve moves conn to phaseServing, making room among the answered and
// kept-alive connections; false when every slot is being answered.
func (c *connCap) serve(conn net.Conn) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, known := c.conns[conn]; !known {
		return true // closed meanwhile; the server notices
	}
	serving := 0
	var idle net.Conn
	var idleSince time.Time
	for other, info := range c.conns {
		switch {
		case info.phase == phaseServing:
			serving++
		case info.phase == phaseIdle && (idle == nil || info.since.Before(idleSince)):
			idle, idleSince = other, info.since
		}
	}
	if serving >= c.maxConns {
		return false
	}
	c.conns[conn] = connInfo{phaseServing, time.Now()}
	for c.answered() > c.maxConns && idle != nil {
		c.evict(idle)
		idle = c.oldest(phaseIdle, nil)
	}
	return true
}

// answered counts the connections being answered or kept alive.
func (c *connCap) answered() int {
	n := 0
	for _, info := range c.conns {
		if info.phase != phaseWaiting {
			n++
		}
	}
	return n
}

// oldest returns the connection of phase that entered it first, other
// than except; nil if none.
func (c *connCap) oldest(phase connPhase, except net.Conn) net.Conn {
	var found net.Conn
	var since time.Time
	for conn, info := range c.conns {
		if info.phase == phase && conn != except && (found == nil || info.since.Before(since)) {
			found, since = conn, info.since
		}
	}
	return found
}

// trimWaiting closes the connections waiting longest until at most
// maxWaiting wait; fresh, the connection just added, goes last.
func (c *connCap) trimWaiting(fresh net.Conn) {
	waiting := len(c.conns) - c.answered()
	for ; waiting > c.maxWaiting; waiting-- {
		victim := c.oldest(phaseWaiting, fresh)
		if victim == nil {
			return
		}
		c.evict(victim)
	}
}

// evict closes conn to make room.
func (c *connCap) evict(conn net.Conn) {
	delete(c.conns, conn)
	conn.Close()
	c.evicted++
}

// listener wraps ln so that every connection it accepts is counted.
func (c *connCap) listener(ln net.Listener) net.Listener { return &capListener{Listener: ln, cap: c} }

// capListener is a listener under a connCap.
type capListener struct {
	net.Listener
	cap *connCap
}

// Accept accepts at once, closing the connection waiting longest for its
// request if maxWaiting wait; the connection is counted until the server
// reports it closed.
func (l *capListener) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.cap.mu.Lock()
	l.cap.conns[conn] = connInfo{phaseWaiting, time.Now()}
	l.cap.trimWaiting(conn)
	l.cap.mu.Unlock()
	return conn, nil
}

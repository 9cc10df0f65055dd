package fetch

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
)

// BrowserGate is the decision every request of a browser goes through: the
// same scope and address rules as the crawl's own client.
type BrowserGate struct {
	// Check says whether the browser may connect to hostport ("host:port")
	// for scheme ("http" or "https"; tunnels are "https"); a non-nil error
	// refuses. Names are not resolved here: Dial checks addresses.
	Check func(ctx context.Context, scheme, hostport string) error
	// Dial opens a connection to addr checking the address it resolves to.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// Defaults of BrowserProxyOptions.
const (
	DefaultBrowserConnectTimeout = 15 * time.Second
	DefaultBrowserIdleTimeout    = 60 * time.Second
)

// BrowserProxyOptions configures a BrowserProxy. The zero value is usable.
type BrowserProxyOptions struct {
	// Upstream returns the proxy to reach a target through (as
	// http.ProxyFromEnvironment does), or nil to reach it directly with
	// BrowserGate.Dial. If nil, every target is reached directly.
	Upstream func(*url.URL) (*url.URL, error)
	// RootCAs verifies an https:// upstream proxy. If nil, the system pool.
	RootCAs *x509.CertPool
	// ConnectTimeout bounds a dial, with the upstream proxy's answer to a
	// CONNECT. If zero, DefaultBrowserConnectTimeout.
	ConnectTimeout time.Duration
	// IdleTimeout closes a connection on which nothing moved for this long.
	// If zero, DefaultBrowserIdleTimeout.
	IdleTimeout time.Duration
	// Refused is called once per refused host:port with the reason. It may
	// be nil.
	Refused func(hostport string, err error)
	// Logger receives every request at debug level. If nil, slog.Default().
	Logger *slog.Logger
}

// FromEnvironment sets Upstream from HTTP_PROXY, HTTPS_PROXY and NO_PROXY
// (as the crawl's client reads them) and RootCAs from the system pool plus
// SSL_CERT_FILE and caFile.
func (o *BrowserProxyOptions) FromEnvironment(caFile string) error {
	proxy, _ := proxyConfig()
	pool, err := certPool(caFile)
	if err != nil {
		return fmt.Errorf("browser proxy: %w", err)
	}
	o.Upstream, o.RootCAs = proxy, pool
	return nil
}

// BrowserProxy is a filtering HTTP proxy on a loopback port, the only way a
// browser started for a crawl reaches the network. It serves CONNECT
// tunnels (https, wss) and absolute-URI requests (http) after the gate's
// Check, over the gate's Dial or through the upstream proxy, and answers
// 403 to everything refused. Close it with the crawl.
type BrowserProxy struct {
	gate BrowserGate
	o    BrowserProxyOptions
	ln   net.Listener
	srv  *http.Server
	tr   *http.Transport
	log  *slog.Logger

	mu      sync.Mutex
	refused map[string]bool
	conns   map[net.Conn]bool // hijacked client sides and their tunnels
	closed  bool
}

// NewBrowserProxy starts a filtering proxy on 127.0.0.1 for gate.
func NewBrowserProxy(gate BrowserGate, o BrowserProxyOptions) (*BrowserProxy, error) {
	if gate.Check == nil || gate.Dial == nil {
		return nil, errors.New("browser proxy: gate needs Check and Dial")
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultBrowserConnectTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultBrowserIdleTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("browser proxy: %w", err)
	}
	p := &BrowserProxy{gate: gate, o: o, ln: ln, log: o.Logger, refused: map[string]bool{}, conns: map[net.Conn]bool{}}
	p.tr = &http.Transport{
		Proxy:                 p.upstreamFor,
		DialContext:           p.dialDirect,
		TLSClientConfig:       &tls.Config{RootCAs: o.RootCAs, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   o.ConnectTimeout,
		ResponseHeaderTimeout: o.IdleTimeout,
		IdleConnTimeout:       o.IdleTimeout,
		DisableCompression:    true,
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: o.ConnectTimeout, IdleTimeout: o.IdleTimeout,
		ErrorLog: slog.NewLogLogger(o.Logger.Handler(), slog.LevelDebug)}
	go p.srv.Serve(ln)
	return p, nil
}

// URL returns the proxy's address as "http://127.0.0.1:port", for
// Chromium's --proxy-server.
func (p *BrowserProxy) URL() string { return "http://" + p.ln.Addr().String() }

// Host returns the proxy's "127.0.0.1:port".
func (p *BrowserProxy) Host() string { return p.ln.Addr().String() }

// Refused returns the host:port targets refused so far.
func (p *BrowserProxy) Refused() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]string, 0, len(p.refused))
	for h := range p.refused {
		out = append(out, h)
	}
	return out
}

// Close stops the proxy and cuts every connection and tunnel it holds.
func (p *BrowserProxy) Close() error {
	p.mu.Lock()
	p.closed = true
	conns := p.conns
	p.conns = map[net.Conn]bool{}
	p.mu.Unlock()
	err := p.srv.Close()
	for c := range conns {
		c.Close()
	}
	p.tr.CloseIdleConnections()
	return err
}

// ServeHTTP serves one request from the browser.
func (p *BrowserProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		p.tunnel(w, r)
		return
	}
	p.forward(w, r)
}

// refuse answers 403 (with no body a script could read as content) and
// reports the target once.
func (p *BrowserProxy) refuse(w http.ResponseWriter, hostport string, err error) {
	p.log.Debug("browser proxy: refused", "target", hostport, "err", err)
	w.Header().Set("Connection", "close")
	w.WriteHeader(http.StatusForbidden)
	if reservedHost(hostport) {
		return
	}
	p.mu.Lock()
	first := !p.refused[hostport]
	p.refused[hostport] = true
	p.mu.Unlock()
	if first && p.o.Refused != nil {
		p.o.Refused(hostport, err)
	}
}

// reservedHost reports whether hostport names a host under .invalid (RFC
// 6761): the browser's own services are pointed there (see package
// render), so their requests are refused without a report.
func reservedHost(hostport string) bool {
	return strings.HasSuffix(strings.TrimSuffix(normHost(hostport), "."), ".invalid")
}

// proxyTarget returns scheme and host:port of an absolute-URI request, or an
// error for anything else (origin-form requests, other schemes).
func proxyTarget(r *http.Request) (string, string, error) {
	u := r.URL
	if !u.IsAbs() || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", "", fmt.Errorf("not an absolute http URL: %q", r.RequestURI)
	}
	return u.Scheme, hostPort(u.Scheme, u.Host), nil
}

// forward proxies one absolute-URI request after the gate's check.
func (p *BrowserProxy) forward(w http.ResponseWriter, r *http.Request) {
	scheme, hostport, err := proxyTarget(r)
	if err != nil {
		hostport = r.Host
	}
	if err == nil && reservedHost(hostport) {
		err = fmt.Errorf("browser service %s: %w", hostport, ErrRefused)
	}
	if err == nil {
		err = p.gate.Check(r.Context(), scheme, hostport)
	}
	if err != nil {
		p.refuse(w, hostport, err)
		return
	}
	p.log.Debug("browser proxy: forward", "method", r.Method, "target", hostport)
	out := r.Clone(r.Context())
	out.RequestURI = ""
	if n := blogharvest.NormalizeURL(out.URL.String()); n != out.URL.String() {
		if u, err := url.Parse(n); err == nil { // percent-encoded as the Go client sends it
			out.URL = u
		}
	}
	stripHopHeaders(out.Header)
	resp, err := p.tr.RoundTrip(out)
	if err != nil {
		p.failed(w, hostport, err)
		return
	}
	defer resp.Body.Close()
	stripHopHeaders(resp.Header)
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// failed answers a request whose target could not be reached: 403 when
// the dial-time address check refused it, 502 otherwise.
func (p *BrowserProxy) failed(w http.ResponseWriter, hostport string, err error) {
	if errors.Is(err, ErrRefused) {
		p.refuse(w, hostport, err)
		return
	}
	p.log.Debug("browser proxy: unreachable", "target", hostport, "err", err)
	w.Header().Set("Connection", "close")
	w.WriteHeader(http.StatusBadGateway)
}

// hopByHopHeaders are the hop-by-hop headers a proxy does not pass on.
var hopByHopHeaders = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

func stripHopHeaders(h http.Header) {
	for _, f := range h.Values("Connection") {
		for _, k := range strings.Split(f, ",") {
			h.Del(strings.TrimSpace(k))
		}
	}
	for _, k := range hopByHopHeaders {
		h.Del(k)
	}
}

// tunnel serves a CONNECT after the gate's check: it dials the target (or
// asks the upstream proxy for a tunnel) and splices the two connections.
func (p *BrowserProxy) tunnel(w http.ResponseWriter, r *http.Request) {
	hostport := r.Host
	if _, _, err := net.SplitHostPort(hostport); err != nil {
		p.refuse(w, hostport, fmt.Errorf("CONNECT %q: not host:port", hostport))
		return
	}
	if reservedHost(hostport) {
		p.refuse(w, hostport, fmt.Errorf("browser service %s: %w", hostport, ErrRefused))
		return
	}
	if err := p.gate.Check(r.Context(), "https", hostport); err != nil {
		p.refuse(w, hostport, err)
		return
	}
	p.log.Debug("browser proxy: tunnel", "target", hostport)
	ctx, cancel := context.WithTimeout(r.Context(), p.o.ConnectTimeout)
	up, err := p.dialTunnel(ctx, hostport)
	cancel()
	if err != nil {
		p.failed(w, hostport, err)
		return
	}
	client, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		up.Close()
		return
	}
	if !p.track(client, up) {
		return
	}
	defer p.untrack(client, up)
	io.WriteString(client, "HTTP/1.1 200 Connection established\r\n\r\n")
	p.splice(&idleDeadlineConn{Conn: client, idle: p.o.IdleTimeout}, buf.Reader, &idleDeadlineConn{Conn: up, idle: p.o.IdleTimeout})
}

// track registers the connections of a tunnel so that Close cuts them;
// false (both closed) when the proxy is already closed.
func (p *BrowserProxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		for _, c := range cs {
			c.Close()
		}
		return false
	}
	for _, c := range cs {
		p.conns[c] = true
	}
	return true
}

func (p *BrowserProxy) untrack(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cs {
		delete(p.conns, c)
		c.Close()
	}
}

// splice copies both ways until either side ends or idles out.
func (p *BrowserProxy) splice(client net.Conn, pending *bufio.Reader, up net.Conn) {
	done := make(chan struct{}, 2)
	go func() {
		io.Copy(up, io.MultiReader(io.LimitReader(pending, int64(pending.Buffered())), client))
		up.Close()
		done <- struct{}{}
	}()
	go func() {
		io.Copy(client, up)
		client.Close()
		done <- struct{}{}
	}()
	<-done
	<-done
}

// idleDeadlineConn extends its deadline on every read and write.
type idleDeadlineConn struct {
	net.Conn
	idle time.Duration
}

func (c *idleDeadlineConn) Read(b []byte) (int, error) {
	c.Conn.SetDeadline(time.Now().Add(c.idle))
	return c.Conn.Read(b)
}

func (c *idleDeadlineConn) Write(b []byte) (int, error) {
	c.Conn.SetDeadline(time.Now().Add(c.idle))
	return c.Conn.Write(b)
}

// upstreamFor returns the upstream proxy for a forwarded request, if any.
func (p *BrowserProxy) upstreamFor(r *http.Request) (*url.URL, error) {
	if p.o.Upstream == nil {
		return nil, nil
	}
	return p.o.Upstream(r.URL)
}

// dialDirect is the forwarding transport's dial: the gate's Dial for
// targets, a plain dial for the configured upstream proxy; a connection on
// which nothing moves for IdleTimeout fails.
func (p *BrowserProxy) dialDirect(ctx context.Context, network, addr string) (net.Conn, error) {
	var conn net.Conn
	var err error
	if p.isUpstream(addr) {
		d := net.Dialer{Timeout: p.o.ConnectTimeout}
		conn, err = d.DialContext(ctx, network, addr)
	} else {
		conn, err = p.gate.Dial(ctx, network, addr)
	}
	if err != nil {
		return nil, err
	}
	return &idleDeadlineConn{Conn: conn, idle: p.o.IdleTimeout}, nil
}

// isUpstream reports whether addr is the address of an upstream proxy.
func (p *BrowserProxy) isUpstream(addr string) bool {
	if p.o.Upstream == nil {
		return false
	}
	for _, s := range []string{"http", "https"} {
		if u, err := p.o.Upstream(&url.URL{Scheme: s, Host: "example.invalid"}); err == nil && u != nil && proxyAddr(u.String()) == addr {
			return true
		}
	}
	return false
}

// dialTunnel opens the far side of a tunnel to hostport: through the
// upstream proxy's CONNECT when one applies, else with the gate's Dial.
func (p *BrowserProxy) dialTunnel(ctx context.Context, hostport string) (net.Conn, error) {
	var proxy *url.URL
	if p.o.Upstream != nil {
		var err error
		if proxy, err = p.o.Upstream(&url.URL{Scheme: "https", Host: hostport}); err != nil {
			return nil, err
		}
	}
	if proxy == nil {
		return p.gate.Dial(ctx, "tcp", hostport)
	}
	return p.connectVia(ctx, proxy, hostport)
}

// connectVia asks the upstream proxy for a tunnel to hostport.
func (p *BrowserProxy) connectVia(ctx context.Context, proxy *url.URL, hostport string) (net.Conn, error) {
	addr := proxyAddr(proxy.String())
	d := net.Dialer{Timeout: p.o.ConnectTimeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("upstream proxy %s: %w", addr, err)
	}
	if proxy.Scheme == "https" {
		tc := tls.Client(conn, &tls.Config{ServerName: proxy.Hostname(), RootCAs: p.o.RootCAs, MinVersion: tls.VersionTLS12})
		if err := tc.HandshakeContext(ctx); err != nil {
			conn.Close()
			return nil, fmt.Errorf("upstream proxy %s: %w", addr, err)
		}
		conn = tc
	}
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	req := &http.Request{Method: http.MethodConnect, URL: &url.URL{Opaque: hostport}, Host: hostport, Header: http.Header{}}
	if ui := proxy.User; ui != nil {
		pw, _ := ui.Password()
		req.SetBasicAuth(ui.Username(), pw)
		req.Header["Proxy-Authorization"] = req.Header["Authorization"]
		req.Header.Del("Authorization")
	}
	br := bufio.NewReader(conn)
	if err := req.Write(conn); err != nil {
		conn.Close()
		return nil, fmt.Errorf("upstream proxy %s: %w", addr, err)
	}
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("upstream proxy %s: %w", addr, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		conn.Close()
		return nil, fmt.Errorf("upstream proxy %s: CONNECT %s: %s", addr, hostport, resp.Status)
	}
	conn.SetDeadline(time.Time{})
	if br.Buffered() > 0 {
		return &bufferedConn{Conn: conn, r: io.MultiReader(io.LimitReader(br, int64(br.Buffered())), conn)}, nil
	}
	return conn, nil
}

// bufferedConn reads bytes already buffered before its connection's.
type bufferedConn struct {
	net.Conn
	r io.Reader
}

func (c *bufferedConn) Read(b []byte) (int, error) { return c.r.Read(b) }

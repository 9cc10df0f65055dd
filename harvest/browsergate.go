package harvest

import (
	"context"
	"net"
	"net/url"
	"strings"

	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// browserGate is the decision every request of the crawl's browser goes
// through: the crawl client's own scope and address rules.
func (fg *fetching) browserGate() fetch.BrowserGate {
	return fetch.BrowserGate{Check: fg.client.CheckBrowserTarget, Dial: fg.client.DialBrowser}
}

// startBrowserProxy starts the filtering proxy the crawl's browser goes
// through: the browser gate decides, the crawl's upstream proxy (from the
// environment) carries, unless the crawl runs over its own Transport.
// RenderHostRules' MAP rules are applied by the proxy's dial.
func (w *pageWorker) startBrowserProxy() (*fetch.BrowserProxy, error) {
	gate := w.fetch.browserGate()
	gate.Dial = mapDial(parseHostRules(w.fetch.cfg.render.hostRules), gate.Dial)
	o := fetch.BrowserProxyOptions{Logger: w.log, Refused: w.browserRefused}
	if !w.fetch.cfg.render.transport {
		if err := o.FromEnvironment(w.fetch.cfg.render.caFile); err != nil {
			return nil, err
		}
	}
	return fetch.NewBrowserProxy(gate, o)
}

// maxRefusalWarnings bounds the "browser request refused" warnings of one
// crawl; further refusals are only logged at debug level.
const maxRefusalWarnings = 20

// browserRefused records a target the browser was refused (the proxy
// reports each host:port once).
func (w *pageWorker) browserRefused(hostport string, _ error) {
	w.fetch.render.mu.Lock()
	w.fetch.render.refusals++
	n := w.fetch.render.refusals
	w.fetch.render.mu.Unlock()
	switch {
	case n < maxRefusalWarnings:
		w.stats.warnf("browser request refused: %s", hostport)
	case n == maxRefusalWarnings:
		w.stats.warnf("browser request refused: %s (further refusals are not listed)", hostport)
	default:
		w.log.Debug("browser request refused", "target", hostport)
	}
}

// browserMayLoad reports whether the browser may load raw: the gate's
// check passes and the proxy has not refused its host.
func (fg *fetching) browserMayLoad(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	hostport := u.Host
	if u.Port() == "" {
		hostport = net.JoinHostPort(u.Hostname(), map[bool]string{true: "443", false: "80"}[u.Scheme == "https"])
	}
	if fg.client == nil || fg.browserGate().Check(context.Background(), u.Scheme, hostport) != nil {
		return false
	}
	fg.render.mu.Lock()
	p := fg.render.proxy
	fg.render.mu.Unlock()
	if p != nil {
		for _, h := range p.Refused() {
			if strings.EqualFold(h, hostport) {
				return false
			}
		}
	}
	return true
}

// parseHostRules reads the MAP rules of a --host-resolver-rules value
// ("MAP blog.test 127.0.0.1:8080, MAP other.test 127.0.0.1:9090") into
// host → address.
func parseHostRules(rules string) map[string]string {
	out := map[string]string{}
	for _, r := range strings.Split(rules, ",") {
		f := strings.Fields(r)
		if len(f) == 3 && strings.EqualFold(f[0], "MAP") {
			out[strings.ToLower(f[1])] = f[2]
		}
	}
	return out
}

// mapDial dials the address a MAP rule gives for a host instead of the
// host (keeping the port when the rule has none); other addresses go to
// dial. A mapped host is the archivist's own (test, replay) setting.
func mapDial(rules map[string]string, dial func(context.Context, string, string) (net.Conn, error)) func(context.Context, string, string) (net.Conn, error) {
	if len(rules) == 0 {
		return dial
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		to, ok := rules[strings.ToLower(host)]
		if err != nil || !ok {
			return dial(ctx, network, addr)
		}
		if _, _, err := net.SplitHostPort(to); err != nil {
			to = net.JoinHostPort(to, port)
		}
		var d net.Dialer
		return d.DialContext(ctx, network, to)
	}
}

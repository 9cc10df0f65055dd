package fetch

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// legacyMetadataNames are the cloud-metadata host names no browser is sent to,
// whatever they resolve to (behind a proxy the proxy resolves them).
var legacyMetadataNames = map[string]bool{
	"metadata.google.internal": true, "metadata.goog": true, "metadata": true,
	"instance-data": true, "instance-data.ec2.internal": true, "metadata.azure.com": true,
}

// GuardBrowserGate returns a gate built on the client's address guard:
// the origins given ("https://blog.example:443" or URLs; scheme, host and
// port compared) may be reached on any address; other targets must not
// be localhost, a metadata name or a literal non-public address, and are
// dialled with the after-DNS public-address check.
//
// It stands in for the client's scope rules (CheckBrowserTarget and
// DialBrowser) until those exist.
func (c *Client) GuardBrowserGate(origins []string) BrowserGate {
	own := map[string]bool{}
	addrs := map[string]bool{}
	for _, o := range origins {
		scheme, hostport, ok := legacySplitOrigin(o)
		if ok {
			own[scheme+"://"+hostport] = true
			addrs[hostport] = true
		}
	}
	g := newGuard(nil, nil)
	d := &net.Dialer{Timeout: c.o.ConnectTimeout}
	dial := g.dialContext(d)
	return BrowserGate{
		Check: func(_ context.Context, scheme, hostport string) error {
			hostport = strings.ToLower(hostport)
			// A tunnel may carry https or wss to an own origin.
			if own[scheme+"://"+hostport] || (scheme == "https" && addrs[hostport]) {
				return nil
			}
			return legacyCheckBrowserHost(hostport)
		},
		Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if addrs[strings.ToLower(addr)] {
				return d.DialContext(ctx, network, addr)
			}
			return dial(ctx, network, addr)
		},
	}
}

// legacySplitOrigin returns the scheme and lower-case host:port (default port
// added) of an origin or URL.
func legacySplitOrigin(raw string) (string, string, bool) {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return "", "", false
	}
	scheme = strings.ToLower(scheme)
	host, _, _ := strings.Cut(rest, "/")
	if i := strings.LastIndex(host, "@"); i >= 0 {
		host = host[i+1:]
	}
	if host == "" || (scheme != "http" && scheme != "https") {
		return "", "", false
	}
	return scheme, strings.ToLower(hostportWithDefault(scheme, host)), true
}

// legacyCheckBrowserHost refuses localhost, metadata names and literal
// non-public addresses.
func legacyCheckBrowserHost(hostport string) error {
	host := normHost(hostport)
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || legacyMetadataNames[strings.TrimSuffix(host, ".")] {
		return fmt.Errorf("browser request %s: %w", hostport, ErrRefused)
	}
	if a, err := netip.ParseAddr(host); err == nil && !isPublic(a) {
		return fmt.Errorf("browser request %s: %w", hostport, ErrRefused)
	}
	return nil
}

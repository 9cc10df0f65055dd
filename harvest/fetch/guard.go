package fetch

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"

	"github.com/blogharvest/blogharvest"
)

// nonPublic lists prefixes no public blog should send us to, beyond what
// netip.Addr's own predicates cover.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"), // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("fc00::/7"),
}

// isPublic reports whether a is an ordinary public unicast address.
func isPublic(a netip.Addr) bool {
	a = a.Unmap()
	if a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsUnspecified() || a.IsMulticast() || a.IsInterfaceLocalMulticast() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// guard decides which hosts may be reached on non-public addresses.
type guard struct {
	allow   map[string]bool // lower-case host names and IPs of Options.AllowHosts
	proxies map[string]bool // host:port of configured proxies, always dialable
}

func newGuard(allowHosts []string, proxies []string) *guard {
	g := &guard{allow: map[string]bool{}, proxies: map[string]bool{}}
	for _, h := range allowHosts {
		g.allow[normHost(h)] = true
	}
	for _, p := range proxies {
		g.proxies[p] = true
	}
	return g
}

// normHost lower-cases h and strips a port and IPv6 brackets.
func normHost(h string) string {
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	return strings.ToLower(strings.Trim(h, "[]"))
}

// checkURL refuses a URL whose host is a literal non-public IP (or
// "localhost") unless it is allowed. Names are not resolved here.
func (g *guard) checkURL(u *url.URL) error {
	host := normHost(u.Host)
	if g.allow[host] {
		return nil
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return refused(u.String(), host)
	}
	if a, err := netip.ParseAddr(host); err == nil && !isPublic(a) {
		return refused(u.String(), host)
	}
	return nil
}

func refused(u, addr string) error {
	return blogharvest.Permanent(fmt.Errorf("fetch %s: %s: %w", u, addr, ErrRefused))
}

// dialContext dials addr, refusing non-public resolved addresses unless the
// host is allowed or addr is a configured proxy.
func (g *guard) dialContext(d *net.Dialer) func(context.Context, string, string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if g.proxies[addr] || g.allow[normHost(addr)] {
			return d.DialContext(ctx, network, addr)
		}
		checked := *d
		checked.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("dial %s: %w", address, err)
			}
			if !isPublic(ap.Addr()) {
				return fmt.Errorf("dial %s (%s): %w", addr, ap.Addr(), ErrRefused)
			}
			return nil
		}
		return checked.DialContext(ctx, network, addr)
	}
}

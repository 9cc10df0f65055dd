package fetch

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
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

// guard decides where requests may go: pages to the blog's origins (when
// set), non-public addresses only to those origins and the allowed hosts.
type guard struct {
	allow     map[string]bool         // lower-case host names and IPs of Options.AllowHosts, any port
	origins   atomic.Pointer[origins] // Options.Origins (and AddOrigin); an empty set leaves pages unrestricted
	proxies   map[string]bool         // host:port of configured proxies, always dialable
	feedHosts map[string]bool         // lower-case host names of Options.FeedHosts: feed pages only
}

func newGuard(allowHosts []string, o *origins, proxies []string) *guard {
	if o == nil {
		o, _ = newOrigins(nil)
	}
	g := &guard{allow: map[string]bool{}, proxies: map[string]bool{}, feedHosts: map[string]bool{}}
	g.origins.Store(o)
	for _, h := range allowHosts {
		g.allow[normHost(h)] = true
	}
	for _, p := range proxies {
		g.proxies[p] = true
	}
	return g
}

// normHost lower-cases h and strips a port, IPv6 brackets and a final dot.
func normHost(h string) string {
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	return strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
}

// privateAllowed reports whether hp (a normalised host:port) may be on a
// non-public address: one of the blog's origins or an allowed host.
func (g *guard) privateAllowed(hp string) bool {
	return g.origins.Load().hostports[hp] || g.allow[normHost(hp)]
}

// checkURL refuses a page outside the blog's origins, or a feed page
// outside them and the feed hosts (ErrOutOfScope), and
// a URL whose host is a literal non-public IP, a localhost, private-use or
// metadata name (ErrRefused) unless it is one of the origins or allowed.
// Names are not resolved here.
func (g *guard) checkURL(u *url.URL, kind Kind) error {
	o, _ := originOf(u)
	set := g.origins.Load().set
	if (kind == Page || kind == FeedPage && !g.feedHosts[normHost(u.Host)]) && len(set) > 0 && !set[o] {
		return blogharvest.Permanent(fmt.Errorf("fetch %s: %s: %w", u, o, ErrOutOfScope))
	}
	if host := g.refusedHost(hostPort(u.Scheme, u.Host)); host != "" {
		return refused(u.String(), host)
	}
	return nil
}

// refusedHost returns the host of hp (a normalised host:port) when it is
// refused before anything is sent: a literal non-public address, a
// localhost, private-use or metadata name that is not one of the blog's
// origins or allowed hosts; "" when it is not.
func (g *guard) refusedHost(hp string) string {
	if g.privateAllowed(hp) {
		return ""
	}
	if host := normHost(hp); privateName(host) {
		return host
	}
	return ""
}

func refused(u, addr string) error {
	return blogharvest.Permanent(fmt.Errorf("fetch %s: %s: %w", u, addr, ErrRefused))
}

// dialContext dials addr, refusing non-public resolved addresses unless
// addr is one of the blog's origins, an allowed host or a configured proxy.
func (g *guard) dialContext(d *net.Dialer) func(context.Context, string, string) (net.Conn, error) {
	checked := g.dialChecked(d)
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if g.proxies[addr] {
			return d.DialContext(ctx, network, addr)
		}
		return checked(ctx, network, addr)
	}
}

// dialChecked dials addr, refusing non-public resolved addresses unless
// addr is one of the blog's origins or an allowed host.
func (g *guard) dialChecked(d *net.Dialer) func(context.Context, string, string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if g.privateAllowed(hostPort("", addr)) {
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

package fetch

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/blogharvest/blogharvest"
)

// Kind says what a request fetches, which decides where it may go.
type Kind int

const (
	// Page is a resource of the blog itself: a page, a feed or one of its
	// pages, a comment feed, robots.txt, a sitemap. When Options.Origins is
	// set, a page (and every redirect hop to it) must lie on one of them.
	// It is the zero Kind, so a caller that says nothing is held to it.
	Page Kind = iota
	// Subresource is a file a page embeds (an image, a video): it may come
	// from any public address, and from a non-public one only on one of
	// Options.Origins or Options.AllowHosts.
	Subresource
	// FeedPage is a page of the blog's feed after the first: it may lie on
	// the blog's origins, as a Page, or on a host of Options.FeedHosts
	// (a blog platform's own feed service, such as Blogger's
	// www.blogger.com, which a Blogger feed's rel="next" names); never on
	// a non-public address there.
	FeedPage
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case Subresource:
		return "subresource"
	case FeedPage:
		return "feed page"
	}
	return "page"
}

// ErrOutOfScope is wrapped by the (permanent) errors for pages, or redirect
// hops of pages, outside Options.Origins.
var ErrOutOfScope = errors.New("outside the blog's origins")

// Origin returns the normalised origin of raw, "scheme://host:port" with
// a lower-case host and an explicit port, and an error when raw is not an
// absolute http(s) URL.
func Origin(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("origin %q: %w", raw, err)
	}
	o, ok := originOf(u)
	if !ok {
		return "", fmt.Errorf("origin %q: not an absolute http(s) URL", raw)
	}
	return o, nil
}

// originOf returns u's normalised origin; false for other schemes or no host.
func originOf(u *url.URL) (string, bool) {
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" || u.Hostname() == "" {
		return "", false
	}
	return scheme + "://" + hostPort(scheme, u.Host), true
}

// hostPort returns host (with or without a port) as a lower-case
// "host:port", the port defaulting to scheme's.
func hostPort(scheme, host string) string {
	h, port, err := net.SplitHostPort(host)
	if err != nil || port == "" {
		h, port = strings.TrimSuffix(host, ":"), defaultPort(scheme)
	}
	h = strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
	return net.JoinHostPort(h, port)
}

func defaultPort(scheme string) string {
	if strings.EqualFold(scheme, "https") {
		return "443"
	}
	return "80"
}

// origins is the set of a blog's origins, with the forms that count as the
// same blog: the www./bare twin of a host name on the same scheme and
// port and, for a host name on a default port, the other of http:80 and
// https:443 (the usual upgrade). IP literals and other ports have no
// twins: another port is another origin.
type origins struct {
	set       map[string]bool // normalised origins
	hostports map[string]bool // their host:port, dialable on non-public addresses
}

// newOrigins parses raws (URLs; only their origins count, empty strings
// are skipped).
func newOrigins(raws []string) (*origins, error) {
	o := &origins{set: map[string]bool{}, hostports: map[string]bool{}}
	for _, raw := range raws {
		if raw == "" {
			continue
		}
		n, err := Origin(raw)
		if err != nil {
			return nil, err
		}
		o.add(n, true)
	}
	return o, nil
}

// with returns a copy of o with the normalised origin n added, for pages
// only (not dialable on non-public addresses).
func (o *origins) with(n string) *origins {
	c := &origins{set: maps.Clone(o.set), hostports: o.hostports}
	c.add(n, false)
	return c
}

// add puts the normalised origin n and its equivalent forms into the set,
// and their host:port into hostports when private is set.
func (o *origins) add(n string, private bool) {
	scheme, hp, _ := strings.Cut(n, "://")
	host, port, _ := net.SplitHostPort(hp)
	hosts := []string{host}
	if isName(host) {
		if rest, ok := strings.CutPrefix(host, "www."); ok {
			hosts = append(hosts, rest)
		} else {
			hosts = append(hosts, "www."+host)
		}
	}
	for _, h := range hosts {
		o.put(scheme, h, port, private)
		if isName(host) && (scheme == "http" && port == "80" || scheme == "https" && port == "443") {
			if scheme == "http" {
				o.put("https", h, "443", private)
			} else {
				o.put("http", h, "80", private)
			}
		}
	}
}

func (o *origins) put(scheme, host, port string, private bool) {
	hp := net.JoinHostPort(host, port)
	o.set[scheme+"://"+hp] = true
	if private {
		o.hostports[hp] = true
	}
}

// AddOrigin adds the origin of raw (an absolute http(s) URL) to the
// blog's origins for pages only: a feed the blog's home page declares on
// another host (a feed service), or the home page a feed names. It gets
// no exception for non-public addresses: a private, loopback or metadata
// target is still refused. It does nothing when Options.Origins is empty
// (pages are unrestricted then).
func (c *Client) AddOrigin(raw string) error {
	n, err := Origin(raw)
	if err != nil {
		return fmt.Errorf("fetch: add origin: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if o := c.guard.origins.Load(); len(o.set) > 0 && !o.set[n] {
		c.guard.origins.Store(o.with(n))
	}
	return nil
}

// isName reports whether host is a DNS name, not an IP literal.
func isName(host string) bool {
	_, err := netip.ParseAddr(host)
	return err != nil
}

// metadataNames are the names of cloud metadata services (and hosts that
// are nothing else), refused unless allowed even behind a proxy, where
// names are not resolved here.
var metadataNames = map[string]bool{
	"metadata": true, "metadata.google.internal": true, "metadata.goog": true,
	"instance-data": true, "instance-data.ec2.internal": true, "metadata.internal": true,
	"metadata.azure.internal": true, "metadata.tencentyun.com": true,
}

// privateSuffixes are name suffixes reserved for local or private use
// (RFC 6761, RFC 6762, RFC 8375, ICANN's .internal), refused like literal
// private addresses.
var privateSuffixes = []string{".localhost", ".local", ".internal", ".home.arpa"}

// privateName reports whether host (lower case, no port) is a literal
// non-public address, a metadata name or a name under a private-use
// suffix: refused before anything is sent, whether or not a proxy is used.
func privateName(host string) bool {
	host = strings.TrimSuffix(host, ".")
	if a, err := netip.ParseAddr(host); err == nil {
		return !isPublic(a)
	}
	if a, ok := legacyIPv4(host); ok {
		return !isPublic(a) // 2130706433, 0x7f.1, 127.1: what inet_aton and some proxies read as addresses
	}
	if host == "localhost" || metadataNames[host] {
		return true
	}
	for _, s := range privateSuffixes {
		if strings.HasSuffix(host, s) {
			return true
		}
	}
	return false
}

// legacyIPv4 parses host as the numeric forms inet_aton accepts (one to
// four parts, each decimal, octal with a leading 0 or hex with 0x, the
// last filling the remaining bytes); false when it is not one.
func legacyIPv4(host string) (netip.Addr, bool) {
	parts := strings.Split(host, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var vals []uint64
	for _, p := range parts {
		v, err := strconv.ParseUint(p, 0, 32)
		if err != nil || p == "" || strings.HasPrefix(p, "+") {
			return netip.Addr{}, false
		}
		vals = append(vals, v)
	}
	var n uint64
	for i, v := range vals[:len(vals)-1] {
		if v > 255 {
			return netip.Addr{}, false
		}
		n |= v << (8 * (3 - i))
	}
	last := vals[len(vals)-1]
	if last >= 1<<(8*(5-len(vals))) {
		return netip.Addr{}, false
	}
	n |= last
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
}

// CheckBrowserTarget decides whether a browser rendering for this client
// may connect to hostport (host:port, or a host to which scheme's default
// port is added) for a subresource: nil when it may, else an error wrapping
// ErrRefused. The blog's origins (Options.Origins: exactly their host and
// port, plus the equivalent forms described there) and Options.AllowHosts
// may be anything; otherwise a literal non-public address (loopback,
// private, link-local, unique-local, 169.254.169.254, fd00:ec2::254), a
// localhost or other private-use name or a cloud-metadata name is refused,
// and every other name is allowed: the dial-time check of DialBrowser then
// refuses it if it resolves to a non-public address. Pages are not told
// apart here (a browser loads subresources); the browser's first URL is
// the caller's to check.
func (c *Client) CheckBrowserTarget(ctx context.Context, scheme, hostport string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	hp := hostPort(scheme, hostport)
	if host := c.guard.refusedHost(hp); host != "" {
		return blogharvest.Permanent(fmt.Errorf("browser %s://%s: %s: %w", scheme, hp, host, ErrRefused))
	}
	return nil
}

// DialBrowser dials addr (host:port) directly, with the same rules as the
// client's own requests: CheckBrowserTarget first, then, unless addr is one
// of the blog's origins or allowed hosts, every address the name resolves
// to is checked as it is dialled and a non-public one refused (an error
// wrapping ErrRefused), so a name that rebinds to a private address cannot
// slip through. It does not go through a proxy (see UpstreamProxy), a
// configured proxy's address is checked like any other, and its connect
// timeout is Options.ConnectTimeout.
func (c *Client) DialBrowser(ctx context.Context, network, addr string) (net.Conn, error) {
	if err := c.CheckBrowserTarget(ctx, "", addr); err != nil {
		return nil, err
	}
	d := &net.Dialer{Timeout: c.o.ConnectTimeout}
	return c.guard.dialChecked(d)(ctx, network, addr) // a configured proxy gets no exception here
}

// UpstreamProxy returns the proxy through which the client's own requests
// to scheme://hostport go (HTTP_PROXY, HTTPS_PROXY and NO_PROXY as read by
// New), or nil when they go direct or Options.Transport is set. A browser
// filtering its traffic with CheckBrowserTarget forwards through it; a
// proxy URL may carry credentials, so it must not be logged.
func (c *Client) UpstreamProxy(scheme, hostport string) *url.URL {
	if c.proxy == nil {
		return nil
	}
	p, err := c.proxy(&url.URL{Scheme: scheme, Host: hostport})
	if err != nil {
		return nil
	}
	return p
}

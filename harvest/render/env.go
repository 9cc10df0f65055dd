package render

import (
	"bufio"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// FromEnvironment returns o completed from the environment the way the
// crawl's HTTP client is: ProxyServer from HTTPS_PROXY or HTTP_PROXY (either
// case) when empty, NoProxy from NO_PROXY, and the certificates of
// SSL_CERT_FILE added to TrustedCAs. Institutions crawl through proxies that
// re-sign TLS with their own CA; Chromium does not read SSL_CERT_FILE, so
// those certificates are passed to it explicitly.
func FromEnvironment(o Options) Options {
	if o.ProxyServer == "" {
		o.ProxyServer = firstEnv("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy")
	}
	if o.NoProxy == "" {
		o.NoProxy = firstEnv("NO_PROXY", "no_proxy")
	}
	if f := os.Getenv("SSL_CERT_FILE"); f != "" {
		o.TrustedCAs = append(o.TrustedCAs, f)
	}
	return o
}

func firstEnv(names ...string) string {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return ""
}

// spkiList returns the base64 SHA-256 hashes of the public keys of every
// certificate in the PEM files, joined by commas, as Chromium's
// --ignore-certificate-errors-spki-list expects: a chain that does not
// validate is accepted when one of its certificates has one of these keys.
func spkiList(files []string) (string, error) {
	var hashes []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return "", fmt.Errorf("trusted CA file: %w", err)
		}
		for block, rest := pem.Decode(data); block != nil; block, rest = pem.Decode(rest) {
			if block.Type != "CERTIFICATE" {
				continue
			}
			cert, err := x509.ParseCertificate(block.Bytes)
			if err != nil {
				return "", fmt.Errorf("trusted CA file %s: %w", f, err)
			}
			sum := sha256.Sum256(cert.RawSubjectPublicKeyInfo)
			hashes = append(hashes, base64.StdEncoding.EncodeToString(sum[:]))
		}
	}
	return strings.Join(hashes, ","), nil
}

// proxyBypass turns a NO_PROXY value ("localhost,.example.org") into
// Chromium's --proxy-bypass-list syntax ("localhost;*.example.org").
func proxyBypass(noProxy string) string {
	var out []string
	for _, p := range strings.Split(noProxy, ",") {
		p = strings.TrimSpace(p)
		switch {
		case p == "":
			continue
		case strings.HasPrefix(p, "."):
			p = "*" + p
		}
		out = append(out, p)
	}
	return strings.Join(out, ";")
}

// pinHosts returns the SPKI hashes of the certificate chains that hosts
// present, verified in Go against the system pool plus TrustedCAs, reached
// through ProxyServer when set. Chromium reads no CA file, and its
// --ignore-certificate-errors-spki-list only matches certificates a server
// presents (a proxy's root is usually not among them), so the verified
// chains' own keys are what it is given.
func pinHosts(ctx context.Context, o Options) ([]string, error) {
	if len(o.TrustedCAs) == 0 || len(o.PinHosts) == 0 {
		return nil, nil
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	for _, f := range o.TrustedCAs {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("trusted CA file: %w", err)
		}
		pool.AppendCertsFromPEM(data)
	}
	var hashes []string
	for _, h := range o.PinHosts {
		hs, err := chainSPKIs(ctx, o.ProxyServer, h, pool)
		if err != nil {
			return nil, fmt.Errorf("certificate of %s: %w", h, err)
		}
		hashes = append(hashes, hs...)
	}
	return hashes, nil
}

// chainSPKIs connects to host (host or host:port, port 443 by default),
// through proxy when not empty, verifies its TLS chain against pool and
// returns the SPKI hash of each certificate presented.
func chainSPKIs(ctx context.Context, proxy, host string, pool *x509.CertPool) ([]string, error) {
	if _, _, err := net.SplitHostPort(host); err != nil {
		host = net.JoinHostPort(host, "443")
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	conn, err := dialVia(ctx, proxy, host, pool)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	name, _, _ := net.SplitHostPort(host)
	tc := tls.Client(conn, &tls.Config{ServerName: name, RootCAs: pool})
	if err := tc.HandshakeContext(ctx); err != nil {
		return nil, err
	}
	var out []string
	for _, c := range tc.ConnectionState().PeerCertificates {
		sum := sha256.Sum256(c.RawSubjectPublicKeyInfo)
		out = append(out, base64.StdEncoding.EncodeToString(sum[:]))
	}
	return out, nil
}

// dialVia opens a connection to host:port, tunnelled with CONNECT through
// proxy (http:// or https://) when proxy is not empty.
func dialVia(ctx context.Context, proxy, hostport string, pool *x509.CertPool) (net.Conn, error) {
	var d net.Dialer
	if proxy == "" {
		return d.DialContext(ctx, "tcp", hostport)
	}
	pu, err := url.Parse(proxy)
	if err != nil || pu.Host == "" {
		return nil, fmt.Errorf("proxy %q: not a URL", proxy)
	}
	paddr := pu.Host
	if pu.Port() == "" {
		paddr = net.JoinHostPort(pu.Hostname(), map[bool]string{true: "443", false: "80"}[pu.Scheme == "https"])
	}
	conn, err := d.DialContext(ctx, "tcp", paddr)
	if err != nil {
		return nil, err
	}
	if pu.Scheme == "https" {
		tc := tls.Client(conn, &tls.Config{ServerName: pu.Hostname(), RootCAs: pool})
		if err := tc.HandshakeContext(ctx); err != nil {
			conn.Close()
			return nil, fmt.Errorf("proxy %s: %w", paddr, err)
		}
		conn = tc
	}
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", hostport, hostport)
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: http.MethodConnect})
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("proxy %s: %w", paddr, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		conn.Close()
		return nil, fmt.Errorf("proxy %s: CONNECT %s: %s", paddr, hostport, resp.Status)
	}
	conn.SetDeadline(time.Time{})
	return conn, nil
}

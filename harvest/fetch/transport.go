package fetch

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"

	"golang.org/x/net/http/httpproxy"
)

// proxyConfig reads HTTP_PROXY, HTTPS_PROXY and NO_PROXY (and their lower
// case forms) now, with http.ProxyFromEnvironment's semantics.
func proxyConfig() (func(*url.URL) (*url.URL, error), []string) {
	cfg := httpproxy.FromEnvironment()
	var addrs []string
	for _, p := range []string{cfg.HTTPProxy, cfg.HTTPSProxy} {
		if a := proxyAddr(p); a != "" {
			addrs = append(addrs, a)
		}
	}
	return cfg.ProxyFunc(), addrs
}

// proxyAddr returns the host:port dialled for the proxy given as raw.
func proxyAddr(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		u, err = url.Parse("http://" + raw)
		if err != nil {
			return ""
		}
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"https": "443", "socks5": "1080"}[u.Scheme]
		if port == "" {
			port = "80"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// systemPool is the system's certificate pool, read once (readSystemRoots:
// on Linux each root parsed once, where x509.SystemCertPool parsed every
// copy) and shared: x509's SystemCertPool returns a fresh copy at each call
// (about 20 KB of certificates here), and every crawl's client made one,
// kept as long as its transport. Nil: no system roots. Never added to:
// filePool adds to a clone.
var systemPool = sync.OnceValue(readSystemRoots)

// certPool returns the system pool with the PEM files named by
// SSL_CERT_FILE and caFile added. Without either it is one pool shared by
// every client (a pool is only read once built); with them, the pool
// built last is shared while neither file changes (filePool).
func certPool(caFile string) (*x509.CertPool, error) {
	if caFile == "" && os.Getenv("SSL_CERT_FILE") == "" {
		if pool := systemPool(); pool != nil {
			return pool, nil
		}
		return x509.NewCertPool(), nil
	}
	return filePool(os.Getenv("SSL_CERT_FILE"), caFile)
}

// filePools holds the pool filePool built last, with the files' names,
// sizes and modification times it was built from.
var filePools struct {
	sync.Mutex
	key  string
	pool *x509.CertPool
}

// filePool returns the system pool with the PEM files envFile and caFile
// (either may be "") added, built again only when a file's name, size or
// modification time changed: a daemon makes a client per crawl, and with
// SSL_CERT_FILE set (as containers often do) every crawl parsed the
// whole bundle again, 35 % of a daemon's CPU at 100 000 blogs
// (BenchmarkScale's profile, doc/scale.md).
func filePool(envFile, caFile string) (*x509.CertPool, error) {
	key := ""
	for _, f := range []string{envFile, caFile} {
		if f == "" {
			key += "\x00"
			continue
		}
		fi, err := os.Stat(f)
		if err != nil {
			return nil, fmt.Errorf("read CA file: %w", err)
		}
		key += fmt.Sprintf("%s\x00%d\x00%d\x00", f, fi.Size(), fi.ModTime().UnixNano())
	}
	filePools.Lock()
	defer filePools.Unlock()
	if filePools.pool != nil && filePools.key == key {
		return filePools.pool, nil
	}
	pool := x509.NewCertPool()
	if sys := systemPool(); sys != nil {
		pool = sys.Clone()
	}
	for _, f := range []string{envFile, caFile} {
		if f == "" {
			continue
		}
		pem, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("read CA file: %w", err)
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("CA file %s: no PEM certificates", f)
		}
	}
	filePools.key, filePools.pool = key, pool
	return pool, nil
}

// newTransport builds the default transport of a client.
func newTransport(o Options, g *guard, proxy func(*url.URL) (*url.URL, error)) (*http.Transport, error) {
	pool, err := certPool(o.CAFile)
	if err != nil {
		return nil, err
	}
	d := &net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy:                 func(r *http.Request) (*url.URL, error) { return proxy(r.URL) },
		DialContext:           g.dialContext(d),
		TLSClientConfig:       &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   o.ConnectTimeout,
		ResponseHeaderTimeout: o.IdleReadTimeout,
		DisableCompression:    true,
		MaxIdleConnsPerHost:   o.PerHost,
		IdleConnTimeout:       90 * time.Second,
		ForceAttemptHTTP2:     true,
	}, nil
}

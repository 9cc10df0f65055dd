package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"time"

	"github.com/blogharvest/blogharvest/internal/tlstest"
)

// runServe replays one corpus blog over HTTPS on loopback until ctx ends,
// so that whole programs (blogharvest itself, wget) can crawl it as they
// crawl the web: an HTTPS server answering for the blog's hosts with a
// certificate of a throw-away CA (written to cfg.caFile, PEM), behind a
// CONNECT proxy on 127.0.0.1 that alone knows where those hosts live. It
// prints the proxy's URL on stdout (GET <proxy>/requests counts the
// requests served); point HTTPS_PROXY (blogharvest) or
// https_proxy (wget) at it, and SSL_CERT_FILE or --ca-certificate at the
// CA. The feed is cut to its newest half as in crawl mode.
func runServe(ctx context.Context, cfg *config, stdout io.Writer) error {
	if len(cfg.blogs) != 1 || cfg.corpus == "" || cfg.caFile == "" {
		return errors.New("-mode serve: give -corpus DIR, one blog in -blogs and -ca FILE")
	}
	blogs, err := loadCorpus(cfg.corpus, cfg.blogs)
	if err != nil {
		return err
	}
	if len(blogs) != 1 {
		return fmt.Errorf("-mode serve: blog %s not in %s", cfg.blogs[0], cfg.corpus)
	}
	r, err := newReplay(blogs[0])
	if err != nil {
		return err
	}
	r.Close() // its plain-HTTP server; the replay serves over TLS below
	cert, caPEM, err := replayCertificate(blogs[0].Hosts)
	if err != nil {
		return err
	}
	if err := os.WriteFile(cfg.caFile, caPEM, 0o644); err != nil {
		return err
	}
	srv := httptest.NewUnstartedServer(r)
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.StartTLS()
	defer srv.Close()
	proxy := httptest.NewServer(connectTo(srv.Listener.Addr().String(), r))
	defer proxy.Close()
	fmt.Fprintln(stdout, proxy.URL)
	<-ctx.Done()
	fmt.Fprintf(os.Stderr, "eval: served %d requests\n", r.requests.Load())
	return nil
}

// replayCertificate makes a CA and a server certificate for hosts signed
// by it; it returns the server's key pair and the CA certificate as PEM.
func replayCertificate(hosts []string) (tls.Certificate, []byte, error) {
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "eval replay CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	leaf := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: hosts[0]},
		DNSNames: hosts, NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, leaf, ca, &key.PublicKey, caKey)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key},
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), nil
}

// connectTo is a proxy that tunnels CONNECT requests for the blog's hosts
// (port 443) to addr and serves plain HTTP proxy requests (http:// URLs)
// from r itself; it refuses everything else (nothing leaves the machine),
// except GET /requests, which answers the number of requests r has served
// so far: a benchmark reads it before and after a run.
func connectTo(addr string, r *replay) http.Handler {
	tunnel := &tlstest.ConnectProxy{Routes: map[string]string{}}
	for _, h := range r.blog.Hosts {
		tunnel.Routes[net.JoinHostPort(h, "443")] = addr
	}
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch {
		case req.Method == http.MethodGet && req.URL.Path == "/requests":
			fmt.Fprintln(w, r.requests.Load())
		case req.URL.IsAbs() && req.URL.Scheme == "http":
			r.ServeHTTP(w, req)
		default:
			tunnel.ServeHTTP(w, req)
		}
	})
}

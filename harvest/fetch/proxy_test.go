package fetch_test

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
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// testCA is a certificate authority made for one test.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newCA(t *testing.T) *testCA {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "blogharvest test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return &testCA{cert, key, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// leaf issues a server certificate for a DNS name or an IP address.
func (ca *testCA) leaf(t *testing.T, name string) tls.Certificate {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, KeyUsage: x509.KeyUsageDigitalSignature,
	}
	if ip := net.ParseIP(name); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{name}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// connectProxy is a TLS-terminating CONNECT proxy that alone knows where
// the made-up host names live.
type connectProxy struct {
	routes map[string]string // host:port asked for → address dialled
	mu     sync.Mutex
	asked  []string
}

func (p *connectProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.asked = append(p.asked, r.Method+" "+r.Host)
	p.mu.Unlock()
	addr, ok := p.routes[r.Host]
	if r.Method != http.MethodConnect || !ok {
		http.Error(w, "no route", http.StatusBadGateway)
		return
	}
	up, err := net.Dial("tcp", addr)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		up.Close()
		return
	}
	io.WriteString(conn, "HTTP/1.1 200 Connection established\r\n\r\n")
	go func() { io.Copy(up, buf); up.Close() }()
	io.Copy(conn, up)
	conn.Close()
}

func TestHTTPSProxy(t *testing.T) {
	ca := newCA(t)
	blog := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, "secret blog "+r.Host)
	}))
	blog.TLS = &tls.Config{Certificates: []tls.Certificate{ca.leaf(t, "blog.example.org")}}
	blog.StartTLS()
	defer blog.Close()

	p := &connectProxy{routes: map[string]string{"blog.example.org:443": blog.Listener.Addr().String()}}
	proxy := httptest.NewUnstartedServer(p)
	proxy.TLS = &tls.Config{Certificates: []tls.Certificate{ca.leaf(t, "127.0.0.1")}, NextProtos: []string{"http/1.1"}}
	proxy.StartTLS()
	defer proxy.Close()

	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, ca.pem, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SSL_CERT_FILE", caFile)
	t.Setenv("HTTPS_PROXY", proxy.URL) // https://127.0.0.1:port
	t.Setenv("HTTP_PROXY", "")
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")

	c, err := fetch.New(fetch.Options{Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Get(context.Background(), "https://blog.example.org/2024/01/post/")
	if err != nil {
		t.Fatalf("through proxy: %v (proxy saw %v)", err, p.asked)
	}
	if string(resp.Body) != "secret blog blog.example.org" || resp.RemoteIP != "" {
		t.Errorf("body %q, remote IP %q", resp.Body, resp.RemoteIP)
	}
	if len(p.asked) == 0 || p.asked[0] != "CONNECT blog.example.org:443" {
		t.Errorf("proxy saw %v", p.asked)
	}
	if _, err := c.Get(context.Background(), "https://10.1.2.3/"); !errors.Is(err, fetch.ErrRefused) {
		t.Errorf("private literal through proxy: %v", err)
	}
}

func TestCAFileMissing(t *testing.T) {
	if _, err := fetch.New(fetch.Options{CAFile: filepath.Join(t.TempDir(), "none.pem")}); err == nil {
		t.Error("missing CA file accepted")
	}
}

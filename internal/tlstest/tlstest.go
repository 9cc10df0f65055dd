// Package tlstest gives tests a throw-away certificate authority and a
// CONNECT proxy that alone knows where made-up host names live: the way
// institutions crawl, through a proxy whose certificates chain to a CA of
// their own, with no local DNS.
package tlstest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// CA is a certificate authority made for one test.
type CA struct {
	Cert *x509.Certificate
	Key  *ecdsa.PrivateKey
	PEM  []byte // the CA certificate, PEM-encoded
}

// NewCA makes a CA valid for an hour around now.
func NewCA(tb testing.TB) *CA {
	tb.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "blogharvest test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		tb.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return &CA{cert, key, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// WriteFile writes the CA certificate into the test's temporary directory
// and returns its path, for SSL_CERT_FILE.
func (ca *CA) WriteFile(tb testing.TB) string {
	tb.Helper()
	f := filepath.Join(tb.TempDir(), "ca.pem")
	if err := os.WriteFile(f, ca.PEM, 0o600); err != nil {
		tb.Fatal(err)
	}
	return f
}

// Leaf issues a server certificate for a DNS name or an IP address.
func (ca *CA) Leaf(tb testing.TB, name string) tls.Certificate {
	tb.Helper()
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
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.Key)
	if err != nil {
		tb.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// ConnectProxy is an HTTP handler that tunnels CONNECT requests for the
// host:port keys of Routes to the addresses they map to, and refuses every
// other request.
type ConnectProxy struct {
	Routes map[string]string // host:port asked for → address dialled

	mu    sync.Mutex
	asked []string
}

// Asked returns the requests seen so far, as "METHOD host".
func (p *ConnectProxy) Asked() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.asked...)
}

func (p *ConnectProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.asked = append(p.asked, r.Method+" "+r.Host)
	p.mu.Unlock()
	addr, ok := p.Routes[r.Host]
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

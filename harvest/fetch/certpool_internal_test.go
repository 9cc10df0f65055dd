package fetch

import (
	"encoding/pem"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCertPoolShared: without a CA file or SSL_CERT_FILE every client
// gets the one system pool (x509.SystemCertPool copies it at each call,
// about 20 KB a client); with a CA file a pool of its own
// (TestCertPoolFromFilesShared).
func TestCertPoolShared(t *testing.T) {
	t.Setenv("SSL_CERT_FILE", "")
	a, err := certPool("")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := certPool("")
	if a != b {
		t.Error("two clients without a CA file got two copies of the system pool")
	}
	if _, err := certPool("testdata/no-such-ca.pem"); err == nil {
		t.Error("a missing CA file was not refused")
	}
}

// TestCertPoolFromFilesShared: with SSL_CERT_FILE or a CA file, clients
// share the pool built from them while the files stay the same (every
// crawl parsed the whole bundle again: doc/scale.md), and get a new one
// once a file changes.
func TestCertPoolFromFilesShared(t *testing.T) {
	srv := httptest.NewTLSServer(nil)
	defer srv.Close()
	block := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	dir := t.TempDir()
	env, ca := filepath.Join(dir, "env.pem"), filepath.Join(dir, "ca.pem")
	for _, f := range []string{env, ca} {
		if err := os.WriteFile(f, block, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("SSL_CERT_FILE", env)
	a, err := certPool(ca)
	if err != nil {
		t.Fatal(err)
	}
	b, err := certPool(ca)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("two clients with the same CA files built two pools")
	}
	if sys := systemPool(); sys != nil && a == sys {
		t.Error("the pool with CA files added is the shared system pool")
	}
	if err := os.WriteFile(ca, append(block, block...), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(ca, later, later); err != nil {
		t.Fatal(err)
	}
	c, err := certPool(ca)
	if err != nil {
		t.Fatal(err)
	}
	if c == a {
		t.Error("a changed CA file did not make a new pool")
	}
	t.Setenv("SSL_CERT_FILE", "")
	if d, err := certPool(ca); err != nil || d == c {
		t.Errorf("SSL_CERT_FILE unset: pool %p (the one with it %p), %v; want another", d, c, err)
	}
}

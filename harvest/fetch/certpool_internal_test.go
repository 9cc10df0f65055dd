package fetch

import "testing"

// TestCertPoolShared: without a CA file or SSL_CERT_FILE every client
// gets the one system pool (x509.SystemCertPool copies it at each call,
// about 20 KB a client); with a CA file a pool of its own.
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

//go:build !linux || android

package fetch

import "crypto/x509"

// readSystemRoots returns x509.SystemCertPool's pool (on macOS and Windows
// one that verifies with the platform's verifier); roots_linux.go reads
// Linux's files itself. Nil: no system roots.
func readSystemRoots() *x509.CertPool {
	pool, err := x509.SystemCertPool()
	if err != nil {
		return nil
	}
	return pool
}

//go:build linux && !android

package fetch

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// certFiles and certDirectories are crypto/x509's for Linux
// (root_linux.go, Go 1.26): the bundles of which the first found is read,
// and the folders every file of which is read.
var (
	certFiles = []string{
		"/etc/ssl/certs/ca-certificates.crt",                // Debian/Ubuntu/Gentoo etc.
		"/etc/pki/tls/certs/ca-bundle.crt",                  // Fedora/RHEL 6
		"/etc/ssl/ca-bundle.pem",                            // OpenSUSE
		"/etc/pki/tls/cacert.pem",                           // OpenELEC
		"/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", // CentOS/RHEL 7
		"/etc/ssl/cert.pem",                                 // Alpine Linux
	}
	certDirectories = []string{"/etc/ssl/certs", "/etc/pki/tls/certs"}
)

// readSystemRoots returns the pool x509.SystemCertPool returns on Linux,
// read the way crypto/x509's loadSystemRoots reads it (SSL_CERT_FILE or the
// first bundle found, then every file of SSL_CERT_DIR's folders or the
// system's, but symbolic links within the folder), the same certificates
// added in the same order, each parsed once: x509 parses every copy and
// drops the copies after, and Debian's /etc/ssl/certs holds each root twice
// (its file and ca-certificates.crt, which x509 also reads first as the
// bundle), so a process parsed some 290 certificates for 145 roots, a
// quarter of the CPU of a crawl that fetches one page (doc/benchmarks.md,
// issue 43). Here a file whose bytes were read already is skipped, and a
// certificate whose DER bytes were added already is not parsed again (x509
// keys its pool by a hash of the same bytes: a copy adds nothing). When
// nothing is found, x509's own loader answers (its error, or its fallback
// roots). Nil: no system roots.
func readSystemRoots() *x509.CertPool {
	r := rootReader{pool: x509.NewCertPool(), files: map[[sha256.Size]byte]struct{}{}, certs: map[[sha256.Size224]byte]struct{}{}}
	files := certFiles
	if f := os.Getenv("SSL_CERT_FILE"); f != "" {
		files = []string{f}
	}
	for _, file := range files {
		if r.read(file) == nil {
			break
		}
	}
	dirs := certDirectories
	if d := os.Getenv("SSL_CERT_DIR"); d != "" {
		dirs = strings.Split(d, ":")
	}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !sameDirSymlink(e, dir) {
				_ = r.read(dir + "/" + e.Name()) // as x509: a file that cannot be read is skipped
			}
		}
	}
	if r.added == 0 {
		sys, err := x509.SystemCertPool()
		if err != nil {
			return nil
		}
		return sys
	}
	return r.pool
}

// rootReader adds the certificates of PEM files to a pool, each file's
// bytes and each certificate's DER bytes once, reading every file into
// one buffer (the process's first allocations are page faults, which
// cost as much as the parsing).
type rootReader struct {
	pool  *x509.CertPool
	buf   []byte
	files map[[sha256.Size]byte]struct{}    // the hash of every file read
	certs map[[sha256.Size224]byte]struct{} // the hash of every certificate's DER seen (x509 keys its pool by it)
	added int
}

// read adds the certificates of the file name (add); an error if it
// cannot be read.
func (r *rootReader) read(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	r.buf = r.buf[:0]
	for {
		if len(r.buf) == cap(r.buf) {
			r.buf = append(r.buf, 0)[:len(r.buf)]
		}
		n, err := f.Read(r.buf[len(r.buf):cap(r.buf)])
		r.buf = r.buf[:len(r.buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	r.add(r.buf)
	return nil
}

// add adds the certificates of a PEM file as x509's AppendCertsFromPEM
// does (blocks of type CERTIFICATE without headers, those that parse),
// skipping a file read before and a certificate seen before.
func (r *rootReader) add(data []byte) {
	sum := sha256.Sum256(data)
	if _, ok := r.files[sum]; ok {
		return
	}
	r.files[sum] = struct{}{}
	for len(data) > 0 {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" || len(block.Headers) != 0 {
			continue
		}
		der := sha256.Sum224(block.Bytes)
		if _, ok := r.certs[der]; ok {
			continue
		}
		r.certs[der] = struct{}{}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			continue
		}
		r.pool.AddCert(cert)
		r.added++
	}
}

// sameDirSymlink reports whether e in dir is a symbolic link whose target
// has no slash (x509's isSameDirSymlink: such links are skipped).
func sameDirSymlink(e fs.DirEntry, dir string) bool {
	if e.Type()&fs.ModeSymlink == 0 {
		return false
	}
	target, err := os.Readlink(filepath.Join(dir, e.Name()))
	return err == nil && !strings.Contains(target, "/")
}

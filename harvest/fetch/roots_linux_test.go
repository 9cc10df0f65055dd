//go:build linux && !android

package fetch

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSystemRootsAsX509 compares readSystemRoots with
// x509.SystemCertPool, certificate by certificate and in order (a chain is
// built from the first candidate of a subject that verifies), in a child
// process for each environment (x509 reads its roots once a process): the
// machine's own roots; and SSL_CERT_FILE and SSL_CERT_DIR naming made-up
// files with what x509 must skip or keep: a bundle repeated in a folder,
// a certificate in two files, two roots of one subject in either order,
// links within the folder and out of it, a block with headers, a block of
// another type, one that does not parse, a file that is no PEM, a missing
// folder; and nothing found at all (x509's own answer).
func TestSystemRootsAsX509(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cert := func(name string, serial int64) []byte {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: name},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
			BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
		if err != nil {
			t.Fatal(err)
		}
		return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	}
	a, b, c, d, same1, same2 := cert("a", 1), cert("b", 2), cert("c", 3), cert("d", 4), cert("same", 5), cert("same", 6)
	e, _ := pem.Decode(cert("e", 7))
	headers := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Headers: map[string]string{"Proc-Type": "4,ENCRYPTED"}, Bytes: e.Bytes})
	other := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("x")})
	bad := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("not DER")})
	bundle := bytes.Join([][]byte{a, headers, b, other, bad, same1}, []byte("text between\n"))
	write := func(name string, data []byte) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("bundle.pem", bundle)
	write("one/bundle-copy.crt", bundle)
	write("one/b.pem", b)
	write("one/c-and-same2.pem", append(append([]byte{}, same2...), c...))
	write("one/junk.txt", []byte("no PEM here\n"))
	write("one/bad.pem", bad)
	write("out/d.pem", d)
	write("two/same2-then-a.pem", append(append([]byte{}, same2...), a...))
	for _, l := range [][2]string{{"c-and-same2.pem", "one/0001.0"}, {"../out/d.pem", "one/d.pem"}, {"../out/d.pem", "two/d-again.pem"}} {
		if err := os.Symlink(l[0], filepath.Join(dir, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	j := func(names ...string) string {
		for i, n := range names {
			names[i] = filepath.Join(dir, n)
		}
		return strings.Join(names, ":")
	}
	cases := []struct{ name, file, dirs string }{
		{"the machine's roots", os.Getenv("SSL_CERT_FILE"), os.Getenv("SSL_CERT_DIR")},
		{"made-up files", j("bundle.pem"), j("one", "missing", "two")},
		{"the folders in the other order", j("bundle.pem"), j("two", "one")},
		{"no bundle", j("missing.pem"), j("two", "one")},
		{"nothing found", j("missing.pem"), j("missing")},
		{"a bundle without certificates", j("one/junk.txt"), j("missing")},
	}
	for _, tc := range cases {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSystemRootsChild$")
		cmd.Env = append(os.Environ(), "BLOGHARVEST_ROOTS_CHILD=1", "SSL_CERT_FILE="+tc.file, "SSL_CERT_DIR="+tc.dirs)
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("roots: ")) {
			t.Errorf("%s: %v\n%s", tc.name, err, out)
			continue
		}
		t.Logf("%s: %s", tc.name, bytes.TrimSpace(out[bytes.Index(out, []byte("roots: ")):]))
	}
}

// TestSystemRootsChild is TestSystemRootsAsX509's child: it compares the
// two pools of its environment and prints how many roots they hold.
func TestSystemRootsChild(t *testing.T) {
	if os.Getenv("BLOGHARVEST_ROOTS_CHILD") != "1" {
		t.Skip("run by TestSystemRootsAsX509")
	}
	ours := readSystemRoots()
	theirs, err := x509.SystemCertPool()
	if err != nil {
		if ours != nil {
			t.Fatalf("x509: %v; readSystemRoots: a pool", err)
		}
		os.Stdout.WriteString("roots: none, " + err.Error() + "\n")
		return
	}
	if ours == nil {
		t.Fatal("readSystemRoots: nil; x509: a pool")
	}
	if !ours.Equal(theirs) {
		t.Fatal("the pools hold other certificates")
	}
	//lint:ignore SA1019 the subjects in order are the order of the pool's certificates
	o, x := ours.Subjects(), theirs.Subjects()
	if len(o) != len(x) {
		t.Fatalf("%d subjects, x509 %d", len(o), len(x))
	}
	for i := range o {
		if !bytes.Equal(o[i], x[i]) {
			t.Fatalf("subject %d differs: %q, x509 %q", i, o[i], x[i])
		}
	}
	os.Stdout.WriteString("roots: " + big.NewInt(int64(len(o))).String() + " the same, in the same order\n")
}

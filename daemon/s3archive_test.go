package daemon_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/aip/s3store"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/s3test"
)

// TestDemoS3Archive runs the real binary's demo into an S3 archive on a
// real S3-compatible server on loopback (endpoint and credentials in the
// environment only), twice: the first run writes every AIP through the
// S3 store and its own check (through the store) is clean; the second
// finds every entry unchanged by reading the versions back from S3;
// check s3://… is clean; published s3://… lists every bag of the archive
// once after the first run, and the same after the second (which
// published nothing); no credential is printed and nothing is written
// into a local folder named after the URL.
func TestDemoS3Archive(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo twice")
	}
	t.Parallel()
	srv := s3test.Start(t)
	var b [6]byte
	rand.Read(b[:])
	archive := "s3://" + srv.Bucket + "/demo-" + hex.EncodeToString(b[:])
	cwd, cache := t.TempDir(), t.TempDir() // the demo's state (the blog's address) lives in the cache
	run := func(args ...string) string {
		cmd := exec.Command(daemontest.Binary(), args...)
		cmd.Dir = cwd
		cmd.Env = append(append(os.Environ(), srv.Env()...), "XDG_CACHE_HOME="+cache)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		if strings.Contains(string(out), srv.SecretKey) || strings.Contains(string(out), srv.AccessKey) {
			t.Errorf("%v printed a credential:\n%s", args, out)
		}
		return string(out)
	}
	first := run("demo", "-out", archive)
	for _, want := range []string{"check: 0 problem(s)", "S3 requests while harvesting"} {
		if !strings.Contains(first, want) {
			t.Errorf("first demo lacks %q:\n%s", want, first)
		}
	}
	if strings.Contains(first, " 0 entry AIP(s) written this run") {
		t.Errorf("first demo wrote no entry:\n%s", first)
	}
	prefix := strings.TrimPrefix(archive, "s3://"+srv.Bucket+"/")
	st, err := s3store.New(context.Background(), s3store.Config{Endpoint: srv.Endpoint, Insecure: true, Bucket: srv.Bucket,
		Prefix: prefix, AccessKey: srv.AccessKey, SecretKey: srv.SecretKey})
	if err != nil {
		t.Fatal(err)
	}
	var bags []string
	fs.WalkDir(st, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			t.Error(err)
			return err
		case !d.IsDir():
			return nil
		case p != "." && strings.HasPrefix(d.Name(), "."):
			return fs.SkipDir // the publication log and staging
		}
		if _, err := fs.Stat(st, p+"/bagit.txt"); err == nil {
			bags = append(bags, archive+"/"+p)
			return fs.SkipDir
		}
		return nil
	})
	published := func() []string {
		lines := strings.Fields(run("published", archive, "-paths"))
		slices.Sort(lines)
		return lines
	}
	if got := published(); len(bags) < 40 || !slices.Equal(got, bags) {
		t.Errorf("published %s -paths lists %d bags, the archive holds %d:\n%v\n%v", archive, len(got), len(bags), got, bags)
	}
	second := run("demo", "-out", archive)
	if !strings.Contains(second, " 0 entry AIP(s) written this run") || !strings.Contains(second, "check: 0 problem(s)") {
		t.Errorf("second demo: want every entry unchanged and a clean check:\n%s", second)
	}
	if got := published(); !slices.Equal(got, bags) {
		t.Errorf("after a demo that published nothing, published lists %d bags, want the %d of the first", len(got), len(bags))
	}
	if out := run("check", archive); !strings.Contains(out, archive+": ok") {
		t.Errorf("check %s:\n%s", archive, out)
	}
	if ents, _ := os.ReadDir(cwd); len(ents) > 0 {
		t.Errorf("the S3 demo wrote into the working folder: %v", ents)
	}
}

package daemon_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/cluster"
	"github.com/blogharvest/blogharvest/daemon"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// TestClusterConfigNeedsAuthAndTLS: the cluster key requires an nkey file
// holding a seed (its content never quoted) and the members; an embedded
// server listening off loopback, or a nats_url off loopback, requires TLS.
func TestClusterConfigNeedsAuthAndTLS(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := daemontest.Run(t, "nkey", "-out", filepath.Join(dir, "w.nk"))
	pub := strings.TrimSpace(stdout)
	if code != 0 || !cluster.ValidMember(pub) {
		t.Fatalf("nkey: exit %d, printed %q\n%s", code, stdout, stderr)
	}
	seed, _ := os.ReadFile(filepath.Join(dir, "w.nk"))
	if fi, err := os.Stat(filepath.Join(dir, "w.nk")); err != nil || fi.Mode().Perm() != 0o600 || strings.Contains(stdout, strings.TrimSpace(string(seed))) {
		t.Errorf("the seed file: %v %v, or the seed printed", fi, err)
	}
	if code, _, _ := daemontest.Run(t, "nkey", "-out", filepath.Join(dir, "w.nk")); code == 0 {
		t.Error("nkey overwrote an existing seed file")
	}
	key := filepath.Join(dir, "w.nk")
	notSeed := filepath.Join(dir, "public.nk")
	os.WriteFile(notSeed, []byte(pub+"\n"), 0o600)
	const ok = "blogs:\n  - id: good\n    url: https://good.example.org/\n"
	members := "members: {w: " + pub + "}"
	for _, c := range []struct{ name, cluster, key, reason string }{
		{"no nkey", "{nats_url: nats://127.0.0.1:4222, " + members + "}", "cluster.nkey_file", "required"},
		{"a public key, not a seed", "{nats_url: nats://127.0.0.1:4222, nkey_file: " + notSeed + ", " + members + "}",
			"cluster.nkey_file", "seed"},
		{"no members", "{nats_url: nats://127.0.0.1:4222, nkey_file: " + key + "}", "cluster.members", "required"},
		{"bad member", "{nats_url: nats://127.0.0.1:4222, nkey_file: " + key + ", members: {w: SUABC}}", "cluster.members", "not a public user nkey"},
		{"embedded on 0.0.0.0 without TLS", "{embedded: true, listen: 0.0.0.0:4222, nkey_file: " + key + ", " + members + "}",
			"cluster.listen", "not on loopback"},
		{"remote server without TLS", "{nats_url: \"nats://a:s3cret@10.0.0.1:4222, nats://10.0.0.2:4222\", nkey_file: " + key + ", " + members + "}",
			"cluster.nats_url", "not on loopback"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := wantProblem(t, "cluster: "+c.cluster+"\n"+ok, 0, "", c.key, c.reason)
			if strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), strings.TrimSpace(string(seed))) {
				t.Errorf("a secret in the message: %v", err)
			}
		})
	}
	good := "cluster: {embedded: true, nkey_file: " + key + ", name: w, " + members + "}\n" + ok
	c, err := daemon.ParseConfig("test.yaml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if c.Cluster.Listen != "127.0.0.1:4222" {
		t.Errorf("default listen %q, want loopback", c.Cluster.Listen)
	}
	tlsOK := "cluster: {nats_url: tls://10.0.0.1:4222, nkey_file: " + key + ", " + members + "}\n" + ok
	if _, err := daemon.ParseConfig("test.yaml", []byte(tlsOK)); err != nil {
		t.Errorf("tls:// off loopback: %v", err)
	}
}

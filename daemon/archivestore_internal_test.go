package daemon

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/internal/s3test"
)

// archiveBackend is one kind of archive the daemon's readers are tested
// over: use points c's archive at a fresh, empty one of its kind.
type archiveBackend struct {
	name string
	use  func(t *testing.T, c *Config)
}

// archiveBackends are a folder (the config's own) and an S3-compatible
// store on loopback (internal/s3test; the test skips when it has none),
// the endpoint and credentials in the environment only, as an operator
// would give them.
var archiveBackends = []archiveBackend{
	{"local", func(*testing.T, *Config) {}},
	{"s3", func(t *testing.T, c *Config) {
		srv := s3test.Start(t)
		for _, kv := range srv.Env() {
			k, v, _ := strings.Cut(kv, "=")
			t.Setenv(k, v)
		}
		var b [6]byte
		rand.Read(b[:])
		c.Archive = "s3://" + srv.Bucket + "/" + strings.ReplaceAll(t.Name(), "/", "-") + "-" + hex.EncodeToString(b[:])
	}},
}

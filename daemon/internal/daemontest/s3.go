package daemontest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/aip/s3store"
	"github.com/blogharvest/blogharvest/internal/s3test"
)

// NewS3Archive returns a fresh, empty archive on the test's S3 server
// (internal/s3test; skipped without one): its s3:// URL and its store. The
// endpoint and credentials are set in the environment only, as an
// operator gives them to the commands.
func NewS3Archive(t testing.TB) (string, *s3store.Store) {
	t.Helper()
	srv := s3test.Start(t)
	for _, kv := range srv.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	var b [6]byte
	rand.Read(b[:])
	prefix := strings.ReplaceAll(t.Name(), "/", "-") + "-" + hex.EncodeToString(b[:])
	st, err := s3store.New(context.Background(), s3store.Config{Endpoint: srv.Endpoint, Insecure: true, Bucket: srv.Bucket,
		Prefix: prefix, AccessKey: srv.AccessKey, SecretKey: srv.SecretKey})
	if err != nil {
		t.Fatal(err)
	}
	return "s3://" + srv.Bucket + "/" + prefix, st
}

package s3test

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestServe keeps a versitygw up for measurements by hand (doc/storage.md):
// with BLOGHARVEST_S3_SERVE=<file> it writes the environment a blogharvest
// process needs (Server.Env) and the access log's path into <file>, then
// serves until <file> is removed. It does nothing in a normal test run.
func TestServe(t *testing.T) {
	out := os.Getenv("BLOGHARVEST_S3_SERVE")
	if out == "" {
		t.Skip("only for measurements: set BLOGHARVEST_S3_SERVE")
	}
	bin := Binary()
	if bin == "" {
		t.Fatal("versitygw not found")
	}
	s, stop, err := Run(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	env := append(s.Env(), "BUCKET="+s.Bucket, "ACCESS_LOG="+s.accessLog)
	if err := os.WriteFile(out, []byte(strings.Join(env, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(out); err != nil {
			return
		}
		time.Sleep(time.Second)
	}
}

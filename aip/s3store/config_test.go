package s3store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseURLRefusesCredentials: user information, a query or a fragment
// in an archive URL is refused, and the message does not repeat the
// secret.
func TestParseURLRefusesCredentials(t *testing.T) {
	for _, u := range []string{"s3://AKIA:SECRETKEY@bucket/prefix", "s3://bucket/prefix?secret=SECRETKEY", "s3://bucket/p#SECRETKEY"} {
		_, _, err := ParseURL(u)
		if err == nil {
			t.Errorf("%s: accepted", u)
			continue
		}
		if strings.Contains(err.Error(), "SECRETKEY") {
			t.Errorf("%s: the error repeats the secret: %v", u, err)
		}
	}
	b, p, err := ParseURL("s3://bucket/a/b/")
	if err != nil || b != "bucket" || p != "a/b" {
		t.Errorf("ParseURL = %q, %q, %v", b, p, err)
	}
}

// TestFromEnvCredentialsFile: the credentials file wins over the
// environment, an http:// endpoint is plain HTTP, and String names no
// credential.
func TestFromEnvCredentialsFile(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "from-env")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "env-secret")
	t.Setenv("BLOGHARVEST_S3_ENDPOINT", "http://127.0.0.1:9")
	f := filepath.Join(t.TempDir(), "creds")
	os.WriteFile(f, []byte("# test\naws_access_key_id = from-file\naws_secret_access_key = file-secret\n"), 0o600)
	cfg, err := FromEnv("s3://bucket/archive", f)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.AccessKey != "from-file" || cfg.SecretKey != "file-secret" || !cfg.Insecure || cfg.Endpoint != "127.0.0.1:9" || cfg.Prefix != "archive" {
		t.Errorf("cfg = %+v", cfg)
	}
	s := &Store{bucket: cfg.Bucket, prefix: cleanPrefix(cfg.Prefix)}
	if got := s.String(); got != "s3://bucket/archive" {
		t.Errorf("String = %q", got)
	}
}

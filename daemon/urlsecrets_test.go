package daemon_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// urlSecret is the secret of every credential-bearing URL below: no line
// any command prints may hold it.
const urlSecret = "sEcReT-u7Kq-4411"

// TestNoCommandPrintsURLSecrets runs every command that takes a URL, on the
// command line or in its config, with credentials in that URL (an S3
// archive s3://KEY:SECRET@bucket/prefix, a blog URL with user:password, a
// NATS URL with a password) and asserts the secret is in none of its
// output, stdout or stderr, whatever the command's verdict; nor does
// import-opml write it into a config.
func TestNoCommandPrintsURLSecrets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s3 := "s3://AKIDEXAMPLE:" + urlSecret + "@bucket/prefix"
	blogURL := "http://ann:" + urlSecret + "@127.0.0.1:9/"
	config := func(name, archive, url, extra string) string {
		p := filepath.Join(dir, name)
		y := fmt.Sprintf("archive: %s\nstate: %s\nblogs:\n  - id: one\n    url: %s\n    schedule: \"@every 1h\"\n%s",
			archive, filepath.Join(dir, "state.db"), url, extra)
		if err := os.WriteFile(p, []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	s3cfg := config("s3.yaml", s3, "http://127.0.0.1:9/", "")
	blogcfg := config("blog.yaml", filepath.Join(dir, "archive"), blogURL, "")
	allowcfg := config("allow.yaml", filepath.Join(dir, "archive"), "http://127.0.0.1:9/", "    allow: [\""+blogURL+"\"]\n")
	natscfg := filepath.Join(dir, "nats.yaml")
	os.WriteFile(natscfg, []byte(fmt.Sprintf("archive: %s\nstate: %s\ncluster:\n  nats_url: nats://w:%s@127.0.0.1:9\n  key: k\nblogs:\n  - id: one\n    url: http://127.0.0.1:9/\n",
		filepath.Join(dir, "archive"), filepath.Join(dir, "state.db"), urlSecret)), 0o644)
	opml := filepath.Join(dir, "subs.opml")
	os.WriteFile(opml, []byte(`<?xml version="1.0"?><opml version="2.0"><body>`+
		`<outline text="A" type="rss" xmlUrl="http://ann:`+urlSecret+`@127.0.0.1:9/feed/" htmlUrl="http://ann:`+urlSecret+`@127.0.0.1:9/"/>`+
		`<outline text="B" type="rss" xmlUrl="http://127.0.0.1:9/b/feed/" htmlUrl="http://127.0.0.1:9/b/"/>`+
		`</body></opml>`), 0o644)
	os.WriteFile(filepath.Join(dir, "imported.yaml"), []byte("blogs:\n"), 0o644)
	for _, args := range [][]string{
		{"check", s3},
		{"check", s3 + "/"},
		{"check", filepath.Join(dir, "none"), s3},
		{"export", "-format", "wacz", "-out", filepath.Join(dir, "x.wacz"), s3},
		{"export", "-out", filepath.Join(dir, "x.jsonl"), s3},
		{"report", "-out", filepath.Join(dir, "r.html"), s3},
		{"report", "-out", filepath.Join(dir, "r.html"), s3 + "/one"},
		{"crawl", "-url", blogURL, "-out", filepath.Join(dir, "a")},
		{"crawl", "-url", "http://127.0.0.1:9/", "-out", s3},
		{"crawl", "-url", "http://127.0.0.1:9/", "-allow", blogURL, "-out", filepath.Join(dir, "a")},
		{"learn", "-url", blogURL},
		{"learn", "-url", "http://127.0.0.1:9/", "-allow", blogURL},
		{"crawl", "-config", s3cfg},
		{"crawl", "-config", blogcfg},
		{"crawl", "-config", allowcfg},
		{"run", "-check", "-config", s3cfg},
		{"run", "-check", "-config", blogcfg},
		{"run", "-check", "-config", allowcfg},
		{"run", "-check", "-config", natscfg},
		{"status", "-config", s3cfg},
		{"status", "-config", blogcfg},
		{"worker", "-config", natscfg},
		{"locate", s3, "http://127.0.0.1:9/p/"},
		{"published", s3},
		{"import-opml", "-dry-run", opml, blogcfg},
		{"import-opml", opml, filepath.Join(dir, "imported.yaml")},
	} {
		code, stdout, stderr := daemontest.Run(t, args...)
		if strings.Contains(stdout+stderr, urlSecret) {
			t.Errorf("%s: exit %d, the secret is in its output:\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "imported.yaml")); strings.Contains(string(data), urlSecret) {
		t.Errorf("import-opml wrote the secret into the config:\n%s", data)
	}
}

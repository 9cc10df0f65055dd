package daemon_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/daemon"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// TestConfigAllow checks the allow key: origins only, each bad one named
// by its own line, blog and key; defaults.allow reported once under its
// own key and inherited by blogs that set none.
func TestConfigAllow(t *testing.T) {
	head := "blogs:\n  - id: a\n    url: https://x.org/\n    allow:\n"
	cases := []struct {
		name, yaml string
		line       int
		blog, key  string
		reason     string
	}{
		{"scheme", head + "      - https://ok.example.org\n      - ftp://cdn.x.org\n", 6, "a", "allow", "not an http(s) origin"},
		{"no scheme", head + "      - cdn.x.org\n", 5, "a", "allow", "not an http(s) origin"},
		{"path", head + "      - https://cdn.x.org/img/\n", 5, "a", "allow", "path, query or fragment"},
		{"query", head + "      - https://cdn.x.org?a=1\n", 5, "a", "allow", "path, query or fragment"},
		{"fragment", head + "      - https://cdn.x.org#top\n", 5, "a", "allow", "path, query or fragment"},
		{"user info", head + "      - https://me:secret@cdn.x.org\n", 5, "a", "allow", "user info"},
		{"bad port", head + "      - http://127.0.0.1:99999\n", 5, "a", "allow", "not 1-65535"},
		{"empty port", head + "      - \"http://127.0.0.1:\"\n", 5, "a", "allow", "empty port"},
		{"no host", head + "      - http://:8080\n", 5, "a", "allow", "no host"},
		{"not a list", "blogs:\n  - id: a\n    url: https://x.org/\n    allow: {a: b}\n", 4, "a", "allow", "cannot unmarshal"},
		{"defaults", "defaults:\n  allow: [\"https://x.org/a\"]\nblogs:\n  - id: a\n    url: https://x.org/\n", 2, "", "defaults.allow", "path, query or fragment"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := wantProblem(t, tc.yaml, tc.line, tc.blog, tc.key, tc.reason)
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("message shows the password: %v", err)
			}
		})
	}
	y := "defaults:\n  allow: [\"http://127.0.0.1:8081\"]\nblogs:\n" +
		"  - id: a\n    url: https://x.org/\n" +
		"  - id: b\n    url: https://y.org/\n    allow: [\"https://cdn.y.org/\", \"http://[::1]:8080\"]\n"
	c, err := daemon.ParseConfig("ok.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Blogs[0].Allow; !slices.Equal(got, []string{"http://127.0.0.1:8081"}) {
		t.Errorf("blog a allow = %q, want the defaults'", got)
	}
	if got := c.Blogs[1].Allow; !slices.Equal(got, []string{"https://cdn.y.org/", "http://[::1]:8080"}) {
		t.Errorf("blog b allow = %q", got)
	}
}

// TestCrawlAllowFlag checks that crawl -url refuses a bad -allow origin as
// a usage error, before anything is fetched.
func TestCrawlAllowFlag(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	code := daemon.Main(context.Background(), []string{"crawl", "-url", "http://127.0.0.1:1/", "-out", filepath.Join(t.TempDir(), "a"),
		"-allow", "http://127.0.0.1:8081", "-allow", "http://127.0.0.1:8082/path"}, daemon.IO{Stdout: &stdout, Stderr: &stderr})
	if code != daemon.ExitUsage || !strings.Contains(stderr.String(), "-allow") || !strings.Contains(stderr.String(), "path, query or fragment") {
		t.Errorf("exit %d, stderr %q: want a usage error about -allow's path", code, stderr.String())
	}
}

// TestCrawlAllowOrigin: a blog whose home page redirects to another port
// of 127.0.0.1 fails without -allow (naming allow) and is archived with it.
func TestCrawlAllowOrigin(t *testing.T) {
	t.Parallel()
	site := fixture.MustNew("static")
	blog := httptest.NewServer(site.Handler())
	defer blog.Close()
	front := httptest.NewServer(http.RedirectHandler(blog.URL+"/", http.StatusMovedPermanently))
	defer front.Close()
	out := t.TempDir()
	code, _, stderr := daemontest.Run(t, "crawl", "-url", front.URL+"/", "-id", "moved", "-out", out, "-delay", "1ms", "-render", "never")
	if code != daemon.ExitFailure || !strings.Contains(stderr, "allow") {
		t.Errorf("without -allow: exit %d, stderr %s", code, daemontest.LastLines(stderr, 5))
	}
	code, stdout, stderr := daemontest.Run(t, "crawl", "-url", front.URL+"/", "-id", "moved", "-out", out, "-delay", "1ms", "-render", "never", "-allow", blog.URL)
	if code != 0 {
		t.Fatalf("with -allow: exit %d\n%s\n%s", code, stdout, daemontest.LastLines(stderr, 10))
	}
	bags, _ := filepath.Glob(filepath.Join(out, "moved", "entries", "*", "*", "v1", "bagit.txt"))
	if tr := site.Truth(blog.URL); len(bags) != len(tr.Posts)+len(tr.Pages) {
		t.Errorf("%d entry AIPs, want %d", len(bags), len(tr.Posts)+len(tr.Pages))
	}
}

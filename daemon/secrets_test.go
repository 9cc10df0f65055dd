package daemon_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// secretPassword is the password of the protected test blog: it must show
// up nowhere.
const secretPassword = "pw-Zq7-secret-91"

// writeConfig writes a daemon config for one blog and returns its path.
func writeConfig(t *testing.T, dir, listen, blogURL, extra string) string {
	t.Helper()
	cfg := filepath.Join(dir, "blogs.yaml")
	y := fmt.Sprintf("archive: %s\nstate: %s\nlisten: %s\nlog: {format: json, level: debug}\nblogs:\n"+
		"  - id: raw\n    url: %s\n    schedule: \"@every 1h\"\n    delay: 1ms\n    render: never\n%s",
		filepath.Join(dir, "archive"), filepath.Join(dir, "state", "schedule.db"), listen, blogURL, extra)
	if err := os.WriteFile(cfg, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// statusBody returns the daemon's /status, or "" while it does not answer.
func statusBody(listen string) string {
	resp, err := http.Get("http://" + listen + "/status")
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			return b.String()
		}
	}
}

// TestBasicAuthStaysSecret runs the daemon on a blog behind basic auth,
// configured with auth: the blog is archived, and neither the password
// nor the user:password form appears in the archive, the log or /status;
// another origin the blog links and redirects to gets no credentials.
func TestBasicAuthStaysSecret(t *testing.T) {
	t.Parallel()
	var otherRequests, otherAuth atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		otherRequests.Add(1)
		if r.Header.Get("Authorization") != "" {
			otherAuth.Add(1)
		}
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n"))
	}))
	defer other.Close()
	b := newRawBlog(4)
	b.user, b.pass = "ann", secretPassword
	b.posts[0].body = fmt.Sprintf(`<p><img src="%s/img.png" alt="a picture"> <a href="%s/linked/">elsewhere</a></p>`,
		other.URL, other.URL) + b.posts[0].body
	b.extra, b.away = `<p><a href="/away/">away</a></p>`, other.URL+"/landing/"
	srv := httptest.NewServer(b)
	defer srv.Close()

	dir := t.TempDir()
	pwFile := filepath.Join(dir, "password")
	os.WriteFile(pwFile, []byte(secretPassword+"\n"), 0o600)
	listen := daemontest.FreeAddr(t)
	cfg := writeConfig(t, dir, listen, srv.URL+"/", fmt.Sprintf("    auth: {user: ann, password_file: %s}\n", pwFile))
	d := daemontest.Start(t, "run", "-config", cfg)
	var status string
	daemontest.WaitFor(t, "a finished run", 60*time.Second, func() bool {
		status = statusBody(listen)
		return strings.Contains(status, `"outcome": "ok"`) || strings.Contains(status, `"outcome": "failed"`)
	})
	if code := d.Stop(t, syscall.SIGTERM, 2*time.Minute); code != 0 {
		t.Errorf("exit code after SIGTERM = %d", code)
	}
	entries, _ := filepath.Glob(filepath.Join(dir, "archive", "raw", "entries", "*", "*", "v1", "bagit.txt"))
	if !strings.Contains(status, `"outcome": "ok"`) || len(entries) != 4 {
		t.Fatalf("%d entries archived, status %s", len(entries), status)
	}
	secrets := []string{secretPassword, "ann:pw", base64.StdEncoding.EncodeToString([]byte("ann:" + secretPassword))}
	where := map[string]string{"the daemon log": d.Logs.String(), "/status": status}
	redacted := false
	for p, data := range archiveFiles(t, filepath.Join(dir, "archive")) {
		where[p] = string(data) + gunzipped(data) // the WARCs are gzipped
		redacted = redacted || strings.Contains(where[p], "Authorization: Basic [redacted]")
	}
	if !redacted {
		t.Error("no WARC records the requests' Authorization header, redacted")
	}
	for name, text := range where {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("%s holds %q", name, s)
			}
		}
	}
	if n := otherAuth.Load(); n != 0 {
		t.Errorf("the other origin got credentials %d times (of %d requests)", n, otherRequests.Load())
	}
	t.Logf("the other origin got %d requests, none with credentials", otherRequests.Load())
}

// TestCredentialsInURLRejected: a URL with user-info, in the config or on
// the command line, is a usage error that says where to put credentials
// and does not repeat the password; a missing password file is a config
// error naming the line, the blog and the key.
func TestCredentialsInURLRejected(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "", "https://ann:"+secretPassword+"@blog.example/", "")
	code, stdout, stderr := daemontest.Run(t, "crawl", "-config", cfg)
	if code != daemon.ExitUsage || !strings.Contains(stderr, "auth:") || strings.Contains(stdout+stderr, secretPassword) {
		t.Errorf("config with user-info: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = daemontest.Run(t, "crawl", "-url", "https://ann:"+secretPassword+"@blog.example/", "-out", dir)
	if code != daemon.ExitUsage || !strings.Contains(stderr, "-auth-user") || strings.Contains(stdout+stderr, secretPassword) {
		t.Errorf("-url with user-info: exit %d\n%s%s", code, stdout, stderr)
	}
	cfg = writeConfig(t, dir, "", "https://blog.example/", "    auth:\n      user: ann\n      password_file: "+filepath.Join(dir, "nope")+"\n")
	code, _, stderr = daemontest.Run(t, "crawl", "-config", cfg)
	if code != daemon.ExitUsage || !strings.Contains(stderr, "line 13: blog raw: auth.password_file: ") ||
		!strings.Contains(stderr, "does not exist") {
		t.Errorf("missing password file: exit %d\n%s", code, stderr)
	}
	cfg = writeConfig(t, dir, "", "https://blog.example/", "    auth: {user: ann}\n")
	code, _, stderr = daemontest.Run(t, "crawl", "-config", cfg)
	if code != daemon.ExitUsage || !strings.Contains(stderr, "blog raw: auth.password_file: missing") {
		t.Errorf("auth without password_file: exit %d\n%s", code, stderr)
	}
}

// TestStatusLastErrorHasNoLocalPath: a run that fails on a path inside the
// archive shows the path relative to the archive in /status, not the
// machine's absolute path; the log keeps the full text.
func TestStatusLastErrorHasNoLocalPath(t *testing.T) {
	t.Parallel()
	b := newRawBlog(2)
	srv := httptest.NewServer(b)
	defer srv.Close()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "archive"), 0o755)
	os.WriteFile(filepath.Join(dir, "archive", "raw"), []byte("in the way"), 0o644) // the blog's folder is a file
	listen := daemontest.FreeAddr(t)
	cfg := writeConfig(t, dir, listen, srv.URL+"/", "")
	d := daemontest.Start(t, "run", "-config", cfg)
	var status string
	daemontest.WaitFor(t, "a failed run", 60*time.Second, func() bool {
		status = statusBody(listen)
		return strings.Contains(status, `"outcome": "failed"`)
	})
	d.Stop(t, syscall.SIGTERM, 2*time.Minute)
	if !strings.Contains(status, "last_error") || strings.Contains(status, dir) || strings.Contains(status, "/tmp") {
		t.Errorf("/status shows a local path: %s", status)
	}
	if !strings.Contains(status, "{archive}/raw") {
		t.Errorf("/status does not say which archive path failed: %s", status)
	}
	if !strings.Contains(d.Logs.String(), filepath.Join(dir, "archive", "raw")) {
		t.Errorf("the log lacks the full path:\n%s", daemontest.LastLines(d.Logs.String(), 10))
	}
}

// gunzipped returns the text of data when it is gzip (every member), ""
// otherwise.
func gunzipped(data []byte) string {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return ""
	}
	b, _ := io.ReadAll(zr)
	return string(b)
}

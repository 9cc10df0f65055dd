package render_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/render"
)

// TestBrowserEnvironmentHasNoCredentials starts the real browser from a
// process whose environment holds an S3 archive's credentials and other
// secrets, as the daemon's does, and reads /proc/PID/environ of the
// browser and of every process under it: none holds a secret's name or
// value; the allowed variables (PATH) are there.
func TestBrowserEnvironmentHasNoCredentials(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("no chromium on PATH")
	}
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc")
	}
	const secret = "wJalrXUtnFEMI-K7MDENG-secret-3301"
	secrets := map[string]string{
		"AWS_SECRET_ACCESS_KEY":   secret,
		"AWS_SESSION_TOKEN":       secret + "-token",
		"AWS_ACCESS_KEY_ID":       "AKIA" + secret,
		"HTTPS_PROXY":             "http://u:" + secret + "@127.0.0.1:9",
		"BLOGHARVEST_TEST_SECRET": secret,
	}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	b, err := render.New(context.Background(), render.Options{Tabs: 1, Logger: quietLogger(), ProxyServer: "http://127.0.0.1:9"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	pid := b.PID()
	if pid == 0 {
		t.Fatal("no browser process")
	}
	tree := processTree(pid)
	if len(tree) == 0 {
		t.Fatalf("browser %d not in /proc", pid)
	}
	read := 0
	for _, p := range tree {
		env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", p.pid))
		if err != nil {
			continue // exited meanwhile
		}
		read++
		for _, kv := range bytes.Split(env, []byte{0}) {
			name, _, _ := strings.Cut(string(kv), "=")
			if _, bad := secrets[name]; bad || strings.Contains(string(kv), secret) {
				t.Errorf("process %d (%.60s) has %.40s… in its environment", p.pid, p.cmdline, kv)
			}
		}
		if p.pid == pid && !bytes.Contains(env, []byte("PATH=")) {
			t.Errorf("the browser's environment lacks PATH: %q", env)
		}
	}
	if read == 0 {
		t.Fatal("no environment of the browser's processes could be read")
	}
	if got := render.ChildEnv([]string{"PATH=/bin", "AWS_SECRET_ACCESS_KEY=x", "LC_ALL=C", "TZ=UTC", "GITHUB_TOKEN=y"}); strings.Join(got, " ") != "PATH=/bin LC_ALL=C TZ=UTC" {
		t.Errorf("ChildEnv = %q", got)
	}
}

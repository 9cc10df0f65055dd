package daemon_test

import (
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/daemon"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// TestCheckReportsOneEntryInTwoFolders: an archive where one post's bag
// also sits under entries/undated/ (as a re-read without its date once
// wrote it: two bags, one Internal-Sender-Identifier) is not ok for
// blogharvest check, which names both (issue 36, cause 3).
func TestCheckReportsOneEntryInTwoFolders(t *testing.T) {
	srv := httptest.NewServer(fixture.MustNew("static").Handler())
	defer srv.Close()
	out := t.TempDir()
	if code, stdout, stderr := daemontest.Run(t, "crawl", "-url", srv.URL+"/", "-out", out, "-delay", "1ms", "-render", "never"); code != 0 {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, stdout, stderr)
	}
	bags, _ := filepath.Glob(filepath.Join(out, "*", "entries", "[0-9]*", "*", "v1"))
	if len(bags) == 0 {
		t.Fatal("no dated entry AIP")
	}
	key := filepath.Base(filepath.Dir(bags[0]))
	twin := filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(bags[0]))), "undated", key)
	if b, err := exec.Command("mkdir", "-p", twin).CombinedOutput(); err != nil {
		t.Fatalf("mkdir: %v %s", err, b)
	}
	if b, err := exec.Command("cp", "-a", bags[0], twin).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, b)
	}
	code, stdout, _ := daemontest.Run(t, "check", out)
	if code != daemon.ExitFailure || !strings.Contains(stdout, "claim one identifier") || !strings.Contains(stdout, twin) {
		t.Errorf("check of one entry in two folders: exit %d\n%s", code, stdout)
	}
}

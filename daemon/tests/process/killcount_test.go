package process_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// entryBags counts the published entry AIPs of blog sample in archive.
func entryBags(archive string) int {
	m, _ := filepath.Glob(filepath.Join(archive, "sample", "entries", "*", "*", "v*", "bagit.txt"))
	return len(m)
}

// TestStatusCountsBagsOfKilledRun reproduces finding 10 of issue 23: a
// daemon killed mid-run has written entry AIPs its run never recorded.
// status (reading the state file, no daemon up) and the restarted daemon's
// /status must count the entries the archive holds, not 0.
func TestStatusCountsBagsOfKilledRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	t.Parallel()
	e := daemontest.NewEnv(t, "@every 1h")
	y, _ := os.ReadFile(e.Config)
	os.WriteFile(e.Config, []byte(strings.Replace(string(y), "delay: 1ms", "delay: 150ms", 1)), 0o644)
	d := daemontest.Start(t, "run", "-config", e.Config)
	daemontest.WaitFor(t, "three entry AIPs", 120*time.Second, func() bool { return entryBags(e.Archive) >= 3 })
	d.Stop(t, syscall.SIGKILL, 2*time.Minute)
	bags := entryBags(e.Archive)
	out, err := exec.Command(daemontest.Binary(), "status", "-config", e.Config, "-json").CombinedOutput()
	if err != nil {
		t.Fatalf("status: %v\n%s", err, out)
	}
	var st struct {
		Blogs []struct {
			Entries int `json:"entries_archived"`
		}
	}
	if err := json.Unmarshal(out, &st); err != nil || len(st.Blogs) != 1 {
		t.Fatalf("status -json: %v\n%s", err, out)
	}
	if st.Blogs[0].Entries != bags {
		t.Errorf("status after the kill: %d entries archived, the archive holds %d entry AIPs", st.Blogs[0].Entries, bags)
	}
	daemontest.Start(t, "run", "-config", e.Config)
	var live map[string]any
	daemontest.WaitFor(t, "the restarted daemon's status", 120*time.Second, func() bool { live = e.Status(t); return live != nil })
	if got := int(live["entries_archived"].(float64)); got < bags {
		t.Errorf("restarted daemon's /status: %d entries archived, the archive held %d at its start", got, bags)
	}
}

package daemon_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
	e := newEnv(t, "@every 1h")
	y, _ := os.ReadFile(e.config)
	os.WriteFile(e.config, []byte(strings.Replace(string(y), "delay: 1ms", "delay: 150ms", 1)), 0o644)
	d := start(t, "run", "-config", e.config)
	waitFor(t, "three entry AIPs", 120*time.Second, func() bool { return entryBags(e.archive) >= 3 })
	d.stop(t, syscall.SIGKILL, 10*time.Second)
	bags := entryBags(e.archive)
	out, err := exec.Command(binary, "status", "-config", e.config, "-json").CombinedOutput()
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
	start(t, "run", "-config", e.config)
	var live map[string]any
	waitFor(t, "the restarted daemon's status", 30*time.Second, func() bool { live = e.status(t); return live != nil })
	if got := int(live["entries_archived"].(float64)); got < bags {
		t.Errorf("restarted daemon's /status: %d entries archived, the archive held %d at its start", got, bags)
	}
}

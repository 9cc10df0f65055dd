package process_test

import (
	"bytes"
	bin "encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/schedule"
)

// damageState replaces a bbolt file by a damaged form of it (bbolt's
// layout, little-endian): truncated before the root bucket's page, empty,
// random bytes, or the root page's element count bit-flipped.
func damageState(t *testing.T, path, how string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	le := bin.LittleEndian
	ps := uint64(le.Uint32(data[16+8:]))
	root := le.Uint64(data[16+16:])
	if le.Uint64(data[ps+16+48:]) > le.Uint64(data[16+48:]) { // the newer meta page
		root = le.Uint64(data[ps+16+16:])
	}
	switch how {
	case "truncated":
		data = data[:root*ps]
	case "empty":
		data = nil
	case "garbage":
		r := rand.New(rand.NewPCG(3, 4))
		for i := range data {
			data[i] = byte(r.Uint32())
		}
	case "bit-flipped":
		data[root*ps+11] ^= 0x40
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedStateFile: on a damaged state file, `status` (read-only) says
// so and exits 1, leaving the file alone; the daemon sets it aside with one
// ERROR line naming both files, keeps running, and harvests the blog at once
// (its state is gone: every blog runs once).
func TestDamagedStateFile(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes and crawls a blog")
	}
	t.Parallel()
	for _, how := range []string{"truncated", "empty", "garbage", "bit-flipped"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			e := daemontest.NewEnv(t, "@every 24h")
			state := filepath.Join(e.Dir, "state", "schedule.db")
			writeState(t, state)
			damageState(t, state, how)
			damagedBytes, _ := os.ReadFile(state)

			out, err := exec.Command(daemontest.Binary(), "status", "-config", e.Config).CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "is damaged") ||
				!strings.Contains(string(out), "sets it aside") || strings.Contains(string(out), "goroutine") {
				t.Errorf("status: %v, output:\n%s\nwant exit 1 and the damage explained", err, out)
			}
			t.Logf("status: %s", out)
			if now, _ := os.ReadFile(state); !bytes.Equal(now, damagedBytes) {
				t.Error("status changed the state file")
			}

			d := daemontest.Start(t, "run", "-config", e.Config)
			daemontest.WaitFor(t, "every post and page archived", 90*time.Second, e.HasAll(t))
			select {
			case err := <-d.Done:
				t.Fatalf("daemon exited: %v", err)
			default:
			}
			asides, _ := filepath.Glob(state + ".corrupt-*")
			if len(asides) != 1 {
				t.Fatalf("set aside: %v, want one file", asides)
			}
			if got, _ := os.ReadFile(asides[0]); !bytes.Equal(got, damagedBytes) {
				t.Error("the set-aside file is not the damaged file")
			}
			var errLines []string
			for _, l := range strings.Split(d.Logs.String(), "\n") {
				if strings.Contains(l, `"level":"ERROR"`) {
					errLines = append(errLines, l)
				}
			}
			if len(errLines) != 1 || !strings.Contains(errLines[0], "state file damaged") ||
				!strings.Contains(errLines[0], state+`"`) || !strings.Contains(errLines[0], asides[0]) {
				t.Errorf("ERROR lines %q: want one naming %s and %s", errLines, state, asides[0])
			}
			t.Logf("%s", errLines)
			if code := d.Stop(t, syscall.SIGTERM, 2*time.Minute); code != 0 {
				t.Errorf("exit code after SIGTERM = %d, want 0", code)
			}
			daemontest.CheckArchive(t, e.Archive)
		})
	}
}

// writeState writes a sound state file in which blog "sample" ran a minute
// ago and is next due in a day: left alone, a daemon would not run it now.
func writeState(t *testing.T, path string) {
	t.Helper()
	s, err := schedule.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	st := schedule.State{Spec: "@every 24h", LastStart: now.Add(-2 * time.Minute), LastEnd: now.Add(-time.Minute),
		Outcome: schedule.OutcomeOK, NextDue: now.Add(24 * time.Hour), Runs: 1}
	if err := s.Put("sample", st); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

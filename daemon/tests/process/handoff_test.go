package process_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// handoffScript is the on_publish command of TestHandOff: while the
// file fail holds a number above 0 it counts it down and fails, printing
// its first argument (a made-up token) on standard error; else it
// appends its last argument (the bag) to received and its standard input
// (the log's line) to lines.
const handoffScript = `#!/bin/sh
dir=%q
n=$(cat "$dir/fail" 2>/dev/null || echo 0)
if [ "$n" -gt 0 ]; then
	echo $((n-1)) > "$dir/fail"
	echo "ingest refused $2 for $1" >&2
	exit 3
fi
cat >> "$dir/lines"
printf '%%s\n' "$2" >> "$dir/received"
`

// TestHandOff runs the real binary's daemon under umask 022 with an
// on_publish command that fails: every bag the harvest wrote has 0755
// folders and 0644 files; published lists each bag of the archive once;
// the command's failure is logged without the token it was given (nor
// printed); after a restart (no harvest due) the command, failing once
// more then succeeding after its backoff, has received every bag
// exactly once, with the log's line on its standard input.
func TestHandOff(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the daemon twice")
	}
	t.Parallel()
	e := daemontest.NewEnv(t, "@every 1h")
	hook := t.TempDir()
	script := filepath.Join(hook, "ingest.sh")
	if err := os.WriteFile(script, []byte(fmt.Sprintf(handoffScript, hook)), 0o755); err != nil {
		t.Fatal(err)
	}
	const token = "--token=sekrit-4711"
	cfg, _ := os.ReadFile(e.Config)
	cfg = append(cfg, []byte(fmt.Sprintf("on_publish: [%s, %q]\n", script, token))...)
	if err := os.WriteFile(e.Config, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(hook, "fail"), []byte("1000\n"), 0o644)
	daemon := func() *daemontest.Proc {
		cmd := exec.Command("sh", "-c", `umask 022; exec "$0" "$@"`, daemontest.Binary(), "run", "-config", e.Config)
		return daemontest.StartCmd(t, cmd, []string{"run", "-config", e.Config})
	}

	d := daemon()
	daemontest.WaitFor(t, "the harvest and a failed on_publish", 3*time.Minute, func() bool {
		return e.HasAll(t)() && strings.Contains(d.Logs.String(), "on_publish failed")
	})
	daemontest.WaitFor(t, "the harvest's end", time.Minute, func() bool { return strings.Contains(d.Logs.String(), "harvest finished") })
	if code := d.Stop(t, syscall.SIGTERM, time.Minute); code != 0 {
		t.Fatalf("first daemon: exit %d", code)
	}
	if strings.Contains(d.Logs.String(), "sekrit") {
		t.Errorf("the command's token was logged:\n%s", grepLines(d.Logs.String(), "sekrit"))
	}
	if !strings.Contains(d.Logs.String(), "[argument]") {
		t.Errorf("the command's error output is not logged (redacted):\n%s", grepLines(d.Logs.String(), "on_publish"))
	}
	if b, _ := os.ReadFile(filepath.Join(hook, "received")); len(b) > 0 {
		t.Fatalf("a failing command received bags:\n%s", b)
	}

	// modes under umask 022
	n := 0
	filepath.WalkDir(e.Archive, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Error(err)
			return err
		}
		info, _ := d.Info()
		want := fs.FileMode(0o644)
		if d.IsDir() {
			want = fs.ModeDir | 0o755
		}
		if p != e.Archive && info.Mode() != want {
			t.Errorf("%s: %v, want %v", strings.TrimPrefix(p, e.Archive), info.Mode(), want)
		}
		n++
		return nil
	})

	// published lists every bag once
	bags := daemontest.BagFolders(t, e.Archive)
	code, out, stderr := daemontest.Run(t, "published", e.Archive, "-paths")
	if code != 0 {
		t.Fatalf("published: exit %d\n%s", code, stderr)
	}
	listed := strings.Fields(out)
	if sorted := slices.Sorted(slices.Values(listed)); !slices.Equal(sorted, bags) {
		t.Fatalf("published -paths lists %d, the archive holds %d bags:\n%v\n%v", len(listed), len(bags), listed, bags)
	}
	t.Logf("%d paths checked for their modes; %d bags published", n, len(bags))

	os.WriteFile(filepath.Join(hook, "fail"), []byte("1\n"), 0o644)
	d = daemon()
	daemontest.WaitFor(t, "every bag handed off", 2*time.Minute, func() bool {
		b, _ := os.ReadFile(filepath.Join(hook, "received"))
		return strings.Count(string(b), "\n") >= len(bags)
	})
	if code := d.Stop(t, syscall.SIGTERM, time.Minute); code != 0 {
		t.Fatalf("second daemon: exit %d", code)
	}
	if strings.Contains(d.Logs.String(), `"msg":"harvest started"`) {
		t.Errorf("the restart harvested (the test wants the hand-off alone):\n%s", grepLines(d.Logs.String(), "harvest"))
	}
	if !strings.Contains(d.Logs.String(), "on_publish failed") {
		t.Errorf("the second daemon's first call did not fail (fail held 1)")
	}
	b, _ := os.ReadFile(filepath.Join(hook, "received"))
	got := strings.Fields(string(b))
	if !slices.Equal(got, listed) {
		t.Errorf("on_publish received %d bags, want each of the %d in the log's order, once:\n%v\n%v", len(got), len(listed), got, listed)
	}
	f, _ := os.Open(filepath.Join(hook, "lines"))
	defer f.Close()
	sc := bufio.NewScanner(f)
	for i := 0; sc.Scan(); i++ {
		var pub aip.Publication
		if err := json.Unmarshal(sc.Bytes(), &pub); err != nil || i >= len(got) || pub.Location != got[i] {
			t.Errorf("line %d on standard input: %s (%v), argument %v", i, sc.Bytes(), err, got[min(i, len(got)-1)])
		}
	}
}

// grepLines returns the lines of s holding sub.
func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

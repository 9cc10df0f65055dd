package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionOfClone clones this checkout's commit, builds the command in
// the clone as the README says to build from a clone (go build, with VCS
// stamping, which GOFLAGS may turn off), and checks that `version` prints
// the module version `go version -m` reads in the binary (the pseudo-version
// the go command derives from the commit) and the commit's revision, time and
// vcs.modified=false. A clone, not this checkout: go does not stamp a linked
// git worktree, whose .git is a file (golang/go#58218). The installed
// version (go install …@VERSION) is checked by .ci/goinstall.
func TestVersionOfClone(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the command in a clone")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git: ", err)
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	rev := strings.TrimSpace(string(head))
	clone := filepath.Join(t.TempDir(), "clone")
	if out, err := exec.Command("git", "clone", "--quiet", "--no-hardlinks", "../..", clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	if out, err := exec.Command("git", "-C", clone, "checkout", "--quiet", "--detach", rev).CombinedOutput(); err != nil {
		t.Fatalf("git checkout %s: %v\n%s", rev, err, out)
	}
	bin := filepath.Join(t.TempDir(), "blogharvest")
	// -trimpath and CGO_ENABLED=0 as in buildCommand: the packages compiled
	// for one build serve the other (without -trimpath every package of the
	// clone's own tree compiles again, its folder being another: minutes on
	// a busy machine); neither changes the stamp this test reads.
	build := exec.Command("go", "build", "-buildvcs=true", "-trimpath", "-o", bin, "./cmd/blogharvest")
	build.Dir = clone
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build in the clone: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	mods, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	var mod, vcsTime string
	for _, line := range strings.Split(string(mods), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 3 && f[0] == "mod":
			mod = f[2]
		case len(f) == 2 && f[0] == "build" && strings.HasPrefix(f[1], "vcs.time="):
			vcsTime = f[1]
		}
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		t.Fatalf("version printed %d lines, want 2:\n%s", len(lines), out)
	}
	if lines[0] != "blogharvest "+mod || !strings.HasPrefix(mod, "v") {
		t.Errorf("version printed %q; go version -m reads the module version %q", lines[0], mod)
	}
	if !strings.Contains(mod, rev[:12]) {
		tags, _ := exec.Command("git", "-C", clone, "tag", "--points-at", rev).Output()
		if !strings.Contains("\n"+string(tags), "\n"+mod+"\n") {
			t.Errorf("module version %q names neither the commit %s nor a tag of it", mod, rev[:12])
		}
	}
	for _, want := range []string{"vcs.revision=" + rev, vcsTime, "vcs.modified=false"} {
		if want == "" || !strings.Contains(lines[1], want) {
			t.Errorf("version's second line %q lacks %q", lines[1], want)
		}
	}
	t.Logf("%s", out)
}

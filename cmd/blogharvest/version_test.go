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
// vcs.modified=false. This checkout when it is a clone with nothing
// changed (the build then shares every compiled package with
// buildCommand's: a build in another folder compiles the module's own
// packages again, minutes on a busy machine); else a clone of its commit:
// go does not stamp a linked git worktree, whose .git is a file
// (golang/go#58218), and a changed file would say vcs.modified=true. The installed
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
	bin := filepath.Join(t.TempDir(), "blogharvest")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, "./cmd/blogharvest")
	// Built as go test built this package (not CGO_ENABLED=0), so that
	// only the command is compiled: see buildCommand.
	build.Dir = "../.."
	clone := build.Dir
	if !cleanCheckout(t, build.Dir) {
		clone = filepath.Join(t.TempDir(), "clone")
		if out, err := exec.Command("git", "clone", "--quiet", "--no-hardlinks", "../..", clone).CombinedOutput(); err != nil {
			t.Fatalf("git clone: %v\n%s", err, out)
		}
		if out, err := exec.Command("git", "-C", clone, "checkout", "--quiet", "--detach", rev).CombinedOutput(); err != nil {
			t.Fatalf("git checkout %s: %v\n%s", rev, err, out)
		}
		build.Dir = clone
	}
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build in %s: %v\n%s", build.Dir, err, out)
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

// cleanCheckout reports whether dir is the top of a git clone (its .git a
// folder, not a linked worktree's file) with nothing changed or untracked
// but what .gitignore names.
func cleanCheckout(t *testing.T, dir string) bool {
	t.Helper()
	if fi, err := os.Stat(filepath.Join(dir, ".git")); err != nil || !fi.IsDir() {
		return false
	}
	out, err := exec.Command("git", "-C", dir, "status", "--porcelain").Output()
	return err == nil && len(strings.TrimSpace(string(out))) == 0
}

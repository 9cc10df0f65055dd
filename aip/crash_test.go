package aip_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/schemas"
)

// crashEnv names the archive a re-executed test binary writes into until
// it is killed.
const crashEnv = "BLOGHARVEST_AIP_CRASH_ROOT"

// The child prints readyLine once it starts writing and wroteLine after
// each AIP.
const (
	readyLine = "crash-child-ready"
	wroteLine = "crash-child-wrote"
)

// TestCrashChild is the child of TestCrash: it sweeps the archive, as the
// daemon does at start, then writes AIPs (new entries and new versions of
// old ones) until it is killed. It does nothing in a normal test run.
func TestCrashChild(t *testing.T) {
	root := os.Getenv(crashEnv)
	if root == "" {
		t.Skip("only run as TestCrash's child")
	}
	if err := aip.Sweep(root); err != nil {
		t.Fatal(err)
	}
	schemas.Validate(nil) // compile the schemas before saying ready
	fmt.Println(readyLine)
	w := &aip.Writer{Root: root, Organization: "Example Library", Software: "blogharvest 0.1.0"}
	seed := uint64(time.Now().UnixNano())
	r := rand.New(rand.NewPCG(seed, seed))
	for i := 0; ; i++ {
		e := fixtureEntry()
		e.URL = fmt.Sprintf("%spart-%d/", e.URL, r.IntN(6))
		for j := range r.IntN(4) {
			e.Comments = append(e.Comments, blogharvest.Comment{ID: fmt.Sprintf("extra-%d", j), Content: fmt.Sprint(seed, i)})
		}
		big := strings.Repeat("pixel ", 1000+r.IntN(5000))
		e.Files = append(e.Files, file(e.URL+"big.png", blogharvest.RoleMedia, "image/png", big, 200))
		if _, err := w.WriteEntry(context.Background(), e); err != nil {
			t.Fatal(err)
		}
		fmt.Println(wroteLine)
	}
}

// TestCrash kills writing children with SIGKILL at random moments, many
// times (three archives in parallel, about three seconds in all), and checks
// after each kill that every AIP in the archive is complete and valid and
// that nothing partial exists outside .tmp.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	deadline := time.Now().Add(3 * time.Second)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var kills, interrupted, bags int
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			root := t.TempDir()
			k, i := crashLoop(t, root, deadline)
			n := len(completeBags(t, root))
			for _, err := range aip.Check(root) {
				t.Errorf("final check: %v", err)
			}
			if err := aip.Sweep(root); err != nil || countEntries(filepath.Join(root, aip.TmpDir)) != 0 {
				t.Errorf("Sweep: %v, leftovers remain", err)
			}
			mu.Lock()
			kills, interrupted, bags = kills+k, interrupted+i, bags+n
			mu.Unlock()
		}()
	}
	wg.Wait()
	t.Logf("%d kills, %d of them in the middle of a bag; %d complete AIPs", kills, interrupted, bags)
	if bags == 0 || kills < 3 {
		t.Error("too few kills or AIPs to test anything")
	}
}

// crashLoop starts and kills children writing into root until deadline,
// checking the archive after each kill. It returns the number of kills and
// of kills that interrupted a bag under construction.
func crashLoop(t *testing.T, root string, deadline time.Time) (kills, interrupted int) {
	checked := map[string]bool{} // bags are immutable: each is checked once here, all again at the end
	for ; time.Now().Before(deadline); kills++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
		cmd.Env = append(os.Environ(), crashEnv+"="+root)
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Error(err)
			return
		}
		// Kill at a random moment of the second write, whatever the
		// machine's speed (or -race) makes a write last.
		sc := bufio.NewScanner(out)
		waitFor(sc, readyLine)
		start := time.Now()
		waitFor(sc, wroteLine)
		time.Sleep(time.Duration(rand.Int64N(int64(time.Since(start)) + 1)))
		cmd.Process.Signal(syscall.SIGKILL)
		go io.Copy(io.Discard, out)
		cmd.Wait()
		if countEntries(filepath.Join(root, aip.TmpDir)) > 0 {
			interrupted++
		}
		for _, bag := range completeBags(t, root) {
			if checked[bag] {
				continue
			}
			checked[bag] = true
			if errs := aip.Check(bag); len(errs) > 0 {
				t.Errorf("after kill %d: %d problems, first: %v", kills+1, len(errs), errs[0])
				return
			}
		}
	}
	return kills, interrupted
}

// completeBags returns the v<N> folders of root and fails the test for
// any that lacks bagit.txt and for any file outside .tmp not inside a bag.
func completeBags(t *testing.T, root string) []string {
	var bags []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == aip.TmpDir:
			return filepath.SkipDir
		case d.IsDir() && strings.HasPrefix(d.Name(), "v"):
			if _, err := os.Stat(filepath.Join(p, "bagit.txt")); err != nil {
				t.Errorf("partial version %s", p)
			}
			bags = append(bags, p)
			return filepath.SkipDir
		case !d.IsDir():
			t.Errorf("stray file outside any bag: %s", p)
		}
		return nil
	})
	return bags
}

// waitFor reads lines until one equals want, or the end.
func waitFor(sc *bufio.Scanner, want string) {
	for sc.Scan() && sc.Text() != want {
	}
}

func countEntries(dir string) int {
	ents, _ := os.ReadDir(dir)
	return len(ents)
}

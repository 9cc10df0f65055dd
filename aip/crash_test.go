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
// it is killed; crashPauseEnv, set to 1, makes it wait for a line on stdin
// each time it reports a bag half written.
const (
	crashEnv      = "BLOGHARVEST_AIP_CRASH_ROOT"
	crashPauseEnv = "BLOGHARVEST_AIP_CRASH_PAUSE"
)

// The child prints readyLine once it holds the archive and has swept it,
// then for each bag N it writes, once in the middle of writing it (after
// a file written into .tmp, or right before the rename):
//
//	bag N half written <Blog|Entry> <version folder>
//
// and, once it is published:
//
//	bag N wrote <version folder>
const readyLine = "crash-child-ready"

// The numbers TestCrash must reach: kills in all, kills inside a bag
// write, and of those inside a Blog and inside an Entry AIP.
const (
	wantKills      = 50
	wantInside     = 25
	wantInsideKind = 5
	// crashTimeBudget only bounds a hung test: the loop stops as soon as the
	// counts are met (about 15 s alone, 45 s under -race at load 2). At load
	// 20 on two cores 80 s gave 28 kills, so a time budget near the usual
	// run time would make the test fail for the machine's load, not the code.
	crashTimeBudget = 12 * time.Minute
)

// crashChild is the state of TestCrashChild's progress reports.
type crashChild struct {
	pause  bool
	in     *bufio.Reader
	n      int    // the bag being written
	kind   string // its kind
	events int    // hook calls so far for this bag
	at     int    // the hook call at which it reports itself half written
}

// hook is the Writer's test hook: it reports the bag half written at the
// chosen event and, when pausing, waits for the parent's go-ahead.
func (c *crashChild) hook(final, event string) {
	c.events++
	if c.events != c.at {
		return
	}
	fmt.Printf("bag %d half written %s %s\n", c.n, c.kind, final)
	if c.pause {
		c.in.ReadString('\n')
	}
}

// TestCrashChild is the child of TestCrash: it locks and sweeps the
// archive, as the daemon does at start, then writes Blog and Entry AIPs
// (new entries and new versions of old ones) until it is killed, reporting
// its progress inside each bag. It does nothing in a normal test run.
func TestCrashChild(t *testing.T) {
	root := os.Getenv(crashEnv)
	if root == "" {
		t.Skip("only run as TestCrash's child")
	}
	lock, err := aip.LockArchive(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := aip.Sweep(lock); err != nil {
		t.Fatal(err)
	}
	writeUntilKilled(t, &aip.Writer{Root: root, Lock: lock, Organization: "Example Library", Software: "blogharvest 0.1.0"})
}

// writeUntilKilled says the child is ready, then writes Blog and Entry
// AIPs with w, new entries and new versions, reporting its progress inside
// each bag (crashChild), until the process is killed.
func writeUntilKilled(t *testing.T, w *aip.Writer) {
	schemas.Validate(nil) // compile the schemas before saying ready
	// No PRONOM identification in the children: loading siegfried's
	// signatures costs each child 0.1 s (0.7 s under -race on a loaded
	// machine), which the kill budget cannot afford; it writes nothing.
	aip.SetIdentifyFormats(false)
	fmt.Println(readyLine)
	c := &crashChild{pause: os.Getenv(crashPauseEnv) == "1", in: bufio.NewReader(os.Stdin)}
	aip.SetTestHook(c.hook)
	writeBags(t, c, w)
}

// writeBags writes Blog and Entry AIPs with w for ever.
func writeBags(t *testing.T, c *crashChild, w *aip.Writer) {
	var err error
	seed := uint64(time.Now().UnixNano())
	r := rand.New(rand.NewPCG(seed, seed))
	for i := 0; ; i++ {
		c.n, c.events, c.at = i, 0, 1+r.IntN(13) // an Entry has 15 events, a Blog 13
		var res aip.Result
		if r.IntN(3) == 0 {
			c.kind = "Blog"
			b := fixtureBlog()
			b.Subtitle = fmt.Sprint("version ", seed, i)
			res, err = w.WriteBlog(context.Background(), b)
		} else {
			c.kind = "Entry"
			res, err = w.WriteEntry(context.Background(), crashEntry(r, seed, i))
		}
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("bag %d wrote %s\n", i, res.Dir)
	}
}

// crashEntry returns one of six entries, with new comments (a new version
// when it exists) and a medium-sized media file.
func crashEntry(r *rand.Rand, seed uint64, i int) *blogharvest.Entry {
	e := fixtureEntry()
	e.URL = fmt.Sprintf("%spart-%d/", e.URL, r.IntN(6))
	for j := range 1 + r.IntN(3) {
		e.Comments = append(e.Comments, blogharvest.Comment{ID: fmt.Sprintf("extra-%d", j), Content: fmt.Sprint(seed, i)})
	}
	big := strings.Repeat("pixel ", 1000+r.IntN(5000))
	e.Files = append(e.Files, file(e.URL+"big.png", blogharvest.RoleMedia, "image/png", big, 200))
	return e
}

// crashCount counts TestCrash's kills.
type crashCount struct {
	mu                                     sync.Mutex
	kills, inside, insideBlog, insideEntry int
}

func (c *crashCount) enough() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.kills >= wantKills+5 && c.inside >= wantInside+3 &&
		c.insideBlog >= wantInsideKind+2 && c.insideEntry >= wantInsideKind+2
}

func (c *crashCount) add(inside bool, kind string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.kills++
	if inside {
		c.inside++
		if kind == "Blog" {
			c.insideBlog++
		} else {
			c.insideEntry++
		}
	}
}

// TestCrash kills writing children with SIGKILL, timed by their own
// progress reports: most right after a child reports a bag half written
// (it waits there for the go-ahead, so the kill lands inside the bag), some
// at a random moment. Three archives are written in parallel. After each
// kill the lock is free again, nothing partial is published (the bag
// reported half written does not exist), every published bag passes
// aip.Check, and the next child's start sweeps .tmp. The test fails if too
// few kills hit a write, of Blog and of Entry AIPs.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	deadline := time.Now().Add(crashTimeBudget)
	var count crashCount
	var wg sync.WaitGroup
	var bags sync.Map
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			root := t.TempDir()
			crashLoop(t, root, deadline, &count)
			finalCheck(t, root)
			bags.Store(root, len(completeBags(t, root)))
		}()
	}
	wg.Wait()
	n := 0
	bags.Range(func(_, v any) bool { n += v.(int); return true })
	t.Logf("%d kills, %d inside a bag write (%d Blog, %d Entry); %d complete AIPs",
		count.kills, count.inside, count.insideBlog, count.insideEntry, n)
	if count.kills < wantKills || count.inside < wantInside || count.insideBlog < wantInsideKind ||
		count.insideEntry < wantInsideKind || n == 0 {
		t.Errorf("too few kills inside writes: want ≥ %d kills, ≥ %d inside a bag, ≥ %d each inside Blog and Entry AIPs",
			wantKills, wantInside, wantInsideKind)
	}
}

// crashLoop starts and kills children writing into root until count has
// enough or the deadline passes, checking the archive after each kill.
func crashLoop(t *testing.T, root string, deadline time.Time, count *crashCount) {
	checked := map[string]bool{} // bags are immutable: each is checked once here, all again at the end
	for time.Now().Before(deadline) && !count.enough() && !t.Failed() {
		last, inside, kind := killChild(t, root, rand.IntN(4) != 0)
		if inside {
			final := strings.Fields(last)[5]
			if _, err := os.Lstat(final); err == nil {
				t.Errorf("killed while %s was half written, yet it is published", final)
			}
		}
		count.add(inside, kind)
		l, err := aip.LockArchive(root)
		if err != nil {
			t.Errorf("the lock is not free after kill -9: %v", err)
			return
		}
		l.Close()
		for _, bag := range completeBags(t, root) {
			if checked[bag] {
				continue
			}
			checked[bag] = true
			if errs := aip.Check(bag); len(errs) > 0 {
				t.Errorf("after a kill: %s: %d problems, first: %v", bag, len(errs), errs[0])
			}
		}
	}
}

// killChild starts a child on root and kills it: when pausing, at its
// 1st to 3rd report of a bag half written; else at a random moment of its
// second bag. It returns the last line the child printed, whether the kill
// landed inside a bag write (that line reports a bag half written and the
// bag is not published) and that bag's kind.
func killChild(t *testing.T, root string, pause bool) (last string, inside bool, kind string) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
	cmd.Env = append(os.Environ(), crashEnv+"="+root, fmt.Sprintf("%s=%d", crashPauseEnv, map[bool]int{true: 1}[pause]))
	stdin, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		io.Copy(io.Discard, out)
	}()
	left, _ := os.ReadDir(filepath.Join(root, aip.TmpDir)) // what the last kill left
	for l := range lines {
		if l == readyLine {
			break
		}
	}
	for _, d := range left {
		if _, err := os.Lstat(filepath.Join(root, aip.TmpDir, d.Name())); err == nil {
			t.Errorf("the restarted writer did not sweep .tmp: %s left", d.Name())
		}
	}
	if pause {
		last = killAtHalf(cmd, stdin, lines, 1+rand.IntN(3))
	} else {
		last = killAtRandom(cmd, lines)
	}
	for l := range lines { // what the child printed before it died
		last = l
	}
	cmd.Wait()
	if f := strings.Fields(last); len(f) == 6 && f[2] == "half" {
		_, err := os.Lstat(f[5])
		return last, err != nil, f[4]
	}
	return last, false, ""
}

// killAtHalf lets the child go on at each bag half written until the
// target-th, and kills it there, while it waits.
func killAtHalf(cmd *exec.Cmd, stdin io.Writer, lines <-chan string, target int) string {
	var last string
	for l := range lines {
		last = l
		if !strings.Contains(l, " half written ") {
			continue
		}
		if target--; target == 0 {
			cmd.Process.Signal(syscall.SIGKILL)
			break
		}
		io.WriteString(stdin, "go\n")
	}
	return last
}

// killAtRandom kills the child at a random moment of its second bag,
// whatever the machine's speed (or -race) makes a write last.
func killAtRandom(cmd *exec.Cmd, lines <-chan string) string {
	start := time.Now()
	var last string
	for l := range lines {
		last = l
		if strings.Contains(l, " wrote ") {
			break
		}
	}
	time.Sleep(time.Duration(rand.Int64N(int64(time.Since(start)) + 1)))
	cmd.Process.Signal(syscall.SIGKILL)
	return last
}

// finalCheck checks the whole archive, then sweeps it and expects .tmp
// empty.
func finalCheck(t *testing.T, root string) {
	for _, err := range aip.Check(root) {
		t.Errorf("final check: %v", err)
	}
	l, err := aip.LockArchive(root)
	if err != nil {
		t.Error(err)
		return
	}
	defer l.Close()
	if err := aip.Sweep(l); err != nil || countEntries(filepath.Join(root, aip.TmpDir)) != 0 {
		t.Errorf("Sweep: %v, leftovers remain", err)
	}
}

// completeBags returns the v<N> folders of root and fails the test for
// any that lacks bagit.txt and for any file outside .tmp not inside a bag
// (the archive's lock file aside).
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
		case p == filepath.Join(root, aip.LockFile):
		case !d.IsDir():
			t.Errorf("stray file outside any bag: %s", p)
		}
		return nil
	})
	return bags
}

func countEntries(dir string) int {
	ents, _ := os.ReadDir(dir)
	return len(ents)
}

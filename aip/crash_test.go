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
	"github.com/blogharvest/blogharvest/aip/s3store"
	"github.com/blogharvest/blogharvest/schemas"
)

// crashEnv names the archive folder, crashS3Env the S3 archive
// (s3://bucket/prefix, the server's endpoint and credentials in the
// environment, s3store.FromEnv), a re-executed test binary writes into
// until it is killed; crashPauseEnv, set to 1, makes it wait for a line on
// stdin each time it reports a bag half written.
const (
	crashEnv      = "BLOGHARVEST_AIP_CRASH_ROOT"
	crashS3Env    = "BLOGHARVEST_AIP_CRASH_S3"
	crashPauseEnv = "BLOGHARVEST_AIP_CRASH_PAUSE"
)

// The child prints readyLine once it holds the archive and has swept it,
// then for each bag N it writes, once in the middle of writing it (after
// a file written into .tmp or staged, or right before the rename or the
// marker):
//
//	bag N half written <Blog|Entry> <version folder>
//
// or, inside a Batch's flush (between its "flush" and "flushed" hook
// events: the bags' renames, their records written, renamed), at a
// quarter of the flush's events,
//
//	bag N half written Entry <version folder> flush
//
// and, once it is published:
//
//	bag N wrote <version folder>
const readyLine = "crash-child-ready"

// The numbers TestCrash must reach on each backend: kills in all, kills
// inside a bag write, and of those inside a Blog and inside an Entry AIP.
const (
	wantKills      = 50
	wantInside     = 25
	wantInsideKind = 5
	wantFlush      = 5 // kills inside a Batch's flush
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
	flush  bool   // inside a Batch's flush
	r      *rand.Rand
}

// hook is the Writer's test hook: it reports the bag half written at the
// chosen event and, when pausing, waits for the parent's go-ahead.
func (c *crashChild) hook(final, event string) {
	switch event {
	case "flush":
		c.flush = true
	case "flushed":
		c.flush = false
	}
	if c.flush || event == "flushed" {
		if c.r.IntN(4) != 0 {
			return
		}
		fmt.Printf("bag %d half written Entry %s flush\n", c.n, final)
	} else {
		if c.events++; c.events != c.at {
			return
		}
		fmt.Printf("bag %d half written %s %s\n", c.n, c.kind, final)
	}
	if c.pause {
		c.in.ReadString('\n')
	}
}

// TestCrashChild is the child of TestCrash: it takes the archive as the
// daemon does at start (a folder: locks and sweeps it; S3: sweeps every
// unpublished staged object, being the prefix's only writer), then writes
// Blog and Entry AIPs (new entries and new versions of old ones) until it
// is killed, reporting its progress inside each bag. It does nothing in a
// normal test run.
func TestCrashChild(t *testing.T) {
	w := &aip.Writer{Organization: "Example Library", Software: "blogharvest 0.1.0"}
	switch root, archive := os.Getenv(crashEnv), os.Getenv(crashS3Env); {
	case root != "":
		lock, err := aip.LockArchive(root)
		if err != nil {
			t.Fatal(err)
		}
		if err := aip.Sweep(lock); err != nil {
			t.Fatal(err)
		}
		w.Root, w.Lock = root, lock
	case archive != "":
		cfg, err := s3store.FromEnv(archive, "")
		if err != nil {
			t.Fatal(err)
		}
		st, err := s3store.New(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Sweep(context.Background(), 0); err != nil {
			t.Fatal(err)
		}
		w.Store = st
	default:
		t.Skip("only run as TestCrash's child")
	}
	writeUntilKilled(t, w)
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
	c := &crashChild{pause: os.Getenv(crashPauseEnv) == "1", in: bufio.NewReader(os.Stdin), r: rand.New(rand.NewPCG(rand.Uint64(), 0))}
	aip.SetTestHook(c.hook)
	writeBags(t, c, w)
}

// writeBags writes Blog and Entry AIPs with w for ever. Half the
// children write their entries through a Batch of up to three bags (a
// group commit): a bag is reported written from the flush's report, and
// a Blog AIP is written after a flush, as the daemon writes them.
func writeBags(t *testing.T, c *crashChild, w *aip.Writer) {
	var err error
	seed := uint64(time.Now().UnixNano())
	r := rand.New(rand.NewPCG(seed, seed))
	var b *aip.Batch
	if r.IntN(2) == 0 {
		b = w.NewBatch(1+r.IntN(3), time.Hour, func(p aip.Published) {
			if p.Err != nil {
				t.Fatal(p.Err)
			}
			fmt.Printf("bag %s wrote %s\n", p.Entry.Subtitle, p.Result.Dir)
		})
	}
	for i := 0; ; i++ {
		c.n, c.events, c.at = i, 0, 1+r.IntN(13) // an Entry has 15 events, a Blog 13
		var res aip.Result
		if r.IntN(3) == 0 {
			c.kind = "Blog"
			if b != nil {
				if err := b.Flush(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			bl := fixtureBlog()
			bl.Subtitle = fmt.Sprint("version ", seed, i)
			res, err = w.WriteBlog(context.Background(), bl)
		} else {
			c.kind = "Entry"
			e := crashEntry(r, seed, i)
			if b == nil {
				res, err = w.WriteEntry(context.Background(), e)
			} else {
				e.Subtitle = fmt.Sprint(i) // the bag's number, for its report
				res, err = b.WriteEntry(context.Background(), e)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		if !res.Pending {
			fmt.Printf("bag %d wrote %s\n", i, res.Dir)
		}
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
	flush                                  int // kills inside a Batch's flush (inside a bag write or not)
}

func (c *crashCount) enough() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.kills >= wantKills+5 && c.inside >= wantInside+3 &&
		c.insideBlog >= wantInsideKind+2 && c.insideEntry >= wantInsideKind+2 && c.flush >= wantFlush+2
}

func (c *crashCount) add(inside, flush bool, kind string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.kills++
	if flush {
		c.flush++
	}
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
// at a random moment. Three archives of each backend are written in
// parallel. After each kill nothing partial is published (the bag
// reported half written does not exist, read afresh), the next child's
// start sweeps what the killed one left, and for a folder the lock is free
// again and every new bag passes Check; at the end the archive checks
// clean and a sweep leaves nothing that is not part of a published bag.
// The test fails if too few kills hit a write, of Blog and of Entry AIPs.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	for _, b := range backendNames {
		t.Run(b, func(t *testing.T) {
			deadline := time.Now().Add(crashTimeBudget)
			var count crashCount
			var wg sync.WaitGroup
			archives := make([]*testArchive, 3)
			for i := range archives {
				archives[i] = openArchive(t, b)
				wg.Add(1)
				go func() {
					defer wg.Done()
					crashLoop(t, archives[i], deadline, &count)
				}()
			}
			wg.Wait()
			versions := 0
			for _, a := range archives {
				versions += finalCheck(t, a)
			}
			t.Logf("%d kills, %d inside a bag write (%d Blog, %d Entry), %d inside a batch's flush; %d complete AIPs",
				count.kills, count.inside, count.insideBlog, count.insideEntry, count.flush, versions)
			if count.kills < wantKills || count.inside < wantInside || count.insideBlog < wantInsideKind ||
				count.insideEntry < wantInsideKind || count.flush < wantFlush || versions == 0 {
				t.Errorf("too few kills inside writes: want ≥ %d kills, ≥ %d inside a bag, ≥ %d each inside Blog and Entry AIPs, ≥ %d inside a flush",
					wantKills, wantInside, wantInsideKind, wantFlush)
			}
		})
	}
}

// crashLoop starts and kills children writing into a until count has
// enough or the deadline passes, checking the archive after each kill.
func crashLoop(t *testing.T, a *testArchive, deadline time.Time, count *crashCount) {
	checked := map[string]bool{} // bags are immutable: each is checked once here, all again at the end
	for time.Now().Before(deadline) && !count.enough() && !t.Failed() {
		_, inside, flush, kind := killChild(t, a, rand.IntN(4) != 0)
		count.add(inside, flush, kind)
		if a.backend != "local" {
			continue // S3 has no lock, and the final CheckStore reads every bag
		}
		l, err := aip.LockArchive(a.root)
		if err != nil {
			t.Errorf("the lock is not free after kill -9: %v", err)
			return
		}
		l.Close()
		for _, bag := range completeBags(t, a.root) {
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

// killChild starts a child on a and kills it: when pausing, at its 1st to
// 3rd report of a bag half written; else at a random moment of its second
// bag. It returns the last line the child printed, whether the kill landed
// inside a bag write (that line reports a bag half written and the bag is
// not published), whether it landed inside a Batch's flush (that line
// says so), and that bag's kind.
func killChild(t *testing.T, a *testArchive, pause bool) (last string, inside, flush bool, kind string) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", crashPauseEnv, map[bool]int{true: 1}[pause]))
	if a.backend == "local" {
		cmd.Env = append(cmd.Env, crashEnv+"="+a.root)
	} else {
		cmd.Env = append(append(cmd.Env, a.srv.Env()...), crashS3Env+"="+a.St.String())
	}
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	// What the last kill left, listed before this child starts: its sweep
	// must take all of it. Listed after the start, a write the killed
	// child had sent could land there between the new child's sweep and
	// the listing (an S3 server finishes a request whose client died),
	// and be counted as not swept.
	left := a.leftovers(t)
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
	for l := range lines {
		if l == readyLine {
			break
		}
	}
	now := map[string]bool{}
	for _, n := range a.leftovers(t) {
		now[n] = true
	}
	for _, n := range left {
		if now[n] {
			t.Errorf("the restarted writer did not sweep what the killed one left: %s", n)
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
	if f := strings.Fields(last); (len(f) == 6 || len(f) == 7) && f[2] == "half" {
		flush = len(f) == 7
		if a.published(t, f[5]) {
			return last, false, flush, "" // killed after the rename or the marker
		}
		return last, true, flush, f[4]
	}
	return last, false, false, ""
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

// finalCheck checks the whole archive, then sweeps it (grace 0: no
// writer is left) and expects nothing left but published bags. It returns
// the number of published versions.
func finalCheck(t *testing.T, a *testArchive) int {
	var versions int
	var errs []error
	if a.backend == "local" {
		errs, versions = aip.Check(a.root), len(completeBags(t, a.root)) // the folder's authority, links included
	} else {
		var tally aip.Tally
		tally, errs = aip.CheckStore(a.ctx, a.St, nil)
		versions = tally.BlogVersions + tally.EntryVersions
	}
	for _, err := range errs {
		t.Errorf("final check: %v", err)
	}
	// One record per bag at most, and the bags a kill left unannounced
	// (after their rename, before their record) found and announced.
	recs, err := aip.Publications(a.ctx, a.St, aip.PublicationFilter{})
	if err != nil {
		t.Errorf("publication log: %v", err)
	}
	seen := map[string]bool{}
	for _, r := range recs {
		if seen[r.Path] {
			t.Errorf("two records of %s", r.Path)
		}
		seen[r.Path] = true
	}
	missing, err := aip.Unannounced(a.ctx, a.St)
	for _, m := range missing {
		if _, err := aip.Announce(a.ctx, a.St, m); err != nil {
			t.Errorf("announce %s: %v", m, err)
		}
	}
	if again, err2 := aip.Unannounced(a.ctx, a.St); err != nil || err2 != nil || len(again) != 0 {
		t.Errorf("unannounced after repair: %v (%v, %v)", again, err, err2)
	}
	t.Logf("%d bags announced, %d left unannounced by the kills", len(recs), len(missing))
	if a.backend == "local" {
		var l *aip.ArchiveLock
		if l, err = aip.LockArchive(a.root); err == nil {
			err = aip.Sweep(l)
			l.Close()
		}
	} else {
		_, err = a.s3.Sweep(a.ctx, 0)
	}
	if left := a.leftovers(t); err != nil || len(left) != 0 {
		t.Errorf("sweep: %v; %d leftovers remain", err, len(left))
	}
	return versions
}

// completeBags returns the v<N> folders of root and fails the test for
// any that lacks bagit.txt, for any file outside .tmp not inside a bag
// (the archive's lock file and the publication log aside), and for a
// line of the publication log naming a bag that is not there (a bag is
// announced after it is published, never before).
func completeBags(t *testing.T, root string) []string {
	var bags []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == aip.TmpDir:
			return filepath.SkipDir
		case d.IsDir() && p == filepath.Join(root, aip.PublicationsDir):
			recs, err := aip.Publications(context.Background(), &aip.Local{Root: root}, aip.PublicationFilter{})
			if err != nil {
				t.Errorf("publication log: %v", err)
			}
			for _, r := range recs {
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(r.Path), "bagit.txt")); err != nil {
					t.Errorf("announced before it was published: %s", r.Path)
				}
			}
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

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/internal/lazyregexp"
	"github.com/blogharvest/blogharvest/schedule"
	"golang.org/x/sys/unix"
)

// buildCommand builds this command into a temporary folder and returns
// the executable's path. A benchmark builds it as the README says to
// (`CGO_ENABLED=0 go build`: a static executable; cgo would link it
// against libc, whose and ld.so's pages add about 1.8 MB to every
// command's max RSS). A test builds it as `go test` built this package, so
// that every package it links comes from the build cache and only the
// command is compiled and linked: a static build on a fresh machine
// compiles the whole dependency graph again (every package importing net
// is another package without cgo): this package's tests took 600.1 s,
// against `go test ./...`'s 10-minute default, in a .ci/run on a fresh,
// busy two-core machine. What the tests
// read (the modules linked, the inits' allocations, the version stamp)
// does not depend on cgo.
func buildCommand(tb testing.TB) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "blogharvest")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if _, bench := tb.(*testing.B); bench {
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// initLine is one line of GODEBUG=inittrace=1: a package's init, its clock
// time, the bytes and the allocations it made.
var initLine = regexp.MustCompile(`(?m)^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)

// ours are the packages whose init this project controls; copies are its
// generated copies of third-party packages (internal/copies,
// doc/dependencies.md), whose inits are upstream's but for what their
// patches make lazy. gonum plot is upstream's: its init parses the twelve
// Liberation fonts (0.18 MB of allocations), bounded by perPackage like any
// dependency's.
var (
	ours   = []string{"github.com/blogharvest/blogharvest"}
	copies = []string{"github.com/blogharvest/blogharvest/internal/dateparser",
		"github.com/blogharvest/blogharvest/internal/match", "github.com/blogharvest/blogharvest/internal/siegfried",
		"github.com/blogharvest/blogharvest/internal/xnet"}
)

// notLinked are modules the command must not link, each with why: their
// packages' inits (and the code pages around them) cost every command's
// start-up for a feature that has a lighter way.
var notLinked = map[string]string{
	"github.com/prometheus/client_golang": "its registry brings protobuf and 20 packages with init work " +
		"(2.4 MB of max RSS of `version`); /metrics uses github.com/VictoriaMetrics/metrics",
	"google.golang.org/protobuf": "13 packages with init work, linked only through prometheus/client_golang before",
}

// Bounds of TestNothingHeavyAtInit (bytes allocated at init).
const (
	perOwnPackage  = 40 << 10  // any package in ours but not in copies
	allOwn         = 160 << 10 // those together
	perCopyPackage = 64 << 10  // any package in copies
	allCopies      = 256 << 10 // copies together
	perPackage     = 4 << 20   // any package
	allPackages    = 16 << 20  // everything linked
)

// TestNothingHeavyAtInit runs the built command's `version` with
// GODEBUG=inittrace=1 and fails when a package of this project allocates
// more than perOwnPackage at init, or all of them more than allOwn; when a
// package of its generated copies allocates more than perCopyPackage, or
// all of them more than allCopies; and when any package allocates more
// than perPackage, or all of them more than allPackages. Every command pays
// for every init. Before start-up work, this project's inits allocated
// 0.9 MB (harvest/learn 247 KB, harvest 177 KB, harvest/feed 131 KB, daemon
// 96 KB: regular expressions, templates, word sets); upstream go-dateparser's
// internal/data alone allocates 78 MB (its locale tables), which the copy
// builds on first use, with its regular expressions; the copies' inits
// allocate 0.12 MB in all (doc/dependencies.md). Allocations, not clock time, so the test holds on
// a loaded machine. It also fails when the binary links a module of
// notLinked (`go version -m`).
func TestNothingHeavyAtInit(t *testing.T) {
	bin := buildCommand(t)
	mods, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatalf("go version -m: %v", err)
	}
	deps := 0
	for _, line := range strings.Split(string(mods), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "dep" {
			continue
		}
		deps++
		if why, ok := notLinked[f[1]]; ok {
			t.Errorf("the command links %s: %s", f[1], why)
		}
	}
	if deps < 20 {
		t.Fatalf("read %d dep lines from go version -m; has its format changed?\n%s", deps, mods)
	}
	cmd := exec.Command(bin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var sum, own, copied, inits int
	for _, m := range initLine.FindAllStringSubmatch(string(out), -1) {
		pkg := m[1]
		n, _ := strconv.Atoi(m[2])
		sum += n
		inits++
		if n > perPackage {
			t.Errorf("init of %s allocates %d bytes (at most %d): build it on first use", pkg, n, perPackage)
		}
		under := func(p string) bool { return pkg == p || strings.HasPrefix(pkg, p+"/") }
		if slices.ContainsFunc(copies, under) {
			copied += n
			if n > perCopyPackage {
				t.Errorf("init of %s (a generated copy) allocates %d bytes, %s allocations (at most %d bytes): "+
					"make it lazy in its patch (internal/copies)", pkg, n, m[3], perCopyPackage)
			}
		} else if slices.ContainsFunc(ours, under) {
			own += n
			if n > perOwnPackage {
				t.Errorf("init of %s allocates %d bytes, %s allocations (at most %d bytes): build its tables, "+
					"regular expressions (internal/lazyregexp) and templates on first use", pkg, n, m[3], perOwnPackage)
			}
		}
	}
	if inits < 50 {
		t.Fatalf("read %d init lines from GODEBUG=inittrace=1; has its format changed?\n%s", inits, out)
	}
	checkGCEarly(t, string(out))
	if own > allOwn {
		t.Errorf("this project's inits allocate %d bytes in all (at most %d)", own, allOwn)
	}
	if copied > allCopies {
		t.Errorf("the generated copies' inits allocate %d bytes in all (at most %d)", copied, allCopies)
	}
	if sum > allPackages {
		t.Errorf("the inits allocate %d bytes in all (at most %d)", sum, allPackages)
	}
	t.Logf("%d package inits allocate %d bytes, this project's %d, its generated copies' %d", inits, sum, own, copied)
	// Reported, not asserted (it depends on the dependencies' inits too):
	// whether `version` needed a garbage collection (the first comes when
	// the heap nears 4 MB). inittrace's own accounting allocates, so this is
	// a second run.
	cmd = exec.Command(bin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=gctrace=1")
	out, err = cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Logf("garbage collections during version: %d", strings.Count("\n"+string(out), "\ngc "))
}

// gcEarlyPackage is the package whose init sets the GC percentage
// (cmd/blogharvest/internal/gcearly), and gcEarlyBefore the most the inits
// run before it may allocate: the runtime starts at GOGC=100, whose first
// collection comes as the heap nears 4 MB.
const (
	gcEarlyPackage = "github.com/blogharvest/blogharvest/cmd/blogharvest/internal/gcearly"
	gcEarlyBefore  = 1536 << 10
)

// checkGCEarly fails when the inittrace out (TestNothingHeavyAtInit's run
// of version) shows gcearly's init after the heavy inits it must precede
// (a collection at GOGC=100 during the inits, in every process: some 3 %
// of version's CPU, doc/benchmarks.md, "Twelfth pass"): when the inits
// before it allocate more than gcEarlyBefore, or when any of gonum plot's,
// minio-go's s3utils' or nats-server's comes first. Go orders inits by
// import path once a package's imports are done, so an import of a late
// path (runtime/debug is one, and delays it past helium's) can move it.
func checkGCEarly(t *testing.T, out string) {
	t.Helper()
	heavy := []string{"gonum.org/v1/plot", "github.com/minio/minio-go/v7/pkg/s3utils", "github.com/nats-io/nats-server/v2/server"}
	before := 0
	for _, m := range initLine.FindAllStringSubmatch(out, -1) {
		if m[1] == gcEarlyPackage {
			if before > gcEarlyBefore {
				t.Errorf("the inits before %s's allocate %d bytes (at most %d): a collection may start at GOGC=100", gcEarlyPackage, before, gcEarlyBefore)
			}
			t.Logf("the inits before the GC percentage is set allocate %d bytes", before)
			return
		}
		if slices.Contains(heavy, m[1]) {
			t.Errorf("the init of %s runs before %s's, which sets the GC percentage", m[1], gcEarlyPackage)
		}
		n, _ := strconv.Atoi(m[2])
		before += n
	}
	t.Errorf("no init of %s in version's inittrace: the GC percentage is set only in main, after every init", gcEarlyPackage)
}

// TestLazyRegexpsCompile compiles every regular expression the packages
// linked into the command declare with lazyregexp: compiled at first use,
// a bad one would otherwise show only when its code first runs.
func TestLazyRegexpsCompile(t *testing.T) {
	if err := lazyregexp.CheckAll(); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkStartup runs the built command's `version`, and `status` on a
// config of three blogs whose state file exists (no daemon listening), as
// whole processes, and reports their median CPU (user+sys, from wait4) and
// median peak RSS (ru_maxrss: the mapped executable's pages included),
// each started by testdata/launch.
// With BLOGHARVEST_BENCH_OLD=path it runs that binary too, interleaved old
// new new old, and reports old-cpu-ms and old-maxrss-MB beside them. One
// iteration is one run of each binary; use -benchtime 40x or more.
func BenchmarkStartup(b *testing.B) {
	bins := [][2]string{{"", buildCommand(b)}}
	launcher := filepath.Join(b.TempDir(), "launch")
	if out, err := exec.Command("go", "build", "-o", launcher, "./testdata/launch").CombinedOutput(); err != nil {
		b.Fatalf("go build ./testdata/launch: %v\n%s", err, out)
	}
	if old := os.Getenv("BLOGHARVEST_BENCH_OLD"); old != "" {
		bins = append(bins, [2]string{"old-", old})
	}
	for _, bin := range bins {
		dropCache(b, bin[1])
	}
	cfg := statusConfig(b)
	for _, c := range []struct {
		name string
		args []string
	}{{"version", []string{"version"}}, {"status", []string{"status", "-config", cfg}}} {
		b.Run(c.name, func(b *testing.B) {
			cpu := map[string][]float64{}
			rss := map[string][]float64{}
			for i := 0; i < b.N; i++ {
				order := []int{0, 1}
				if i%2 == 1 {
					order = []int{1, 0} // A B, B A: a drift of the load hits both alike
				}
				for _, k := range order {
					if k >= len(bins) {
						continue
					}
					u, m := runOnce(b, launcher, bins[k][1], c.args)
					cpu[bins[k][0]] = append(cpu[bins[k][0]], u)
					rss[bins[k][0]] = append(rss[bins[k][0]], m)
				}
			}
			for _, bin := range bins {
				b.ReportMetric(median(cpu[bin[0]]), bin[0]+"cpu-ms")
				b.ReportMetric(median(rss[bin[0]]), bin[0]+"maxrss-MB")
			}
		})
	}
}

// dropCache asks Linux to drop the page cache of file. A binary's peak RSS
// depends on how its pages came into the cache: the pages a fresh `go build`
// wrote map about 4 MB more at start-up than pages read back from disk
// (measured on this command, the same binary before and after), so both
// binaries start from disk, as after a reboot.
func dropCache(tb testing.TB, file string) {
	f, err := os.Open(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	// Written back first: Linux drops only clean pages, and a binary just
	// linked is still dirty in the cache for up to 30 s.
	if err := f.Sync(); err != nil {
		tb.Logf("fsync %s: %v", file, err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		tb.Logf("fadvise %s: %v (its pages stay cached)", file, err)
	}
}

// runOnce runs bin with args through launch (testdata/launch, built as
// launcher) and returns its CPU in ms and peak RSS in MB.
func runOnce(b *testing.B, launcher, bin string, args []string) (cpuMS, rssMB float64) {
	out, err := exec.Command(launcher, append([]string{bin}, args...)...).Output()
	if err != nil {
		b.Fatalf("%s %s: %v", bin, strings.Join(args, " "), err)
	}
	var us, kb float64
	if _, err := fmt.Sscan(string(out), &us, &kb); err != nil {
		b.Fatalf("launch printed %q: %v", out, err)
	}
	return us / 1000, kb / 1024 // Linux: ru_maxrss in KiB
}

// statusConfig writes a config of three blogs and creates its state file,
// one blog with a recorded run, and returns the config's path.
func statusConfig(tb testing.TB) string {
	dir := tb.TempDir()
	state := filepath.Join(dir, "state", "schedule.db")
	cfg := filepath.Join(dir, "blogs.yaml")
	yaml := fmt.Sprintf("archive: %s\nstate: %s\nlisten: \"\"\nblogs:\n", filepath.Join(dir, "archive"), state)
	for _, id := range []string{"one", "two", "three"} {
		yaml += fmt.Sprintf("  - id: %s\n    url: https://%s.example.org/\n", id, id)
	}
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		tb.Fatal(err)
	}
	st, err := schedule.Open(state)
	if err != nil {
		tb.Fatal(err)
	}
	now := time.Now().UTC()
	if err := st.Put("one", schedule.State{Outcome: schedule.OutcomeOK, LastStart: now.Add(-time.Minute), LastEnd: now, Runs: 1, Entries: 3}); err != nil {
		tb.Fatal(err)
	}
	if err := st.Close(); err != nil {
		tb.Fatal(err)
	}
	return cfg
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

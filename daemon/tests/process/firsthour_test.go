package process_test

import (
	"bytes"
	"fmt"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// A busy listen port ends run before any harvest starts: exit 1, the port
// named, no harvest logged and no run recorded in the state file.
func TestRunBusyPortFailsBeforeHarvesting(t *testing.T) {
	t.Parallel()
	e := daemontest.NewEnv(t, "@every 1h")
	ln, err := net.Listen("tcp", e.Listen)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	out, err := exec.Command(daemontest.Binary(), "run", "-config", e.Config).CombinedOutput()
	code := -1
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 1 || !strings.Contains(string(out), "listen "+e.Listen) || !strings.Contains(string(out), "nothing was harvested") {
		t.Errorf("run on a busy port: exit %d (%v), want 1 naming the port:\n%s", code, err, out)
	}
	if strings.Contains(string(out), "harvest started") || strings.Contains(string(out), "robots.txt") {
		t.Errorf("a harvest started before the port was found busy:\n%s", out)
	}
	st, _ := exec.Command(daemontest.Binary(), "status", "-config", e.Config).CombinedOutput()
	if strings.Contains(string(st), "interrupted") || len(e.Entries(t)) > 0 {
		t.Errorf("a run was recorded or archived:\n%s", st)
	}
}

// The daemon's log starts with "blogharvest started" naming the status page,
// a new blog's harvest names no zero "since", and a clean stop logs no
// "err=<nil>".
func TestRunLogLines(t *testing.T) {
	t.Parallel()
	e := daemontest.NewEnv(t, "@every 1h")
	d := daemontest.Start(t, "run", "-config", e.Config)
	daemontest.WaitFor(t, "the first run to finish", 120*time.Second, func() bool {
		return strings.Contains(d.Logs.String(), `"msg":"harvest finished"`)
	})
	if code := d.Stop(t, syscall.SIGTERM, 2*time.Minute); code != 0 {
		t.Fatalf("exit %d", code)
	}
	logs := d.Logs.String()
	started, harvest := strings.Index(logs, `"msg":"blogharvest started"`), strings.Index(logs, `"msg":"harvest started"`)
	if started < 0 || harvest < started {
		t.Errorf("\"harvest started\" (at %d) before \"blogharvest started\" (at %d)", harvest, started)
	}
	if !strings.Contains(logs, `"status_page":"http://`+e.Listen+`/"`) {
		t.Errorf("the start line does not name the status page http://%s/", e.Listen)
	}
	for _, bad := range []string{`"since":"0001-01-01`, `"err":null`, `err=<nil>`, `"level":"INFO","msg":"modification dates"`} {
		if strings.Contains(logs, bad) {
			t.Errorf("the log holds %s", bad)
		}
	}
	if !strings.Contains(logs, `"msg":"stopped"`) {
		t.Error("no \"stopped\" line")
	}
}

// TestDemoTwiceIsOneBlog runs the real binary's demo twice into one archive:
// the sample blog keeps its address, so the second run is an update that
// adds nothing, and the archive holds one blog, each entry once. demo
// -serve offers the same address for that archive, and check (on a
// terminal) says what it verified and shows its progress.
func TestDemoTwiceIsOneBlog(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo twice")
	}
	t.Parallel()
	out := filepath.Join(t.TempDir(), "demo-archive")
	first, err := exec.Command(daemontest.Binary(), "demo", "-out", out).CombinedOutput()
	if err != nil {
		t.Fatalf("first demo: %v\n%s", err, first)
	}
	entries := func() []string {
		d, _ := filepath.Glob(filepath.Join(out, "*", "entries", "*", "*"))
		return d
	}
	n := len(entries())
	if n < 40 || !strings.Contains(string(first), "a new harvest") {
		t.Fatalf("first demo: %d entries\n%s", n, first)
	}
	second, err := exec.Command(daemontest.Binary(), "demo", "-out", out).CombinedOutput()
	if err != nil {
		t.Fatalf("second demo: %v\n%s", err, second)
	}
	blogs, _ := filepath.Glob(filepath.Join(out, "*", "blog"))
	v2, _ := filepath.Glob(filepath.Join(out, "*", "entries", "*", "*", "v2"))
	if len(blogs) != 1 || len(entries()) != n || len(v2) != 0 {
		t.Errorf("after two demos: %d blogs, %d entry folders (first run %d), %d second versions", len(blogs), len(entries()), n, len(v2))
	}
	for _, want := range []string{"an update of the blog archived there", "0 entry AIP(s) written this run",
		fmt.Sprintf("%d entries in %d Entry AIP version(s)", n, n), "check: 0 problem(s)"} {
		if !strings.Contains(string(second), want) {
			t.Errorf("second demo's output lacks %q:\n%s", want, second)
		}
	}
	latest, _ := aip.LatestVersion(blogs[0])
	reqs, _ := aip.LatestVersion(filepath.Join(filepath.Dir(blogs[0]), "requisites"))
	if !strings.Contains(string(second), fmt.Sprintf("the latest Blog AIP is blog/v%d/", latest)) {
		t.Errorf("the closing line does not name blog/v%d:\n%s", latest, second)
	}

	// demo -serve serves the sample blog of this archive where it was.
	addr, _ := os.ReadFile(filepath.Join(out, ".state", "demo-server"))
	srv := daemontest.Start(t, "demo", "-serve", "-out", out)
	daemontest.WaitFor(t, "demo -serve's config", 120*time.Second, func() bool { return strings.Contains(srv.Logs.String(), "blogs:") })
	if want := "url: http://" + strings.TrimSpace(string(addr)) + "/"; len(addr) == 0 || !strings.Contains(srv.Logs.String(), want) {
		t.Errorf("demo -serve does not offer %q:\n%s", want, srv.Logs.String())
	}
	srv.Stop(t, syscall.SIGTERM, 2*time.Minute)

	// check says what it verified, and draws its progress on a terminal.
	term := newTerminal(t)
	cmd := exec.Command(daemontest.Binary(), "check", out)
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, term.tty
	if err := cmd.Run(); err != nil {
		t.Fatalf("check: %v\n%s", err, stdout.String())
	}
	if want := fmt.Sprintf("%s: ok; verified %d bag(s): 1 blog(s) in %d Blog AIP version(s), %d entries in %d Entry AIP version(s), %d requisites package version(s); payload ",
		out, n+latest+reqs, latest, n, n, reqs); !strings.Contains(stdout.String(), want) {
		t.Errorf("check's output lacks %q:\n%s", want, stdout.String())
	}
	if drawn := term.drawn(); !strings.Contains(drawn, "\r\033[Kchecking "+out+": 1 bags") {
		t.Errorf("check drew no progress on the terminal: %q", drawn)
	}
}

// learn shows what it is doing on a terminal: the real binary, its stderr a
// pseudo-terminal.
func TestLearnProgressOnTerminal(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(fixture.MustNew("wordpress").Handler())
	defer srv.Close()
	term := newTerminal(t)
	cmd := exec.Command(daemontest.Binary(), "learn", "-url", srv.URL+"/", "-delay", "150ms") // steps slower than the 10 redraws a second
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, term.tty
	if err := cmd.Run(); err != nil {
		t.Fatalf("learn: %v", err)
	}
	drawn := term.drawn()
	// The first step's line, its elapsed seconds whatever they are (a
	// loaded machine draws it after a second or more), and training.
	for _, want := range []*regexp.Regexp{regexp.MustCompile(`\r\x1b\[Klearn: 1 steps, \d+s  discovering the feed`),
		regexp.MustCompile(`training page 1/`)} {
		if !want.MatchString(drawn) {
			t.Errorf("learn drew no %q on the terminal: %q", want, drawn)
		}
	}
	if !strings.HasSuffix(drawn, "\r\033[K") {
		t.Errorf("the progress line is not cleared at the end: %q", drawn)
	}
}

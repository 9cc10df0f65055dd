package daemon_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/daemon"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// run calls daemon.Main in-process and returns the exit code and output.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := daemon.Main(context.Background(), args, daemon.IO{Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func TestEverySubcommandHasHelp(t *testing.T) {
	for _, c := range []string{"run", "crawl", "learn", "check", "status", "demo", "version", "export", "report"} {
		code, _, stderr := run(t, c, "-h")
		if code != daemon.ExitOK || !strings.Contains(stderr, "Usage: blogharvest "+c) {
			t.Errorf("%s -h: exit %d, stderr %q", c, code, stderr)
		}
	}
	if code, _, _ := run(t, "frobnicate"); code != daemon.ExitUsage {
		t.Errorf("unknown command: exit %d, want %d", code, daemon.ExitUsage)
	}
	if code, out, _ := run(t, "version"); code != 0 || !strings.HasPrefix(out, "blogharvest ") {
		t.Errorf("version: %d %q", code, out)
	}
}

func TestCrawlURLThenCheck(t *testing.T) {
	site := fixture.MustNew("static")
	srv := httptest.NewServer(site.Handler())
	defer srv.Close()
	out := t.TempDir()
	code, stdout, stderr := run(t, "crawl", "-url", srv.URL+"/", "-out", out, "-delay", "1ms", "-render", "never")
	if code != 0 {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, stdout, stderr)
	}
	tr := site.Truth(srv.URL)
	bags, _ := filepath.Glob(filepath.Join(out, "*", "entries", "*", "*", "v1", "bagit.txt"))
	if want := len(tr.Posts) + len(tr.Pages); len(bags) != want {
		t.Errorf("%d entry AIPs, want %d", len(bags), want)
	}
	if code, stdout, _ := run(t, "check", out); code != 0 || !strings.Contains(stdout, ": ok") {
		t.Errorf("check: exit %d\n%s", code, stdout)
	}
	checkLedgerLogged(t, out, stderr, tr)
	// Damage one payload file: check must fail and name it.
	objs, _ := filepath.Glob(filepath.Join(filepath.Dir(bags[0]), "data", "objects", "*", "*"))
	if len(objs) == 0 {
		t.Fatal("no payload to damage")
	}
	os.WriteFile(objs[0], []byte("damaged"), 0o644)
	code, stdout, _ = run(t, "check", out)
	if code != daemon.ExitFailure || !strings.Contains(stdout, filepath.Base(objs[0])) {
		t.Errorf("check after damage: exit %d\n%s", code, stdout)
	}
}

func TestLearnPrintsRules(t *testing.T) {
	srv := httptest.NewServer(fixture.MustNew("blogger").Handler())
	defer srv.Close()
	code, stdout, stderr := run(t, "learn", "-url", srv.URL+"/", "-delay", "1ms")
	if code != 0 {
		t.Fatalf("learn: exit %d\n%s", code, stderr)
	}
	var got struct{ Rules map[string]json.RawMessage }
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("learn output is not JSON: %v\n%s", err, stdout)
	}
	for _, f := range []string{"article", "title"} {
		var r struct {
			XPath      string  `json:"xpath"`
			Confidence float64 `json:"confidence"`
		}
		if err := json.Unmarshal(got.Rules[f], &r); err != nil || r.XPath == "" || r.Confidence < 0.5 {
			t.Errorf("%s rule: %+v (%v)", f, r, err)
		}
	}
}

// checkLedgerLogged checks that a crawl of the static fixture blog wrote
// the crawl ledger into the Blog AIP, its redirect stubs among the rows,
// and summed the fates up in the run's log line.
func checkLedgerLogged(t *testing.T, archive, stderr string, tr fixture.Truth) {
	t.Helper()
	ledgers, _ := filepath.Glob(filepath.Join(archive, "*", "blog", "v1", "data", "logs", "ledger.tsv"))
	if len(ledgers) != 1 {
		t.Fatalf("%d Blog AIP ledgers, want 1", len(ledgers))
	}
	raw, _ := os.ReadFile(ledgers[0])
	ledger := string(raw)
	if !strings.HasPrefix(ledger, "url\tfate\tdetail\tvia\tcomments\n") || strings.Contains(ledger, "\tunaccounted\t") {
		t.Errorf("ledger.tsv: bad header or unaccounted rows:\n%.300s", ledger)
	}
	for _, p := range tr.Posts {
		for _, s := range p.Stubs {
			if !strings.Contains(ledger, s+"\tstub\t"+p.URL+"\t") {
				t.Errorf("ledger.tsv lacks the stub %s -> %s", s, p.URL)
			}
		}
	}
	var line string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "harvest finished") {
			line = l
		}
	}
	if !strings.Contains(line, "fates=") || !strings.Contains(line, "stub=3") {
		t.Errorf("the run's log line has no fate summary: %q", line)
	}
}

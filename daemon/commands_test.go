package daemon_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/blogharvest/blogharvest/daemon"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

func TestEverySubcommandHasHelp(t *testing.T) {
	for _, c := range []string{"run", "crawl", "learn", "check", "status", "demo", "version", "export", "report", "published", "locate", "import-opml"} {
		code, _, stderr := daemontest.Run(t, c, "-h")
		if code != daemon.ExitOK || !strings.Contains(stderr, "Usage: blogharvest "+c) {
			t.Errorf("%s -h: exit %d, stderr %q", c, code, stderr)
		}
	}
	if code, _, _ := daemontest.Run(t, "frobnicate"); code != daemon.ExitUsage {
		t.Errorf("unknown command: exit %d, want %d", code, daemon.ExitUsage)
	}
	if code, out, _ := daemontest.Run(t, "version"); code != 0 || !strings.HasPrefix(out, "blogharvest ") {
		t.Errorf("version: %d %q", code, out)
	}
}

func TestCrawlURLThenCheck(t *testing.T) {
	t.Parallel()
	site := fixture.MustNew("static")
	srv := httptest.NewServer(site.Handler())
	defer srv.Close()
	out := t.TempDir()
	code, stdout, stderr := daemontest.Run(t, "crawl", "-url", srv.URL+"/", "-out", out, "-delay", "1ms", "-render", "never")
	if code != 0 {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, stdout, stderr)
	}
	tr := site.Truth(srv.URL)
	bags, _ := filepath.Glob(filepath.Join(out, "*", "entries", "*", "*", "v1", "bagit.txt"))
	if want := len(tr.Posts) + len(tr.Pages); len(bags) != want {
		t.Errorf("%d entry AIPs, want %d", len(bags), want)
	}
	if code, stdout, _ := daemontest.Run(t, "check", out); code != 0 || !strings.Contains(stdout, ": ok") {
		t.Errorf("check: exit %d\n%s", code, stdout)
	}
	checkLedgerLogged(t, out, stderr, tr)
	// Damage one payload file: check must fail and name it.
	objs, _ := filepath.Glob(filepath.Join(filepath.Dir(bags[0]), "data", "objects", "*", "*"))
	if len(objs) == 0 {
		t.Fatal("no payload to damage")
	}
	os.WriteFile(objs[0], []byte("damaged"), 0o644)
	code, stdout, _ = daemontest.Run(t, "check", out)
	if code != daemon.ExitFailure || !strings.Contains(stdout, filepath.Base(objs[0])) {
		t.Errorf("check after damage: exit %d\n%s", code, stdout)
	}
}

// TestLearnPrintsRules runs learn: its rules are a list of fields a script
// iterates (metadata apart), and pages_fetched and requests count what the
// server answered.
func TestLearnPrintsRules(t *testing.T) {
	t.Parallel()
	var html, requests atomic.Int32
	h := fixture.MustNew("blogger").Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") && rec.Code == 200 {
			html.Add(1)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
	}))
	defer srv.Close()
	code, stdout, stderr := daemontest.Run(t, "learn", "-url", srv.URL+"/", "-delay", "1ms")
	if code != 0 {
		t.Fatalf("learn: exit %d\n%s", code, stderr)
	}
	var got struct {
		Fields []struct {
			Field      string  `json:"field"`
			XPath      string  `json:"xpath"`
			Confidence float64 `json:"confidence"`
		}
		TrainingPages []string `json:"training_pages"`
		PagesFetched  int      `json:"pages_fetched"`
		Requests      int      `json:"requests"`
		Rules         any      `json:"rules"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("learn output is not JSON: %v\n%s", err, stdout)
	}
	byField := map[string]float64{}
	for _, f := range got.Fields {
		if f.XPath == "" {
			t.Errorf("field %q has no xpath", f.Field)
		}
		byField[f.Field] = f.Confidence
	}
	for _, f := range []string{"article", "title"} {
		if byField[f] < 0.5 {
			t.Errorf("%s rule: confidence %v in %+v", f, byField[f], got.Fields)
		}
	}
	if got.Rules != nil {
		t.Error("the old mixed \"rules\" object is still printed")
	}
	if len(got.TrainingPages) == 0 || got.PagesFetched != int(html.Load()) || got.PagesFetched < len(got.TrainingPages) {
		t.Errorf("pages_fetched %d, training pages %d; the server answered %d HTML pages", got.PagesFetched, len(got.TrainingPages), html.Load())
	}
	if got.Requests != int(requests.Load()) {
		t.Errorf("requests %d; the server answered %d", got.Requests, requests.Load())
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

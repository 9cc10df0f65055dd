package browser_test

import (
	"bufio"
	"encoding/json"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/chromedp/chromedp"
)

// liveStatus is the part of /status the interruption test reads.
type liveStatus struct {
	ID         string         `json:"id"`
	Running    bool           `json:"running"`
	Outcome    string         `json:"outcome"`
	Runs       int            `json:"runs"`
	LastError  string         `json:"last_error"`
	Shortfalls map[string]int `json:"shortfalls"`
	LastRun    *struct {
		Entries int `json:"entries_written"`
	} `json:"last_run"`
	Progress *struct {
		Entries int    `json:"entries_written"`
		URL     string `json:"current_url"`
	} `json:"progress"`
}

func liveStatuses(listen string) map[string]liveStatus {
	resp, err := http.Get("http://" + listen + "/status")
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	var body struct{ Blogs []liveStatus }
	if json.NewDecoder(resp.Body).Decode(&body) != nil {
		return nil
	}
	out := map[string]liveStatus{}
	for _, b := range body.Blogs {
		out[b.ID] = b
	}
	return out
}

// TestInterruptedHarvestStatus is issue 37's interrupted day, through the
// binary: a harvest is watched in progress (/status and the status page
// show the entries written so far and the page being read, beside a blog
// whose 500-character error must not squeeze the table at 1 280 or
// 800 px), interrupted by SIGINT, and completed after a restart. Then the
// latest Blog AIP's ledger, /status, the blog's status page and report
// list no archived post as missing; the restarted daemon shows the run
// history from before the restart, what the last run changed and the
// blog's storage as the archive holds it.
func TestInterruptedHarvestStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes and a browser")
	}
	t.Parallel()
	e := daemontest.NewEnv(t, "@every 1h")
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	gone := "http://" + ln.Addr().String() + "/" + strings.Repeat("a-long-path-segment/", 23)
	ln.Close() // connection refused: an error over 500 characters, the URL in it
	y, _ := os.ReadFile(e.Config)
	// Slow enough to be watched and interrupted; the restart completes it
	// at 100 ms.
	cfg := strings.Replace(string(y), "delay: 1ms", "delay: 300ms", 1)
	cfg = strings.Replace(cfg, "blogs:\n", "concurrency: 2\nblogs:\n  - id: gone\n    url: "+gone+"\n    schedule: \"@every 1h\"\n    render: never\n", 1)
	os.WriteFile(e.Config, []byte(cfg), 0o644)
	b := daemontest.NewBrowser(t) // started before the harvest: its start takes seconds
	d := daemontest.Start(t, "run", "-config", e.Config)
	base := "http://" + e.Listen + "/"

	var st map[string]liveStatus
	daemontest.WaitFor(t, "entries written in progress, and the dead blog's failure", 120*time.Second, func() bool {
		st = liveStatuses(e.Listen)
		p := st["sample"].Progress
		return p != nil && p.Entries >= 3 && p.URL != "" && st["gone"].LastRun != nil
	})
	if n := len(st["gone"].LastError); n < 500 || !strings.Contains(st["gone"].LastError, "unreachable (connection refused)") {
		t.Errorf("the dead blog's error (%d characters): %q", n, st["gone"].LastError)
	}
	var shown string
	b.Run(t, chromedp.Navigate(base+"?refresh=0"), chromedp.WaitReady("body", chromedp.ByQuery),
		chromedp.Evaluate(`(document.querySelector('tr[data-blog="sample"] [data-field="progress_entries"]') || {textContent: ''}).textContent`, &shown))
	if n, err := strconv.Atoi(shown); err != nil || n < 3 {
		t.Errorf("the status page's row of the running blog shows %q entries written so far, want 3 or more", shown)
	}
	b.Screenshot(t, "harvesting")
	var narrow []string // a column squeezed to a few characters by the long error (issue 37)
	b.Run(t, chromedp.Evaluate(`Array.from(document.querySelectorAll('#blogs thead th')).
		filter(th => th.getBoundingClientRect().width < 4 * parseFloat(getComputedStyle(th).fontSize)).
		map(th => th.textContent + ' ' + Math.round(th.getBoundingClientRect().width) + ' px')`, &narrow))
	if len(narrow) > 0 {
		t.Errorf("at 1 280 px, columns narrower than 4 characters: %v", narrow)
	}
	checkLayout(t, b, base+"?refresh=0", "status-long-error")
	if code := d.Stop(t, syscall.SIGINT, 60*time.Second); code != 0 {
		t.Fatalf("exit code after SIGINT = %d", code)
	}
	if !strings.Contains(d.Logs.String(), "harvest interrupted") {
		t.Skip("the harvest ended before the signal: nothing interrupted to test")
	}

	os.WriteFile(e.Config, []byte(strings.Replace(cfg, "delay: 300ms", "delay: 100ms", 1)), 0o644)
	d = daemontest.Start(t, "run", "-config", e.Config)
	daemontest.WaitFor(t, "the interrupted harvest completed after the restart", 180*time.Second, func() bool {
		st = liveStatuses(e.Listen)
		s := st["sample"]
		return s.Runs >= 2 && !s.Running && s.Outcome != "" && s.Outcome != "running"
	})
	if s := st["sample"]; s.Outcome != "ok" {
		t.Fatalf("the completing run: %+v", s)
	}
	archived := e.Entries(t)
	short := ledgerShortfalls(t, filepath.Join(e.Archive, "sample"))
	for u, fate := range short {
		if len(archived[u]) > 0 {
			t.Errorf("the latest ledger says %s is %s; the archive holds it (%v)", u, fate, archived[u])
		}
	}
	// The fixture links to posts it no longer serves (404: failed); the
	// interruption's over-budget URLs must be gone, and /status must count
	// what the latest ledger lists.
	counted := map[string]int{}
	for _, fate := range short {
		counted[fate]++
	}
	if got := st["sample"].Shortfalls; counted["over-budget"] > 0 || !maps.Equal(got, counted) && len(got)+len(counted) > 0 {
		t.Errorf("/status after the completing run: shortfalls %v; the latest ledger lists %v, want no over-budget", got, counted)
	}

	var rows []string
	var runs, changes int
	var bags string
	b.Run(t, chromedp.Navigate(base+"blog/sample?refresh=0"), chromedp.WaitReady("body", chromedp.ByQuery),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#shortfall-rows tbody tr td:first-child')).map(td => td.textContent)`, &rows),
		chromedp.Evaluate(`document.querySelectorAll('#runs tbody tr').length`, &runs),
		chromedp.Evaluate(`document.querySelectorAll('#changes tbody tr').length`, &changes),
		chromedp.Evaluate(`(document.querySelector('[data-field="storage_bags"]') || {textContent: ''}).textContent`, &bags))
	for _, u := range rows {
		if len(archived[u]) > 0 {
			t.Errorf("the blog page lists %s as not archived; the archive holds it", u)
		}
	}
	if runs < 2 {
		t.Errorf("the restarted daemon's blog page lists %d runs, want the interrupted one kept from before the restart too", runs)
	}
	if last := st["sample"].LastRun; last == nil || changes != min(last.Entries, 50) {
		t.Errorf("the blog page lists %d entries the last run archived; /status says %+v", changes, last)
	}
	if n, _ := strconv.Atoi(bags); n != bagsUnder(t, filepath.Join(e.Archive, "sample")) {
		t.Errorf("the blog page's storage: %q bags, the archive holds %d", bags, bagsUnder(t, filepath.Join(e.Archive, "sample")))
	}
	checkLayout(t, b, base+"blog/sample?refresh=0", "blog-after-restart")
	d.Stop(t, syscall.SIGTERM, 2*time.Minute)

	out, err := exec.Command(daemontest.Binary(), "report", filepath.Join(e.Archive, "sample"), "-out", "-").Output()
	if err != nil {
		t.Fatalf("report: %v", err)
	}
	if strings.Contains(string(out), "over-budget") {
		t.Error("report: the ledger's fates still say over-budget after the harvest was completed")
	}
}

// ledgerShortfalls reads the ledger of the newest Blog AIP in blogDir:
// URL → fate, for the fates that are not archived.
func ledgerShortfalls(t *testing.T, blogDir string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(daemontest.NewestBlogAIP(t, blogDir), "data", "logs", "ledger.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ok := map[string]bool{"entry": true, "listing": true, "redirect": true, "stub": true, "duplicate": true, "out-of-scope": true, "skipped": true}
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) >= 2 && cols[0] != "url" && !ok[cols[1]] {
			out[cols[0]] = cols[1]
		}
	}
	return out
}

// bagsUnder counts the bags (every version, requisites packages
// included) under dir.
func bagsUnder(t *testing.T, dir string) int {
	n := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == "bagit.txt" {
			n++
		}
		return nil
	})
	return n
}

package daemon_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/chromedp/chromedp"
)

// TestReportInChromium writes the report of a harvested blog and opens it
// in headless Chromium: the counts equal the archive's (entry folders,
// comment records, ledger lines), the Zipf plot has one point per
// distinct word, the other charts are drawn, and the console stays quiet.
func TestReportInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	t.Parallel()
	b := daemontest.NewBrowser(t)
	archive, _ := daemontest.CrawlDemo(t)
	blogs, _ := filepath.Glob(filepath.Join(archive, "*", "blog"))
	if len(blogs) != 1 {
		t.Fatalf("blogs: %v", blogs)
	}
	blog := filepath.Dir(blogs[0])
	out := filepath.Join(t.TempDir(), "report.html")
	if code, _, stderr := daemontest.Run(t, "report", blog, "-out", out); code != 0 {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}
	html, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, remote := range []string{"<script", "src=", "@import", "url("} {
		if strings.Contains(string(html), remote) {
			t.Errorf("the report refers to something outside itself: %q", remote)
		}
	}
	entryDirs, _ := filepath.Glob(filepath.Join(blog, "entries", "*", "*"))
	comments := 0
	for _, d := range entryDirs {
		mets, _ := os.ReadFile(filepath.Join(d, "v1", "data", "METS.xml"))
		comments += strings.Count(string(mets), `LABEL="comment"`)
	}
	methods := fieldMethods(t, entryDirs)
	ledger, _ := os.ReadFile(filepath.Join(blog, "blog", "v1", "data", "logs", "ledger.tsv"))
	urls := strings.Count(string(ledger), "\n") - 1

	var summary map[string]string
	var cells map[string]int
	var points, fateSum, vocabulary, bars, rules int
	b.Run(t, chromedp.Navigate("file://"+out), chromedp.WaitVisible("#zipf svg", chromedp.ByQuery),
		chromedp.Evaluate(`Object.fromEntries(Array.from(document.querySelectorAll('#summary [data-field]')).map(td => [td.dataset.field, td.textContent.trim()]))`, &summary),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#zipf svg path')).filter(p => /fill:#3366cc/i.test(p.getAttribute('style'))).length - 1`, &points),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#fates td.n')).reduce((s, td) => s + Number(td.textContent), 0)`, &fateSum),
		chromedp.Evaluate(`document.querySelectorAll('#words tr').length > 1 ? Number(document.body.innerText.match(/words \((\d+)\)/)[1]) : 0`, &vocabulary),
		chromedp.Evaluate(`document.querySelectorAll('#time svg path').length`, &bars),
		chromedp.Evaluate(`document.querySelectorAll('#rules tr').length - 1`, &rules),
		chromedp.Evaluate(`Object.fromEntries(Array.from(document.querySelectorAll('#methods-entries td[data-method]')).map(td => [td.dataset.field + '/' + td.dataset.method, Number(td.textContent)]))`, &cells))
	b.Screenshot(t, "report")
	if summary["entries"] != strconv.Itoa(len(entryDirs)) || summary["comments"] != strconv.Itoa(comments) {
		t.Errorf("summary %v, the archive has %d entries and %d comments", summary, len(entryDirs), comments)
	}
	if points < 100 || points != vocabulary {
		t.Errorf("Zipf plot: %d points for %d distinct words", points, vocabulary)
	}
	if fateSum != urls || urls == 0 {
		t.Errorf("ledger fates sum to %d, the ledger has %d URLs", fateSum, urls)
	}
	if bars < 10 || rules == 0 {
		t.Errorf("time chart: %d paths; %d learned rules", bars, rules)
	}
	checkMethodCells(t, cells, methods, len(entryDirs))
	b.CheckConsole(t)
}

// fieldMethods counts the entry records' lines of the entries' fields.tsv
// (v1: one crawl) by "field/method".
func fieldMethods(t *testing.T, entryDirs []string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, d := range entryDirs {
		data, err := os.ReadFile(filepath.Join(d, "v1", "data", "logs", "fields.tsv"))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
			if c := strings.Split(l, "\t"); len(c) == 4 && c[1] != "comment" {
				out[c[2]+"/"+c[3]]++
			}
		}
	}
	return out
}

// checkMethodCells compares the report's table of entry fields by method
// with the archive's counts: every non-zero cell equals them, and each
// field's "not harvested" cell is the entries without a line for it.
func checkMethodCells(t *testing.T, cells, want map[string]int, entries int) {
	t.Helper()
	if want["title/"+string(blogharvest.MethodFeed)]+want["title/"+string(blogharvest.MethodRule)] == 0 {
		t.Errorf("no entry of the demo got its title from the feed or a rule: %v", want)
	}
	perField := map[string]int{}
	for k, n := range want {
		if cells[k] != n {
			t.Errorf("report: %d entries got %s, the bags say %d", cells[k], k, n)
		}
		perField[strings.Split(k, "/")[0]] += n
	}
	for k, n := range cells {
		field, method, _ := strings.Cut(k, "/")
		switch {
		case method == "" && n != entries-perField[field]:
			t.Errorf("report: %d entries without %s, want %d", n, field, entries-perField[field])
		case method != "" && n != want[k]:
			t.Errorf("report: %d entries got %s, the bags say %d", n, k, want[k])
		}
	}
}

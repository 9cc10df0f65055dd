package browser_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/chromedp/chromedp"
)

// layoutJS lists what a reader would see wrong on the page: a horizontal
// scroll bar, text boxes (of the HTML and of the SVG charts) that overlap,
// chart text outside its chart (clipped) or over a bar.
const layoutJS = `(() => {
  const probs = [];
  const de = document.documentElement;
  if (de.scrollWidth > de.clientWidth + 1) probs.push('horizontal scroll: ' + de.scrollWidth + ' > ' + de.clientWidth);
  const over = (a, b, tol) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > tol &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > tol;
  const boxes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const n = walker.currentNode;
    if (!n.textContent.trim() || n.parentElement.closest('svg, style, title, details:not([open]) > :not(summary)')) continue; // a closed details element shows its summary only
    const r = document.createRange(); r.selectNodeContents(n);
    for (const b of r.getClientRects()) if (b.width > 0 && b.height > 0) boxes.push({b, text: n.textContent.trim().slice(0, 40)});
  }
  const rect = /^M[-\d.]+,[-\d.]+L[-\d.]+,[-\d.]+L[-\d.]+,[-\d.]+L[-\d.]+,[-\d.]+Z$/;
  document.querySelectorAll('svg').forEach(svg => {
    const sb = svg.getBoundingClientRect();
    const paths = Array.from(svg.querySelectorAll('path'));
    const bars = paths.filter((p, i) => i > 0 && rect.test(p.getAttribute('d')) && p.style.fill && p.style.fill !== 'none')
      .map(p => p.getBoundingClientRect()).filter(b => b.width > 0 && b.height > 0);
    svg.querySelectorAll('text').forEach(t => {
      const b = t.getBoundingClientRect(), text = 'chart: ' + t.textContent;
      if (b.left < sb.left - 1 || b.right > sb.right + 1 || b.top < sb.top - 1 || b.bottom > sb.bottom + 1) probs.push('clipped: ' + text);
      if (bars.some(bb => over(b, bb, 0.5))) probs.push('text over a bar: ' + text);
      boxes.push({b, text});
    });
  });
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++)
      if (over(boxes[i].b, boxes[j].b, 1)) probs.push('overlap: "' + boxes[i].text + '" and "' + boxes[j].text + '"');
  return probs;
})()`

// checkLayout opens u in Chromium at 1 280 and 800 px wide, saves a
// screenshot of each ($BLOGHARVEST_ARTIFACTS) and fails on every problem
// layoutJS finds.
func checkLayout(t *testing.T, b *daemontest.Browser, u, name string) {
	t.Helper()
	for _, w := range []int64{1280, 800} {
		var probs []string
		b.Run(t, chromedp.EmulateViewport(w, 900), chromedp.Navigate(u), chromedp.WaitReady("body", chromedp.ByQuery),
			chromedp.Evaluate(layoutJS, &probs))
		b.Screenshot(t, fmt.Sprintf("%s-%d", name, w))
		for i, p := range probs {
			if i == 10 {
				t.Errorf("%s at %d px: … %d problems in all", name, w, len(probs))
				break
			}
			t.Errorf("%s at %d px: %s", name, w, p)
		}
	}
}

// TestStatusPageAndReportLayout runs the daemon until a run finds nothing
// new, then reads its status pages and the blog's report in Chromium at
// 1 280 and 800 px: nothing scrolls sideways, no text box overlaps
// another, the charts' labels stay inside them and off the bars; "Last
// AIPs written" and the blog page show the last run that archived
// something, and the blog page has its place for the ledger's shortfalls.
func TestStatusPageAndReportLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process and a browser")
	}
	t.Parallel()
	e := daemontest.NewEnv(t, "@every 2s")
	d := daemontest.Start(t, "run", "-config", e.Config)
	daemontest.WaitFor(t, "a run that wrote nothing after one that did", 180*time.Second, func() bool {
		st := e.Status(t)
		run, _ := st["last_run"].(map[string]any)
		return st != nil && st["runs"].(float64) >= 2 && run != nil && run["entries_written"].(float64) == 0 && st["outcome"] == "ok"
	})
	b := daemontest.NewBrowser(t) // after the wait: its context has a deadline
	base := "http://" + e.Listen + "/"
	var aips, methods int
	var written, shortfalls string
	b.Run(t, chromedp.Navigate(base+"?refresh=0"), chromedp.WaitReady("body", chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll('ul.aips li').length`, &aips))
	if aips == 0 {
		t.Error("after a run that wrote nothing, the index lists no \"Last AIPs written\"")
	}
	b.Run(t, chromedp.Navigate(base+"blog/sample?refresh=0"), chromedp.WaitReady("body", chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll('#methods tbody tr').length`, &methods),
		chromedp.Evaluate(`(document.querySelector('#written-run') || {textContent: ''}).textContent`, &written),
		chromedp.Evaluate(`(document.querySelector('#shortfalls') || {textContent: ''}).textContent`, &shortfalls))
	if methods == 0 || !strings.Contains(written, "the runs since wrote nothing new") || shortfalls == "" {
		t.Errorf("blog page after an unchanged run: %d method rows, %q, shortfall section %q", methods, written, shortfalls)
	}
	checkLayout(t, b, base+"?refresh=0", "status-index")
	checkLayout(t, b, base+"blog/sample?refresh=0", "status-blog")
	d.Stop(t, syscall.SIGTERM, 2*time.Minute)

	report := filepath.Join(t.TempDir(), "report.html")
	if out, err := exec.Command(daemontest.Binary(), "report", filepath.Join(e.Archive, "sample"), "-out", report).CombinedOutput(); err != nil {
		t.Fatalf("report: %v\n%s", err, out)
	}
	checkLayout(t, daemontest.NewBrowser(t), "file://"+report, "report")
}

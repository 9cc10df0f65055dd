package replay_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// replayTitleJS returns the text of the first element the selector names
// in ReplayWeb.page's replay frame, "" until it is there (replayFrameEl).
const replayTitleJS = `(() => {` + replayFrameEl + `
  return el ? el.textContent.trim() : '';
})()`

// TestEntryAsItLooked runs the daemon on the WordPress fixture with
// ReplayWeb.page's files configured, opens the status page in Chromium
// and follows the link of an Entry AIP among the last AIPs written: the
// entry page replays that entry's WACZ, and the replayed post's title is
// the fixture post's. The WACZ served holds that entry's WARC and the
// blog's requisites only.
func TestEntryAsItLooked(t *testing.T) {
	rwp := replayWebPageDir(t)
	t.Parallel()
	e := daemontest.NewEnv(t, "@every 1h")
	cfg, _ := os.ReadFile(e.Config)
	cfg = append([]byte("replay_web_page: "+rwp+"\n"), cfg...)
	if err := os.WriteFile(e.Config, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	daemontest.Start(t, "run", "-config", e.Config)
	link := regexp.MustCompile(`href="entry\?bag=[^"]+" data-entry="(sample/entries/[^"]+)"`)
	var m []string
	daemontest.WaitFor(t, "an entry link on the status page", 2*time.Minute, func() bool {
		resp, err := http.Get("http://" + e.Listen + "/?refresh=0")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		m = link.FindStringSubmatch(string(body))
		return m != nil
	})
	bag := m[1]
	info, err := os.ReadFile(filepath.Join(e.Archive, filepath.FromSlash(bag), "bag-info.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var title string
	for _, p := range e.Site.Posts() {
		if strings.Contains(string(info), "External-Identifier: "+e.Srv.URL+p.Path+"\n") {
			title = p.Title
		}
	}
	if title == "" {
		t.Fatalf("%s is no post of the fixture:\n%s", bag, info)
	}

	wacz := daemontest.HTTPGet(t, "http://"+e.Listen+"/entry.wacz?bag="+bag)
	z, err := zip.NewReader(bytes.NewReader([]byte(wacz)), int64(len(wacz)))
	if err != nil {
		t.Fatalf("entry.wacz: %v", err)
	}
	for _, f := range z.File {
		if name, ok := strings.CutPrefix(f.Name, "archive/"); ok &&
			name != strings.ReplaceAll(bag, "/", "-")+".warc.gz" && !strings.HasPrefix(name, "sample-requisites-v") {
			t.Errorf("the entry's WACZ holds %s", f.Name)
		}
	}

	b := daemontest.NewBrowser(t)
	var got string
	b.Run(t, chromedp.Navigate("http://"+e.Listen+"/?refresh=0"),
		chromedp.Click(fmt.Sprintf(`a[data-entry=%q]`, bag), chromedp.ByQuery))
	b.Run(t, chromedp.WaitReady("replay-web-page", chromedp.ByQuery),
		chromedp.Poll(fmt.Sprintf(replayTitleJS, ".entry-title"), &got, chromedp.WithPollingTimeout(2*time.Minute)))
	b.Screenshot(t, "entry")
	if got != title {
		t.Errorf("the replayed entry's title is %q, want %q", got, title)
	}
}

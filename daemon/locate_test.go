package daemon_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// TestLocate: locate finds a post of the demo archive from its URL as a
// reader pastes it (scheme and host in capitals, a tracking parameter, a
// fragment: the crawler's canonical form decides), every version of it
// (a v2 added), the entry an old address redirects to according to the
// blog's ledger, the Blog AIP from the home page, and says when no AIP
// holds a URL (exit 1).
func TestLocate(t *testing.T) {
	t.Parallel()
	archive, truth := daemontest.CrawlDemo(t)
	post := truth.Posts[0].URL
	code, out, stderr := daemontest.Run(t, "locate", archive, strings.Replace(post, "http://", "HTTP://", 1)+"?utm_source=feed#comments")
	if code != 0 {
		t.Fatalf("locate: exit %d\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	f := strings.Split(lines[0], "\t")
	if len(lines) != 1 || len(f) != 4 || f[1] != "v1" || !strings.HasPrefix(f[2], "urn:uuid:") {
		t.Fatalf("locate %s:\n%s", post, out)
	}
	bag := f[0]
	info, err := os.ReadFile(filepath.Join(bag, "bag-info.txt"))
	if err != nil || !strings.Contains(string(info), "External-Identifier: "+post+"\n") {
		t.Fatalf("%s does not hold %s: %v\n%s", bag, post, err, info)
	}
	if mets, _ := os.ReadFile(filepath.Join(bag, "data", "METS.xml")); !strings.Contains(string(mets), `OBJID="`+f[2]+`"`) {
		t.Errorf("identifier %s is not %s's METS OBJID", f[2], bag)
	}

	// every version
	v2 := filepath.Join(filepath.Dir(bag), "v2")
	if err := os.CopyFS(v2, os.DirFS(bag)); err != nil {
		t.Fatal(err)
	}
	_, out, _ = daemontest.Run(t, "locate", archive, post)
	if got := strings.Fields(out); len(got) != 8 || got[0] != bag || got[4] != v2 || got[5] != "v2" || got[2] == got[6] {
		t.Errorf("locate after a v2:\n%s", out)
	}

	// an old address the ledger knows as a redirect
	old := strings.TrimSuffix(truth.Blog.URL, "/") + "/old-address-of-the-post/"
	ledgers, _ := filepath.Glob(filepath.Join(archive, "*", "blog", "v*", "data", "logs", "ledger.tsv"))
	if len(ledgers) != 1 {
		t.Fatalf("ledgers: %v", ledgers)
	}
	l, _ := os.OpenFile(ledgers[0], os.O_APPEND|os.O_WRONLY, 0)
	l.WriteString(old + "\tredirect\t" + post + "\tlink\t\n")
	l.Close()
	_, out, _ = daemontest.Run(t, "locate", archive, old)
	if !strings.HasPrefix(out, bag+"\t") || !strings.Contains(out, "redirect of "+post) {
		t.Errorf("locate %s (a redirect to %s):\n%s", old, post, out)
	}

	// the home page: the Blog AIP
	_, out, _ = daemontest.Run(t, "locate", archive, truth.Blog.URL)
	if !strings.Contains(out, string(filepath.Separator)+filepath.Join("blog", "v1")+"\t") {
		t.Errorf("locate %s (the home page):\n%s", truth.Blog.URL, out)
	}

	code, out, stderr = daemontest.Run(t, "locate", archive, truth.Blog.URL+"never-published/#x")
	if code != 1 || out != "" || !strings.Contains(stderr, "holds "+truth.Blog.URL+"never-published/") {
		t.Errorf("a URL no AIP holds: exit %d, %q, %q", code, out, stderr)
	}
}

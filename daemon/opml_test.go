package daemon_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/daemon"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// TestImportOPML imports a feed reader's export shaped like real ones
// (testdata/opml: categories nesting feeds two deep, htmlUrl missing,
// one feed under two categories, entities, a feed:// address) into a
// commented config: the new blogs are appended to its blogs list with
// ids from their titles (from the host when the title's id is another
// blog's), every original line is kept byte for byte, the result loads;
// the duplicates and the bad address are refused naming their OPML line
// and the config line of the blog they duplicate (exit 1). Importing
// again adds nothing and leaves the file as it was; a config with no
// blog yet gets a blogs list.
func TestImportOPML(t *testing.T) {
	t.Parallel()
	opml := filepath.Join("testdata", "opml", "subscriptions.opml")
	orig, err := os.ReadFile(filepath.Join("testdata", "opml", "blogs.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "blogs.yaml")
	os.WriteFile(cfg, orig, 0o640)
	code, _, stderr := daemontest.Run(t, "import-opml", opml, cfg)
	if code != 1 {
		t.Errorf("exit %d, want 1 (some refused)\n%s", code, stderr)
	}
	for _, want := range []string{
		"subscriptions.opml line 13: \"Quantum Diaries\": a duplicate: its home page https://www.quantumdiaries.org/ is already registered, as blog quantum-diaries at " + cfg + " line 12",
		"subscriptions.opml line 22: \"Old Mill\": xmlUrl \"feed://oldmill.example.org/rss\" is not an http(s) URL",
		"subscriptions.opml line 25: \"The café and the cosmos (again)\": a duplicate: its feed https://cafe-cosmos.example.org/feed.xml is already registered, as blog the-cafe-the-cosmos at " + opml + " line 15",
		"added 5 blog(s)",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	got, _ := os.ReadFile(cfg)
	// every original line kept, in order, the new ones inserted in one place
	o, g := strings.SplitAfter(string(orig), "\n"), strings.SplitAfter(string(got), "\n")
	i := 0
	for i < len(o) && o[i] == g[i] {
		i++
	}
	if tail := len(o) - i; tail == 0 || !slices.Equal(o[i:], g[len(g)-tail:]) || !strings.Contains(o[i], "log:") && strings.TrimSpace(o[i]) != "" {
		t.Errorf("the original lines are not all kept around one insertion (first difference at line %d):\n%s", i+1, got)
	}
	c, err := daemon.LoadConfig(cfg)
	if err != nil {
		t.Fatalf("the imported config does not load: %v\n%s", err, got)
	}
	want := map[string][2]string{
		"quantum-diaries":     {"https://www.quantumdiaries.org/", ""},
		"tidbits":             {"https://tidbits.example.com/", ""},
		"the-cafe-the-cosmos": {"https://cafe-cosmos.example.org/", "https://cafe-cosmos.example.org/feed.xml"},
		"notes-from-the-lab":  {"https://lab.example.net/", "https://lab.example.net/index.xml"},
		"parish-register":     {"https://parish.example.com/blog/", "https://parish.example.com/blog/rss"},
		"example-blogger":     {"https://example-blog.blogspot.com/", "https://example-blog.blogspot.com/feeds/posts/default"},
		"tidbits-example-net": {"https://www.tidbits.example.net/", "https://tidbits.example.net/feed/"},
	}
	for _, b := range c.Blogs {
		if w, ok := want[b.ID]; !ok || b.URL != w[0] || b.Feed != w[1] {
			t.Errorf("blog %s: %s %s, want %v", b.ID, b.URL, b.Feed, w)
		}
		delete(want, b.ID)
	}
	if len(want) > 0 || c.Log.Format != "json" || c.Defaults.Schedule != "@every 6h" {
		t.Errorf("missing %v; log %+v, defaults' schedule %q", want, c.Log, c.Defaults.Schedule)
	}
	if info, _ := os.Stat(cfg); info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's 0640 kept", info.Mode())
	}

	code, _, stderr = daemontest.Run(t, "import-opml", opml, cfg)
	if again, _ := os.ReadFile(cfg); code != 1 || string(again) != string(got) || !strings.Contains(stderr, "nothing to add") ||
		strings.Count(stderr, "a duplicate") != 7 {
		t.Errorf("a second import: exit %d, file changed %v:\n%s", code, string(again) != string(got), stderr)
	}

	empty := filepath.Join(t.TempDir(), "new.yaml")
	os.WriteFile(empty, []byte("archive: ./archive\n# blogs come from the reader's export\n"), 0o644)
	if code, _, stderr := daemontest.Run(t, "import-opml", opml, empty); code != 1 {
		t.Errorf("into a config without blogs: exit %d\n%s", code, stderr)
	}
	if c, err := daemon.LoadConfig(empty); err != nil || len(c.Blogs) != 6 {
		t.Errorf("into a config without blogs: %v, %v", c, err)
	}
}

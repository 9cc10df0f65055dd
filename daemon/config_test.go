package daemon_test

import (
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/daemon"
	"github.com/blogharvest/blogharvest/harvest"
)

func TestExampleConfigIsValid(t *testing.T) {
	c, err := daemon.LoadConfig("../blogs.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Blogs) != 3 {
		t.Fatalf("got %d blogs, want 3", len(c.Blogs))
	}
	b := c.Blogs[1]
	if b.Schedule != "30 */6 * * *" || b.Render != "auto" || time.Duration(b.Delay) != time.Second || b.MaxPages != 5000 {
		t.Errorf("defaults not applied: %+v", b)
	}
	if c.Blogs[2].Render != "always" {
		t.Errorf("blog value overridden by defaults: %q", c.Blogs[2].Render)
	}
	if b.MaxURLs != 100_000 || b.MaxSitemapBytes != 64<<20 || b.MaxComments != 100_000 || b.MaxCommentsPerAnswer != 1_000 || b.MaxCommentBytes != 32<<20 || b.MaxCommentAnswer != 8<<20 {
		t.Errorf("bounds not as the example states: max_urls %d, max_sitemap_bytes %d, max_comments_per_post %d, max_comments_per_answer %d, max_comment_bytes %d",
			b.MaxURLs, b.MaxSitemapBytes, b.MaxComments, b.MaxCommentsPerAnswer, b.MaxCommentBytes)
	}
	bare, err := daemon.ParseConfig("bare.yaml", []byte("blogs:\n  - id: a\n    url: https://x.org/\n    max_comment_bytes: 512KB\n"))
	if err != nil {
		t.Fatal(err)
	}
	if b := bare.Blogs[0]; b.MaxURLs != harvest.DefaultMaxURLs || b.MaxComments != harvest.DefaultMaxComments || b.MaxCommentBytes != 512<<10 {
		t.Errorf("built-in bounds: max_urls %d, max_comments_per_post %d, max_comment_bytes %d (512KB given)", b.MaxURLs, b.MaxComments, b.MaxCommentBytes)
	}
}

// TestConfigModesAndOnPublish: file_mode and dir_mode, unquoted octal
// as YAML has it, reach the AIP writer's modes; on_publish is read as a
// list or as one program.
func TestConfigModesAndOnPublish(t *testing.T) {
	c, err := daemon.ParseConfig("test.yaml", []byte("file_mode: 0640\ndir_mode: 02750\non_publish: [sh, -c, \"exit 0\"]\n"+
		"blogs:\n  - id: a\n    url: https://a.example.org/\n"))
	if err != nil {
		t.Fatal(err)
	}
	if m := c.Modes(); m.File != 0o640 || m.Dir != 0o750|fs.ModeSetgid {
		t.Errorf("modes %v %v, want 0640 and 02750", m.File, m.Dir)
	}
	if len(c.OnPublish) != 3 || c.OnPublish[2] != "exit 0" {
		t.Errorf("on_publish %q", c.OnPublish)
	}
	c, err = daemon.ParseConfig("test.yaml", []byte("on_publish: true\nblogs:\n  - id: a\n    url: https://a.example.org/\n"))
	if err != nil || len(c.OnPublish) != 1 || c.OnPublish[0] != "true" || c.Modes() != (aip.Modes{}) {
		t.Errorf("on_publish: true: %q, %v, %v", c.OnPublish, c.Modes(), err)
	}
}

// TestConfigErrors checks that each kind of bad config is reported naming
// the line, the blog, the key and the reason.
func TestConfigErrors(t *testing.T) {
	const ok = "  - id: good\n    url: https://good.example.org/\n"
	cases := []struct {
		name, yaml string
		line       int
		blog, key  string
		reason     string
	}{
		{"unknown top key", "archiv: x\nblogs:\n" + ok, 1, "", "archiv", "unknown key"},
		{"unknown default key", "defaults:\n  shedule: x\nblogs:\n" + ok, 2, "", "defaults.shedule", "unknown key"},
		{"unknown blog key", "blogs:\n" + ok + "    feeed: https://x.org/\n", 4, "good", "feeed", "unknown key"},
		{"duplicate id", "blogs:\n" + ok + ok, 4, "good", "id", "duplicate id"},
		{"unsafe id", "blogs:\n  - id: ../etc\n    url: https://x.org/\n", 2, "../etc", "id", "must start with a lowercase letter"},
		{"id with slash", "blogs:\n  - id: a/b\n    url: https://x.org/\n", 2, "a/b", "id", "only a-z"},
		{"id ending in a dot", "blogs:\n  - id: bad.\n    url: https://x.org/\n", 2, "bad.", "id", "must not end with '.'"},
		{"id with an empty token", "blogs:\n  - id: a..b\n    url: https://x.org/\n", 2, "a..b", "id", `must not hold ".."`},
		{"missing id", "blogs:\n  - url: https://x.org/\n", 2, "blogs[0]", "id", "empty id"},
		{"bad url", "blogs:\n  - id: a\n    url: ftp://x.org/\n", 3, "a", "url", "not an http(s) URL"},
		{"missing url", "blogs:\n  - id: a\n", 2, "a", "url", "missing"},
		{"bad feed", "blogs:\n  - id: a\n    url: https://x.org/\n    feed: x.org/feed\n", 4, "a", "feed", "not an http(s) URL"},
		{"bad cron", "blogs:\n  - id: a\n    url: https://x.org/\n    schedule: \"61 * * * *\"\n", 4, "a", "schedule", "61"},
		{"bad descriptor", "blogs:\n  - id: a\n    url: https://x.org/\n    schedule: \"@every fortnight\"\n", 4, "a", "schedule", "fortnight"},
		{"bad zone", "blogs:\n  - id: a\n    url: https://x.org/\n    time_zone: Mars/Olympus\n", 4, "a", "time_zone", "not an IANA time zone"},
		{"bad render", "blogs:\n  - id: a\n    url: https://x.org/\n    render: sometimes\n", 4, "a", "render", "not auto, always or never"},
		{"bad delay", "blogs:\n  - id: a\n    url: https://x.org/\n    delay: soon\n", 4, "a", "delay", "not a duration"},
		{"bad number", "blogs:\n  - id: a\n    url: https://x.org/\n    max_pages: lots\n", 4, "a", "max_pages", "cannot unmarshal"},
		{"bad regexp", "blogs:\n  - id: a\n    url: https://x.org/\n    exclude: [\"(\"]\n", 4, "a", "exclude", "not a valid regular expression"},
		{"no blogs", "archive: x\n", 0, "", "blogs", "no blog registered"},
		{"bad log format", "log: {format: xml}\nblogs:\n" + ok, 1, "", "log.format", "neither text nor json"},
		{"bad max_duration", "blogs:\n  - id: a\n    url: https://x.org/\n    max_duration: forever\n", 4, "a", "max_duration", "not a duration"},
		{"bad max_crawl_delay", "blogs:\n  - id: a\n    url: https://x.org/\n    max_crawl_delay: -1s\n", 4, "a", "max_crawl_delay", "not a duration"},
		{"bad file_mode", "archive: x\nfile_mode: rw-r-----\nblogs:\n" + ok, 2, "", "file_mode", "not an octal mode"},
		{"file_mode the owner cannot write", "file_mode: \"0444\"\nblogs:\n" + ok, 1, "", "file_mode", "read and write"},
		{"dir_mode the owner cannot enter", "dir_mode: 0640\nblogs:\n" + ok, 1, "", "dir_mode", "enter"},
		{"modes on S3", "archive: s3://bucket/p\ndir_mode: 0750\nblogs:\n" + ok, 2, "", "dir_mode", "no modes"},
		{"on_publish not found", "on_publish: [/no/such/ingest, -v]\nblogs:\n" + ok, 1, "", "on_publish", "cannot be run"},
		{"on_publish a mapping", "on_publish: {cmd: x}\nblogs:\n" + ok, 1, "", "on_publish", "a command is"},
		{"bad max_sitemap_bytes", "blogs:\n  - id: a\n    url: https://x.org/\n    max_sitemap_bytes: huge\n", 4, "a", "max_sitemap_bytes", "not a size"},
		{"zero max_urls", "blogs:\n  - id: a\n    url: https://x.org/\n    max_urls: 0\n", 4, "a", "max_urls", "must be at least 1"},
		{"zero max_comments_per_post", "blogs:\n  - id: a\n    url: https://x.org/\n    max_comments_per_post: 0\n", 4, "a", "max_comments_per_post", "must be at least 1"},
		{"negative max_comments_per_answer", "blogs:\n  - id: a\n    url: https://x.org/\n    max_comments_per_answer: -5\n", 4, "a", "max_comments_per_answer", "must be at least 1"},
		{"zero max_comment_bytes", "blogs:\n  - id: a\n    url: https://x.org/\n    max_comment_bytes: 0MB\n", 4, "a", "max_comment_bytes", "must be at least 1"},
		{"zero render_timeout", "blogs:\n  - id: a\n    url: https://x.org/\n    render_timeout: 0s\n", 4, "a", "render_timeout", "must be positive"},
		{"bad obey_crawl_delay", "blogs:\n  - id: a\n    url: https://x.org/\n    obey_crawl_delay: always\n", 4, "a", "obey_crawl_delay", "neither capped nor strict"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := wantProblem(t, tc.yaml, tc.line, tc.blog, tc.key, tc.reason)
			if !strings.Contains(err.Error(), "test.yaml") {
				t.Errorf("message does not name the file: %v", err)
			}
		})
	}
}

// wantProblem parses yaml as test.yaml and fails unless the config error
// holds a problem of key, blog and a reason containing reason, at line
// (any line when line is 0). It returns the error.
func wantProblem(t *testing.T, yaml string, line int, blog, key, reason string) error {
	t.Helper()
	_, err := daemon.ParseConfig("test.yaml", []byte(yaml))
	var ce *daemon.ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want *ConfigError", err)
	}
	for _, p := range ce.Problems {
		if p.Key == key && p.Blog == blog && strings.Contains(p.Reason, reason) && (line == 0 || p.Line == line) {
			return err
		}
	}
	t.Errorf("no problem with line %d, blog %q, key %q, reason ~%q in:\n%v", line, blog, key, reason, err)
	return err
}

func TestConfigReportsAllProblemsAtOnce(t *testing.T) {
	y := `archiv: x
blogs:
  - id: a
    url: ftp://a.org/
    schedule: "nope"
  - id: a
    url: https://b.org/
    render: maybe
`
	_, err := daemon.ParseConfig("all.yaml", []byte(y))
	var ce *daemon.ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v", err)
	}
	want := []string{"archiv", "url", "schedule", "id", "render"}
	if len(ce.Problems) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%v", len(ce.Problems), len(want), err)
	}
	for i, p := range ce.Problems {
		if p.Key != want[i] {
			t.Errorf("problem %d is about %q, want %q (%v)", i, p.Key, want[i], p)
		}
	}
}

// A bad value under defaults is one problem at its own line, not one per
// blog at the blog's line; a blog that sets the key itself is still checked.
func TestConfigDefaultsErrorReportedOnce(t *testing.T) {
	y := "defaults:\n  render: sometimes\n  schedule: \"61 * * * *\"\n  delay: soon\nblogs:\n" +
		"  - id: a\n    url: https://a.example.org/\n" +
		"  - id: b\n    url: https://b.example.org/\n" +
		"  - id: c\n    url: https://c.example.org/\n    render: never\n    schedule: \"@every x\"\n"
	_, err := daemon.ParseConfig("test.yaml", []byte(y))
	var ce *daemon.ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want *ConfigError", err)
	}
	got := map[string]int{}
	for _, p := range ce.Problems {
		got[fmt.Sprintf("%d %s %s", p.Line, p.Blog, p.Key)]++
	}
	want := map[string]int{"2  defaults.render": 1, "3  defaults.schedule": 1, "4  defaults.delay": 1, "13 c schedule": 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems (line blog key):\n got %v\nwant %v\n%v", got, want, err)
	}
}

// An unknown top-level key lists the known keys, none of them empty.
func TestConfigUnknownKeyListsNames(t *testing.T) {
	err := wantProblem(t, "archiv: x\nblogs:\n  - id: a\n    url: https://a.example.org/\n", 1, "", "archiv", "unknown key")
	msg := err.Error()
	if strings.Contains(msg, ", )") || strings.Contains(msg, "(known: ,") || strings.Contains(msg, ", ,") ||
		!strings.Contains(msg, "archive, ") {
		t.Errorf("the known keys are listed badly: %v", msg)
	}
}

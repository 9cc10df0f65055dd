package daemon_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon"
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

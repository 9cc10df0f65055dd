package daemon

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestPublicText(t *testing.T) {
	dir := t.TempDir()
	c := &Config{Archive: filepath.Join(dir, "archive"), State: filepath.Join(dir, "state", "schedule.db")}
	msg := "archive blog raw: open " + filepath.Join(dir, "archive", "raw", "blog") + ": not a directory; " +
		"state " + filepath.Join(dir, "state", "schedule.db") + " locked; ca file /etc/ssl/extra.pem unreadable; " +
		"fetch https://blog.example/a/b: 404"
	got := publicText(msg, c)
	want := "archive blog raw: open {archive}/raw/blog: not a directory; state {state}/schedule.db locked; " +
		"ca file …/extra.pem unreadable; fetch https://blog.example/a/b: 404"
	if got != want {
		t.Errorf("publicText:\n got %s\nwant %s", got, want)
	}
	if strings.Contains(got, dir) {
		t.Error("a local path is left")
	}
}

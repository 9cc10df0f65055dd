package daemon

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestProgressItem draws the report/export progress line on a terminal,
// at most ten times a second, shortening long names from the left, and
// draws nothing elsewhere.
func TestProgressItem(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, tty: true, start: time.Now()}
	long := "sample/entries/2013/" + strings.Repeat("x", 80) + "/v1"
	p.item("export", "AIPs read", long)
	p.item("export", "AIPs read", "second") // within 100 ms: not drawn
	if got := b.String(); !strings.HasPrefix(got, "\r\033[Kexport: 1 AIPs read, 0s  …") || !strings.HasSuffix(got, "xx/v1") || strings.Contains(got, "second") {
		t.Errorf("progress line %q", got)
	}
	p.last = time.Time{}
	p.item("export", "AIPs read", "third")
	if !strings.Contains(b.String(), "export: 3 AIPs read") {
		t.Errorf("progress line %q", b.String())
	}
	p.done()
	if !strings.HasSuffix(b.String(), "\r\033[K") {
		t.Error("done does not clear the line")
	}
	var quiet bytes.Buffer
	q := newProgress(&quiet)
	q.item("report", "AIPs read", "x")
	q.done()
	if quiet.Len() != 0 {
		t.Errorf("not a terminal, yet %q", quiet.String())
	}
}

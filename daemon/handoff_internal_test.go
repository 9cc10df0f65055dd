package daemon

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/aip"
)

// TestHandoffLateLines: the on_publish delivery calls the command once
// per line of the publication log, in the log's order, also for a line
// that becomes visible after a later-named one was delivered (two
// writers); the cursor it saves lets a new delivery (a restart) call
// nothing again, and From settles only on lines older than
// handoffSettle.
func TestHandoffLateLines(t *testing.T) {
	t.Parallel()
	root, out := t.TempDir(), filepath.Join(t.TempDir(), "calls")
	st := &aip.Local{Root: root}
	now := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	put := func(ago time.Duration, bag string) {
		t.Helper()
		at := now.Add(-ago)
		line, _ := json.Marshal(aip.Publication{Time: at, Blog: "b", Kind: "entry", Path: bag, Location: bag})
		name := aip.PublicationName(at) + "-" + strings.ReplaceAll(bag, "/", "") + ".json"
		if err := st.PutRecord(context.Background(), name, line); err != nil {
			t.Fatal(err)
		}
	}
	newHandoff := func() *handoff {
		h := &handoff{cmd: Command{"sh", "-c", `printf '%s\n' "$1" >> "$0"`, out}, store: func() aip.Store { return st },
			file: filepath.Join(t.TempDir(), handoffFile), log: slog.New(slog.DiscardHandler), now: func() time.Time { return now },
			read: map[string]aip.PublishedRecord{}}
		return h
	}
	calls := func() string {
		b, _ := os.ReadFile(out)
		return strings.ReplaceAll(strings.TrimSpace(string(b)), root+string(filepath.Separator), "")
	}
	h := newHandoff()
	put(30*time.Minute, "b/old/v1")
	put(2*time.Minute, "b/late/v1")                                                 // named before the next, visible after it
	os.Rename(filepath.Join(root, ".publications"), filepath.Join(root, ".hidden")) // not visible yet
	put(time.Minute, "b/new/v1")
	if err := h.deliver(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := calls(); got != "b/new/v1" {
		t.Fatalf("first pass: %q", got)
	}
	// the two older lines become visible
	hidden, _ := filepath.Glob(filepath.Join(root, ".hidden", "*", "*", "*", "*.json"))
	for _, f := range hidden {
		rel, _ := filepath.Rel(filepath.Join(root, ".hidden"), f)
		os.Rename(f, filepath.Join(root, ".publications", rel))
	}
	if err := h.deliver(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := calls(); got != "b/new/v1\nb/old/v1\nb/late/v1" {
		t.Fatalf("after the late lines appeared: %q", got)
	}
	if !strings.Contains(h.cursor.From, "-bo") || len(h.cursor.Delivered) != 2 {
		t.Errorf("cursor %+v: want From at the line 30 minutes old, the two recent ones in Delivered", h.cursor)
	}
	h2 := newHandoff()
	h2.file = h.file
	if err := h2.load(); err != nil {
		t.Fatal(err)
	}
	if err := h2.deliver(context.Background()); err != nil || calls() != "b/new/v1\nb/old/v1\nb/late/v1" {
		t.Errorf("a restart called again: %q, %v", calls(), err)
	}
}

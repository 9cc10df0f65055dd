package blogharvest_test

import (
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
)

// TestBreakParentCycles: reply cycles of two and three comments, a
// comment answering itself and a chain leading into a cycle each lose
// exactly one parent link, that of the comment added first; every comment
// is kept, the reply counts follow, and the entry then validates.
func TestBreakParentCycles(t *testing.T) {
	at := func(min int) time.Time { return time.Date(2026, 3, 1, 10, min, 0, 0, time.UTC) }
	c := func(id, parent string, min int) blogharvest.Comment {
		return blogharvest.Comment{ID: id, ParentID: parent, Content: "text of " + id, Author: "a", Added: at(min),
			PostURL: "https://blog.example/p/", ContentFormat: "text/html"}
	}
	e := &blogharvest.Entry{BlogID: "b", URL: "https://blog.example/p/", Title: "T", Kind: "post", Comments: []blogharvest.Comment{
		c("comment-12", "comment-11", 2), c("comment-11", "comment-12", 1), // 11 came first: it answers the post
		c("c1", "c3", 5), c("c2", "c1", 3), c("c3", "c2", 4), // the 3-cycle: c2 is the oldest
		c("self", "self", 6),
		c("tail", "c3", 7), c("ok", "", 8), c("reply", "ok", 9),
	}}
	if err := e.Validate(); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Fatalf("before: Validate = %v, want a cycle", err)
	}
	broken := e.BreakParentCycles()
	if len(broken) != 3 {
		t.Fatalf("%d links broken, want 3: %q", len(broken), broken)
	}
	want := map[string]string{"comment-12": "comment-11", "comment-11": "", "c1": "c3", "c2": "", "c3": "c2",
		"self": "", "tail": "c3", "ok": "", "reply": "ok"}
	if len(e.Comments) != len(want) {
		t.Fatalf("%d comments, want %d", len(e.Comments), len(want))
	}
	for _, cm := range e.Comments {
		if cm.ParentID != want[cm.ID] {
			t.Errorf("%s answers %q, want %q", cm.ID, cm.ParentID, want[cm.ID])
		}
		if cm.ParentID == "" && cm.AddressedTo != "https://blog.example/p/" && (cm.ID == "c2" || cm.ID == "comment-11") {
			t.Errorf("%s addressed to %q, want the post", cm.ID, cm.AddressedTo)
		}
	}
	for _, b := range broken {
		if !strings.Contains(b, "reply cycle") {
			t.Errorf("note %q does not say why", b)
		}
	}
	if !strings.Contains(strings.Join(broken, "\n"), "of 3 comment(s): the parent link of c2 (to c1)") {
		t.Errorf("notes %q do not name the 3-cycle's broken link", broken)
	}
	if err := e.Validate(); err != nil {
		t.Errorf("after: %v", err)
	}
	if again := e.BreakParentCycles(); again != nil {
		t.Errorf("a second pass broke %q", again)
	}
}

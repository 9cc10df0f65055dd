package render

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
)

func node(id, origin string, kids ...*page.FrameTree) *page.FrameTree {
	return &page.FrameTree{Frame: &cdp.Frame{ID: cdp.FrameID(id), SecurityOrigin: origin}, ChildFrames: kids}
}

// TestFlattenRoots checks which frames are inlined into which serialisation:
// a frame goes with its parent's root only when it has that root's origin.
func TestFlattenRoots(t *testing.T) {
	const a, b = "http://a.test", "http://b.test"
	tree := node("top", a,
		node("a1", a, node("a1b", b, node("a1bb", b), node("a1ba", a))),
		node("b1", b, node("b1a", a)),
		node("sandboxed", "null"),
	)
	want := map[string]string{
		"top": "top", "a1": "top", "a1b": "a1b", "a1bb": "a1b", "a1ba": "a1ba",
		"b1": "b1", "b1a": "b1a", "sandboxed": "sandboxed",
	}
	got := flatten(tree)
	var order []string
	for _, n := range got {
		order = append(order, string(n.frame.ID))
		if w := want[string(n.frame.ID)]; string(n.root.frame.ID) != w {
			t.Errorf("frame %s: root %s, want %s", n.frame.ID, n.root.frame.ID, w)
		}
	}
	if s := strings.Join(order, " "); s != "top a1 a1b a1bb a1ba b1 b1a sandboxed" {
		t.Errorf("order %s, want document order", s)
	}
}

func TestCallExpr(t *testing.T) {
	got, err := callExpr("// comment\n// more\n(function (a, b) { return a + b; })\n", []any{"x\"y", []string{"p"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `((function (a, b) { return a + b; }))("x\"y",["p"])`; got != want {
		t.Errorf("callExpr = %s, want %s", got, want)
	}
}

func TestReserve(t *testing.T) {
	for _, c := range []struct{ budget, want time.Duration }{
		{30 * time.Second, 5 * time.Second},
		{8 * time.Second, 2 * time.Second},
		{3 * time.Second, time.Second},
		{time.Second, 500 * time.Millisecond},
	} {
		if got := reserve(c.budget); got != c.want {
			t.Errorf("reserve(%s) = %s, want %s", c.budget, got, c.want)
		}
	}
}

func TestOptionsDefaults(t *testing.T) {
	o := Options{}.withDefaults()
	if o.Tabs != 2 || o.Timeout != 30*time.Second || o.IdleTime != 500*time.Millisecond || o.MaxClicks != 30 || o.Logger == nil {
		t.Errorf("defaults: %+v", o)
	}
	if o := (Options{MaxClicks: -1}).withDefaults(); o.MaxClicks != -1 {
		t.Errorf("MaxClicks -1 became %d", o.MaxClicks)
	}
}

func TestBehavioursCopy(t *testing.T) {
	bs := Behaviours()
	bs[0].Selectors[0] = "changed"
	if Behaviours()[0].Selectors[0] == "changed" {
		t.Error("Behaviours returns the table itself")
	}
	if sels := selectors([]string{".x"}); sels[len(sels)-1] != ".x" {
		t.Errorf("extra selectors not last: %v", sels)
	}
}

package render

import (
	"context"
	"errors"
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
	for _, c := range []struct{ budget, est, want time.Duration }{
		{30 * time.Second, 0, 5 * time.Second},
		{8 * time.Second, 0, 2 * time.Second},
		{3 * time.Second, 0, time.Second},
		{time.Second, 0, 500 * time.Millisecond},
		{30 * time.Second, 4 * time.Second, 8 * time.Second},   // a slow capture: twice its estimate
		{30 * time.Second, 10 * time.Second, 15 * time.Second}, // but at most half the budget
		{8 * time.Second, 500 * time.Millisecond, 2 * time.Second},
	} {
		if got := reserve(c.budget, c.est); got != c.want {
			t.Errorf("reserve(%s, %s) = %s, want %s", c.budget, c.est, got, c.want)
		}
	}
}

// TestCaptureCost: the estimate follows a slower capture at once, scales
// with the screenshot's height and comes down slowly after faster ones.
func TestCaptureCost(t *testing.T) {
	var c captureCost
	if got := c.estimate(0); got != defaultUnitCost {
		t.Errorf("estimate before any capture = %s, want %s", got, defaultUnitCost)
	}
	c.observe(9*time.Second, 17000) // 18 units: 500ms each
	if got := c.estimate(17000); got != 9*time.Second {
		t.Errorf("estimate of the same page = %s, want the 9s it took", got)
	}
	if got := c.estimate(1000); got != time.Second {
		t.Errorf("estimate of a page 1000 px high = %s, want 2 units of 500ms", got)
	}
	c.observe(100*time.Millisecond, 0) // a quick page: 100ms a unit
	if got := c.estimate(0); got != 450*time.Millisecond {
		t.Errorf("estimate after a quicker capture = %s, want 500ms less an eighth of 400ms", got)
	}
	c.observe(3*time.Second, 1000) // slower again: 1.5s a unit
	if got := c.estimate(0); got != 1500*time.Millisecond {
		t.Errorf("estimate after a slower capture = %s, want its 1.5s at once", got)
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

// TestScrollNote: autoscroll notes a stop before a frame's bottom, at the
// screen limit or on the scroll script's error, but not a stop at the
// bottom nor one the settling's deadline made (settle notes that).
func TestScrollNote(t *testing.T) {
	scriptErr := errors.New("script: TypeError: boom")
	for _, c := range []struct {
		what    string
		screens int
		bottom  bool
		err     error
		ctxErr  error
		want    string
	}{
		{what: "page", screens: 3, bottom: true},
		{what: "page", screens: maxScrolls, bottom: true},
		{what: "page", screens: maxScrolls, want: "scrolling stopped at the limit of 40 screens, before the page's bottom: lazy images and comments further down may be missing"},
		{what: "page", screens: 7, err: scriptErr, want: "scrolling stopped after 7 screens, before the page's bottom: script: TypeError: boom: lazy images and comments further down may be missing"},
		{what: "page", screens: 7, err: context.DeadlineExceeded, ctxErr: context.DeadlineExceeded},
		{what: "page", screens: 12, ctxErr: context.DeadlineExceeded},
		{what: "frame", screens: 0, bottom: true},
		{what: "frame", screens: maxScrolls, want: "scrolling stopped at the limit of 40 screens, before the frame's bottom: lazy images and comments further down may be missing"},
		{what: "frame", screens: 2, err: scriptErr, want: "scrolling stopped after 2 screens, before the frame's bottom: script: TypeError: boom: lazy images and comments further down may be missing"},
		{what: "frame", screens: 5, ctxErr: context.Canceled},
	} {
		if got := scrollNote(c.what, c.screens, c.bottom, c.err, c.ctxErr); got != c.want {
			t.Errorf("scrollNote(%q, %d, %v, %v, %v) = %q, want %q", c.what, c.screens, c.bottom, c.err, c.ctxErr, got, c.want)
		}
	}
}

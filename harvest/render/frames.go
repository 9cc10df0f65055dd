package render

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

var (
	//go:embed js/click.js
	clickJS string
	//go:embed js/scroll.js
	scrollJS string
	//go:embed js/serialize.js
	serializeJS string
)

// worldName names the isolated world the scripts of this package run in:
// they share the page's DOM but not its JavaScript globals.
const worldName = "blogharvest"

// frameNode is one frame of the page with the frame whose serialisation
// holds its document (root): itself, or the nearest ancestor of the same
// origin reached through same-origin frames only.
type frameNode struct {
	frame *cdp.Frame
	root  *frameNode
}

// worlds runs scripts in one isolated world per frame of a tab, created on
// first use.
type worlds struct {
	ids map[cdp.FrameID]runtime.ExecutionContextID
}

func newWorlds() *worlds {
	return &worlds{ids: map[cdp.FrameID]runtime.ExecutionContextID{}}
}

// frames lists the frames of the page, main frame first, in document order.
func frames(ctx context.Context) ([]*frameNode, error) {
	var tree *page.FrameTree
	err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		tree, err = page.GetFrameTree().Do(ctx)
		return err
	}))
	if err != nil {
		return nil, fmt.Errorf("frame tree: %w", err)
	}
	return flatten(tree), nil
}

// flatten lists the frames of tree in document order and finds the root of
// each: a frame's document is serialised with its root's when it has the
// root's origin and every frame between them does too, as the script reads
// exactly the iframes whose contentDocument it may access.
func flatten(tree *page.FrameTree) []*frameNode {
	var out []*frameNode
	var walk func(t *page.FrameTree, parent *frameNode)
	walk = func(t *page.FrameTree, parent *frameNode) {
		n := &frameNode{frame: t.Frame}
		n.root = n
		if parent != nil && t.Frame.SecurityOrigin == parent.root.frame.SecurityOrigin {
			n.root = parent.root
		}
		out = append(out, n)
		for _, c := range t.ChildFrames {
			walk(c, n)
		}
	}
	walk(tree, nil)
	return out
}

// call runs script (a function expression) with args in frame id's isolated
// world and decodes its result into out.
func (w *worlds) call(ctx context.Context, id cdp.FrameID, script string, out any, args ...any) error {
	expr, err := callExpr(script, args)
	if err != nil {
		return err
	}
	var res *runtime.RemoteObject
	err = w.eval(ctx, id, expr, &res)
	if err != nil && worldGone(err) && ctx.Err() == nil {
		delete(w.ids, id) // the frame navigated: its world is gone
		err = w.eval(ctx, id, expr, &res)
	}
	if err != nil {
		return err
	}
	if out == nil || res == nil || res.Value == nil {
		return nil
	}
	return json.Unmarshal(res.Value, out)
}

// worldGone reports whether err says an isolated world no longer exists.
func worldGone(err error) bool {
	s := err.Error()
	return strings.Contains(s, "Cannot find context") || strings.Contains(s, "context was destroyed")
}

// eval evaluates expr in frame id's isolated world.
func (w *worlds) eval(ctx context.Context, id cdp.FrameID, expr string, res **runtime.RemoteObject) error {
	return chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		cid, err := w.world(ctx, id)
		if err != nil {
			return err
		}
		r, exc, err := runtime.Evaluate(expr).WithContextID(cid).WithReturnByValue(true).WithAwaitPromise(true).Do(ctx)
		if err != nil {
			return err
		}
		if exc != nil {
			return fmt.Errorf("script: %s", exceptionText(exc))
		}
		*res = r
		return nil
	}))
}

// world returns the isolated world of frame id, creating it if needed.
func (w *worlds) world(ctx context.Context, id cdp.FrameID) (runtime.ExecutionContextID, error) {
	if cid, ok := w.ids[id]; ok {
		return cid, nil
	}
	cid, err := page.CreateIsolatedWorld(id).WithWorldName(worldName).Do(ctx)
	if err != nil {
		return 0, fmt.Errorf("isolated world for frame %s: %w", id, err)
	}
	w.ids[id] = cid
	return cid, nil
}

// callExpr builds the expression calling script with args as JSON.
func callExpr(script string, args []any) (string, error) {
	var b strings.Builder
	b.WriteString("(")
	b.WriteString(strings.TrimSpace(stripComments(script)))
	b.WriteString(")(")
	for i, a := range args {
		j, err := json.Marshal(a)
		if err != nil {
			return "", fmt.Errorf("script argument: %w", err)
		}
		if i > 0 {
			b.WriteString(",")
		}
		b.Write(j)
	}
	b.WriteString(")")
	return b.String(), nil
}

// stripComments drops the leading // comment lines of a script file, so
// that the file's function expression can be called.
func stripComments(s string) string {
	for strings.HasPrefix(s, "//") {
		_, s, _ = strings.Cut(s, "\n")
	}
	return s
}

package learn

import (
	"strings"

	"golang.org/x/net/html"
)

// widgetAreas marks, for each element of d, whether it lies in a sidebar
// or a widget that does not hold the article element (index article). The
// post's own date is never there, while a widget (latest tweets, recent
// posts, a calendar) may show the same day on every page of a training
// set published on one day. Areas holding the article (a theme's
// "content-sidebar-wrap") are not widgets. Without an article (article <
// 0) nothing is marked.
func widgetAreas(d *bigramIndex, article int) []bool {
	if article < 0 || article >= len(d.els) {
		return nil
	}
	holds := make(map[int32]bool)
	for a := int32(article); a >= 0; a = d.parent[a] {
		holds[a] = true
	}
	in := make([]bool, len(d.els))
	for i := len(d.els) - 1; i >= 0; i-- { // post-order: parents come after their children
		p := d.parent[i]
		in[i] = p >= 0 && in[p] || !holds[int32(i)] && isWidgetArea(d.els[i])
	}
	return in
}

// isWidgetArea reports whether n's id or class names a sidebar or a widget.
func isWidgetArea(n *html.Node) bool {
	for _, a := range n.Attr {
		if a.Namespace != "" || a.Key != "id" && a.Key != "class" {
			continue
		}
		v := strings.ToLower(a.Val)
		if strings.Contains(v, "sidebar") {
			return true
		}
		for tok := range strings.FieldsSeq(v) {
			if tok == "widget" || strings.HasPrefix(tok, "widget_") || strings.HasPrefix(tok, "widget-") {
				return true
			}
		}
	}
	return false
}

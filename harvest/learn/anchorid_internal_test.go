package learn

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestAnchorIDPrefersPermalinkAnchor(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<ol><li id="comment-7"><article id="div-comment-7"><p>x</p></article></li>` +
		`<li><article id="div-comment-8"><p>y</p></article></li></ol>`))
	if err != nil {
		t.Fatal(err)
	}
	var arts []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "article" {
			arts = append(arts, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if got := anchorID(arts[0], "div-comment-7"); got != "comment-7" {
		t.Errorf("anchorID = %q, want comment-7 (the li's id)", got)
	}
	if got := anchorID(arts[1], "div-comment-8"); got != "div-comment-8" {
		t.Errorf("anchorID = %q, want div-comment-8 (no element carries comment-8)", got)
	}
}

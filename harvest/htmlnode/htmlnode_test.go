package htmlnode

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestAttrAndText(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<div id="c" data-n="3"><p>One  <b>two</b></p>
<svg xlink:href="x"></svg> three</div>`))
	if err != nil {
		t.Fatal(err)
	}
	var div *html.Node
	var find func(*html.Node)
	find = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "div" {
			div = n
		}
		for c := n.FirstChild; c != nil && div == nil; c = c.NextSibling {
			find(c)
		}
	}
	find(doc)
	if div == nil {
		t.Fatal("no div parsed")
	}
	if got := Attr(div, "data-n"); got != "3" {
		t.Errorf("Attr data-n = %q, want 3", got)
	}
	if got := Attr(div, "class"); got != "" {
		t.Errorf("Attr of a missing attribute = %q, want empty", got)
	}
	if got := Attr(div.LastChild.PrevSibling, "href"); got != "" {
		t.Errorf("Attr of a namespaced attribute = %q, want empty", got)
	}
	if got, want := Text(div), "One  two\n three"; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

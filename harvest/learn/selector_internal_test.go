package learn

import (
	"os"
	"strings"
	"testing"

	"github.com/antchfx/htmlquery"
	"github.com/antchfx/xpath"
	"golang.org/x/net/html"
)

// TestSelectorAgreesWithXPath generates the candidate rules of every
// element of a page (absolute and relative to an ancestor) and checks that
// the built-in selector and antchfx/xpath select the same nodes.
func TestSelectorAgreesWithXPath(t *testing.T) {
	data, err := os.ReadFile("testdata/wordpress.txtar")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	page := s[strings.Index(s, "-- test.html --")+16 : strings.Index(s, "-- want.json --")]
	root, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	walkElements(root, func(n *html.Node) bool {
		rels := []*html.Node{nil}
		if p := n.Parent; p != nil && p.Parent != nil && p.Parent.Type == html.ElementNode {
			rels = append(rels, p.Parent)
		}
		for _, rel := range rels {
			top := root
			if rel != nil {
				top = rel
			}
			for _, c := range candidates(n, rel) {
				compareSelectors(t, top, c.xpath)
				checked++
			}
		}
		return true
	})
	for _, x := range []string{"//div/p", "//li", "//*[@id='main']//p", "//span[@class='author vcard']",
		"//li/following-sibling::li[1]", "//ol/li[2]/preceding-sibling::li", "//cite/following-sibling::p[1]", "//h3/following-sibling::*[2]"} {
		compareSelectors(t, root, x)
	}
	if checked < 100 {
		t.Fatalf("only %d rules checked", checked)
	}
}

// compareSelectors evaluates x both ways from top.
func compareSelectors(t *testing.T, top *html.Node, x string) {
	t.Helper()
	sel, ok := parseSelector(x)
	if !ok {
		t.Fatalf("rule %q not parsed by the selector", x)
	}
	e, err := xpath.Compile(x)
	if err != nil {
		t.Fatalf("rule %q: %v", x, err)
	}
	want := htmlquery.QuerySelectorAll(top, e)
	got := sel.eval(top, false, nil)
	if len(got) != len(want) {
		t.Fatalf("rule %q: selector %d nodes, xpath %d", x, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("rule %q: node %d differs", x, i)
		}
	}
	if f := sel.eval(top, true, nil); len(want) > 0 && (len(f) != 1 || f[0] != want[0]) {
		t.Fatalf("rule %q: first differs", x)
	}
	if top.Parent == nil {
		ix := newIndex(top)
		if got := sel.eval(top, false, ix); len(got) != len(want) {
			t.Fatalf("rule %q: indexed selector %d nodes, xpath %d", x, len(got), len(want))
		}
		if f := sel.eval(top, true, ix); len(want) > 0 && (len(f) != 1 || f[0] != want[0]) {
			t.Fatalf("rule %q: indexed first differs", x)
		}
	}
}

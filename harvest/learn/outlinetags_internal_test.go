package learn

import (
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TestAtomFlags checks the table lookup of flags against tagFlagMap, for
// the names that have flags and for common names that have none.
func TestAtomFlags(t *testing.T) {
	names := []string{"div", "span", "a", "abbr", "article", "em", "time", "cite", "label", "del", "data", "datalist", "col", "colgroup", "h1", "head", "header"}
	for n := range tagFlagMap {
		names = append(names, n)
	}
	for _, n := range names {
		a := atom.Lookup([]byte(n))
		if a == 0 {
			continue
		}
		if got, want := atomFlags(a), tagFlagMap[n]; got != want {
			t.Errorf("atomFlags(%s) = %#x, want %#x", n, got, want)
		}
	}
}

// TestLookupAtom checks the cached lookup against atom.Lookup.
func TestLookupAtom(t *testing.T) {
	names := append([]string{"", "x", "divx", "a\x00", "\x00a", "DIV", "my-element", "blockquote", "figcaption", "noscript"}, commonTags...)
	for n := range tagFlagMap {
		names = append(names, n, n+"x", n[:len(n)-1])
	}
	for _, n := range names {
		if got, want := lookupAtom([]byte(n)), atom.Lookup([]byte(n)); got != want {
			t.Errorf("lookupAtom(%q) = %v, want %v", n, got, want)
		}
	}
}

// TestCachedAtom checks the names and flags atomCache holds.
func TestCachedAtom(t *testing.T) {
	for _, n := range commonTags {
		e, ok := cachedAtom([]byte(n))
		if a := atom.Lookup([]byte(n)); a == 0 || len(n) > 7 {
			if ok {
				t.Errorf("%s cached", n)
			}
			continue
		}
		if !ok || e.name != n || e.a != atom.Lookup([]byte(n)) || e.flags != tagFlagMap[n] {
			t.Errorf("cachedAtom(%s) = %+v, %v", n, e, ok)
		}
	}
}

// TestIsBlock checks isBlock against blockTags, with and without atoms.
func TestIsBlock(t *testing.T) {
	names := []string{"span", "a", "em", "br", "custom-el", "time"}
	for n := range blockTags {
		names = append(names, n)
	}
	for _, n := range names {
		want := blockTags[n]
		for _, a := range []atom.Atom{atom.Lookup([]byte(n)), 0, atom.Div, atom.Span} {
			if got := isBlock(&html.Node{Type: html.ElementNode, Data: n, DataAtom: a}); got != want {
				t.Errorf("isBlock(%s, atom %v) = %v, want %v", n, a, got, want)
			}
		}
	}
}

package learn

import (
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/textsim"
	"golang.org/x/net/html"
)

func TestBylineName(t *testing.T) {
	for in, want := range map[string]string{
		"Posted by Hal Brennan at 10:44 AM":                             "Hal Brennan",
		"By Ines Walcott, Staff Writer":                                 "Ines Walcott",
		"par Anne Roux le 2 août 2013":                                  "Anne Roux",
		"von Jens Ober | 3 Kommentare":                                  "Jens Ober",
		"Inspired by Bob's post on sourdough":                           "",
		"By the way, this post is very long and is not a byline at all": "",
		"Hal Brennan": "",
	} {
		if got := bylineName(in); got != want {
			t.Errorf("bylineName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAuthorOfPart(t *testing.T) {
	r := &Rule{Part: 1}
	for in, want := range map[string]string{
		"Seth Zenz | USLHC | USA": "Seth Zenz",
		"Seth Zenz":               "Seth Zenz",
		"By Ann Lee · Editor":     "Ann Lee",
	} {
		if got := authorOf(r, in, ""); got != want {
			t.Errorf("authorOf(%q) = %q, want %q", in, got, want)
		}
	}
	// issue 16, finding 3: a header "Title — Author, 2023" learned as part
	// 2 of 3; a title with a comma or a dash splits it otherwise.
	hdr := &Rule{Part: 2, Parts: 3}
	for _, c := range []struct{ in, title, want string }{
		{"Glue lines — Mira Olsen, 2023", "Glue lines", "Mira Olsen"},
		{"Dovetails, pins first — or tails? — Mira Olsen, 2023", "Dovetails, pins first — or tails?", "Mira Olsen"},
		{"Dovetails, pins first — Mira Olsen, 2023", "", ""}, // no title to take out: two names may be
		{"Dovetails — 2023, 2024", "Dovetails", ""},          // numbers are never authors
	} {
		if got := authorOf(hdr, c.in, c.title); got != c.want {
			t.Errorf("authorOf(%q, title %q) = %q, want %q", c.in, c.title, got, c.want)
		}
	}
	if got := partOf("CERN | Geneva | Switzerland", "CERN"); got != 1 {
		t.Errorf("partOf = %d, want 1", got)
	}
	if got := partOf("Dr. Ann Lee", "Ann Lee"); got != 0 {
		t.Errorf("partOf of a non-part = %d, want 0", got)
	}
}

func TestPathDate(t *testing.T) {
	for in, want := range map[string]string{
		"https://b.example/2013/08/28/slug/":    "2013-08-28",
		"https://b.example/blog/2013/08/28":     "2013-08-28",
		"https://b.example/2013/08/slug.html":   "",
		"https://b.example/2013/02/30/bad-day/": "",
		"https://b.example/p/1234/56/78/":       "",
		"https://b.example/?p=2013&m=08&d=28":   "",
	} {
		got := ""
		if d, ok := pathDate(in); ok {
			got = d.Format("2006-01-02")
		}
		if got != want {
			t.Errorf("pathDate(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestStartsBylineMatchesNaive checks startsByline, which looks at the
// first rune before lower-casing the text, against its first version.
func TestStartsBylineMatchesNaive(t *testing.T) {
	naive := func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.TextNode {
				continue
			}
			if t := strings.TrimSpace(c.Data); t != "" {
				low := strings.ToLower(textsim.Collapse(t) + " ")
				for _, p := range bylineStarts {
					if strings.HasPrefix(low, p) {
						return true
					}
				}
				return false
			}
		}
		return false
	}
	for _, text := range []string{"Posted by Ann", "  \n BY  Ann", "by", "By\u00a0Ann", "Écrit par Anne", "écrit  par Anne",
		"\xffby Ann", "b", "Door Jan", "VON\tKarl", "Published\nby x", "\u0130by", "Bygone days", "\u00a0by Ann", "   "} {
		n := &html.Node{Type: html.ElementNode, Data: "p"}
		n.AppendChild(&html.Node{Type: html.TextNode, Data: text})
		if got, want := startsByline(n), naive(n); got != want {
			t.Errorf("startsByline(%q) = %v, want %v", text, got, want)
		}
	}
}

package learn_test

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/learn"
	"golang.org/x/net/html"
)

// TestParsedPageSameAsBytes checks that a page parsed once by ParsePage
// gives Learn and Extract what its bytes give, and that neither changes
// the tree, which the crawler's other readers share.
func TestParsedPageSameAsBytes(t *testing.T) {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".txtar")
		if !ok {
			continue
		}
		t.Run(name, func(t *testing.T) {
			pairs, page := casePairs(t, name)
			parsedPairs := make([]learn.Pair, len(pairs))
			for i, p := range pairs {
				parsedPairs[i] = learn.Pair{Page: mustParse(t, p.Page), Target: p.Target}
			}
			before := renderAll(t, parsedPairs)
			want, wantErr := learn.Learn(pairs, learn.Options{})
			got, gotErr := learn.Learn(parsedPairs, learn.Options{})
			if !reflect.DeepEqual(got, want) || (gotErr == nil) != (wantErr == nil) {
				t.Fatalf("Learn on parsed pages = %+v, %v; on bytes %+v, %v", got, gotErr, want, wantErr)
			}
			parsed := mustParse(t, page)
			beforeTest := render(t, parsed.Root)
			wantX, wantErr := want.Extract(page)
			gotX, gotErr := want.Extract(parsed)
			if !reflect.DeepEqual(gotX, wantX) || (gotErr == nil) != (wantErr == nil) {
				t.Fatalf("Extract on the parsed page = %+v, %v; on bytes %+v, %v", gotX, gotErr, wantX, wantErr)
			}
			if again, _ := want.Extract(parsed); !reflect.DeepEqual(again, wantX) {
				t.Fatalf("second Extract on the same tree = %+v, want %+v", again, wantX)
			}
			if render(t, parsed.Root) != beforeTest || !reflect.DeepEqual(renderAll(t, parsedPairs), before) {
				t.Fatal("Learn or Extract changed the parsed tree")
			}
		})
	}
}

// mustParse parses p with ParsePage.
func mustParse(t *testing.T, p learn.Page) learn.Page {
	t.Helper()
	parsed, err := learn.ParsePage(p.URL, p.HTML, p.Lang)
	if err != nil {
		t.Fatal(err)
	}
	return parsed
}

// renderAll renders the trees of pairs' pages.
func renderAll(t *testing.T, pairs []learn.Pair) []string {
	var out []string
	for _, p := range pairs {
		out = append(out, render(t, p.Page.Root))
	}
	return out
}

// render renders a tree.
func render(t *testing.T, n *html.Node) string {
	t.Helper()
	var b bytes.Buffer
	if err := html.Render(&b, n); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

package learn

import (
	"bytes"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// cleanedByCopy is the cleaning cleanHTML and cleanText stand for: a copy
// without what skip takes, cleaned by cleanNode (the code before them).
func cleanedByCopy(n *html.Node, skip func(*html.Node) bool, base *url.URL) (htm, text string) {
	c := cloneTree(n, skip)
	cleanNode(c, base)
	return innerHTML(c), nodeText(c)
}

// treeShape renders a tree with the identity of every node and attribute
// slice, so that a tree put back with other nodes or slices differs.
func treeShape(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		b.WriteString(n.Data)
		if len(n.Attr) > 0 {
			b.WriteString(strings.Repeat("a", len(n.Attr)))
			b.WriteString(n.Attr[0].Val)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Parent != n || c.NextSibling != nil && c.NextSibling.PrevSibling != c {
				b.WriteString("!links")
			}
			walk(c)
		}
		b.WriteString("/")
	}
	walk(n)
	return b.String()
}

// TestCleanInPlaceAsCopy: on every HTML file of the corpus and of
// testdata, for the body and each of its first elements (as the article),
// cleaned as cleanNode cleans and with every other child of the article
// left out as well (an article rule's Omit), cleanHTML and cleanText give
// what the cleaned copy gives, and the page's tree is as parsed after
// (rendered the same, the same nodes linked the same way).
func TestCleanInPlaceAsCopy(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus")
	}
	var files []string
	for _, dir := range []string{"../../../shared/corpus", "testdata"} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".html") {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) < 100 {
		t.Skipf("%d HTML files: corpus not found", len(files))
	}
	checked, changed := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		root, err := html.Parse(bytes.NewReader(data))
		if err != nil {
			continue
		}
		base, _ := url.Parse("https://example.org/" + filepath.ToSlash(f))
		var before bytes.Buffer
		html.Render(&before, root)
		shape := treeShape(root)
		var articles []*html.Node // the body and the first few likely articles
		walkElements(root, func(n *html.Node) bool {
			switch n.Data {
			case "body", "article", "main", "table", "div":
				if len(articles) < 4 || n.Data == "table" && len(articles) < 6 {
					articles = append(articles, n)
				}
			}
			return true
		})
		for _, a := range articles {
			k := 0
			odd := map[*html.Node]bool{}
			for c := a.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode {
					k++
					odd[c] = k%2 == 1
				}
			}
			for _, skip := range []func(*html.Node) bool{cleanedAway, func(c *html.Node) bool { return cleanedAway(c) || odd[c] }} {
				wantHTML, wantText := cleanedByCopy(a, skip, base)
				gotHTML := cleanHTML(a, skip, base)
				gotText := cleanText(a, skip)
				if gotHTML != wantHTML {
					t.Errorf("%s: <%s>: HTML cleaned in place differs from the copy's (%d vs %d bytes)", f, a.Data, len(gotHTML), len(wantHTML))
				}
				if gotText != wantText {
					t.Errorf("%s: <%s>: text differs from the copy's (%d vs %d bytes)", f, a.Data, len(gotText), len(wantText))
				}
				checked++
				var raw bytes.Buffer
				for c := a.FirstChild; c != nil; c = c.NextSibling {
					html.Render(&raw, c)
				}
				if strings.TrimSpace(raw.String()) != gotHTML {
					changed++
				}
			}
		}
		var after bytes.Buffer
		html.Render(&after, root)
		if after.String() != before.String() || treeShape(root) != shape {
			t.Errorf("%s: the tree is not put back as parsed", f)
		}
	}
	t.Logf("%d files, %d cleanings compared, %d of them changed the HTML", len(files), checked, changed)
	if checked == 0 || changed == 0 {
		t.Fatal("nothing compared, or no cleaning changed anything")
	}
}

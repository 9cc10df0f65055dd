package harvest

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/internal/lazyregexp"
	xnethtml "github.com/blogharvest/blogharvest/internal/xnet/html"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxPostPages bounds the further pages of one paginated post.
const maxPostPages = 50

// postPageRE matches the number of a post's own page (<post>/2/).
var postPageRE = lazyregexp.New(`^(\d+)/?$`)

// postPageLinks returns the URLs of a paginated post's further pages
// (WordPress <!--nextpage-->: <post>/2/, <post>/3/ …) that the page links
// to, in page order.
func postPageLinks(p *fetchedPage) []string {
	prefix := strings.TrimSuffix(p.ident, "/") + "/"
	byNum := map[int]string{}
	for _, l := range p.info.links {
		rest, ok := strings.CutPrefix(l.url, prefix)
		if !ok {
			continue
		}
		if m := postPageRE.FindStringSubmatch(rest); m != nil {
			if n, _ := strconv.Atoi(m[1]); n >= 2 && n <= maxPostPages {
				byNum[n] = l.url
			}
		}
	}
	var out []string
	for n := 2; n <= maxPostPages; n++ {
		if u, ok := byNum[n]; ok {
			out = append(out, u)
		}
	}
	return out
}

// appendPostPages fetches the further pages of a paginated post, appends
// their article to the entry's content and captures them; they are parts
// of the entry, never entries of their own.
func (w *pageWorker) appendPostPages(ctx context.Context, e *blogharvest.Entry, p *fetchedPage) {
	links := postPageLinks(p)
	if len(links) > 0 {
		e.Content = stripPageLinks(e.Content)
	}
	for _, u := range links {
		w.ledger.met(u, "link")
		if !w.claims.claim(u) {
			continue
		}
		w.ledger.set(u, FateDuplicate, "page of the paginated entry "+e.URL, "")
		sub, err := w.fetchPage(ctx, u)
		if err != nil {
			e.Problems = append(e.Problems, fmt.Sprintf("post page %s: %v", u, err))
			continue
		}
		ex, err := w.read.extract(w.read.learnPage(sub))
		if err != nil || ex.ContentHTML == "" {
			e.Problems = append(e.Problems, fmt.Sprintf("post page %s: no article extracted: %v", u, err))
		} else {
			e.Content += "\n" + stripPageLinks(ex.ContentHTML)
		}
		e.Files = append(e.Files, sub.resp.File(blogharvest.RolePage))
	}
}

// stripPageLinks removes a paginated post's page navigation (WordPress
// .page-links, .post-page-numbers) from article HTML: once the pages are
// joined it points nowhere.
func stripPageLinks(fragment string) string {
	if !strings.Contains(fragment, "page-links") && !strings.Contains(fragment, "post-page-numbers") {
		return fragment
	}
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := xnethtml.ParseFragment(strings.NewReader(fragment), body)
	if err != nil {
		return fragment
	}
	var b strings.Builder
	for _, n := range nodes {
		dropPageLinks(n)
		if !isPageLinks(n) {
			_ = html.Render(&b, n)
		}
	}
	return b.String()
}

// dropPageLinks removes the page-navigation descendants of n.
func dropPageLinks(n *html.Node) {
	for ch := n.FirstChild; ch != nil; {
		next := ch.NextSibling
		if isPageLinks(ch) {
			n.RemoveChild(ch)
		} else {
			dropPageLinks(ch)
		}
		ch = next
	}
}

// isPageLinks reports whether n is a paginated post's page navigation.
func isPageLinks(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	for _, a := range n.Attr {
		if a.Key == "class" && (hasRel(a.Val, "page-links") || hasRel(a.Val, "post-page-numbers")) {
			return true
		}
	}
	return false
}

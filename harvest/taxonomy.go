package harvest

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/comments"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/htmlnode"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/platform"
)

// fillTerms sets the entry's categories and tags: the feed item's
// categories, told apart and completed by the taxonomy links the page
// ties to the post (postTerms), with their provenance: feed when the feed
// gave a term of the list, heuristic when the page alone did.
func (w *pageWorker) fillTerms(e *blogharvest.Entry, it *feed.Item, p *fetchedPage, ex learn.Extraction) {
	var feedCats []string
	if it != nil {
		feedCats = it.Categories
	}
	pageCats, pageTags := postTerms(p, ex)
	e.Categories, e.Tags = mergeTerms(e.Categories, pageCats, pageTags)
	for _, f := range []struct {
		name  string
		terms []string
	}{{"categories", e.Categories}, {"tags", e.Tags}} {
		if len(f.terms) == 0 {
			continue
		}
		m := blogharvest.MethodHeuristic
		for _, t := range f.terms {
			if containsName(feedCats, t) {
				m = blogharvest.MethodFeed
				break
			}
		}
		e.Provenance.Set(f.name, m)
	}
}

// taxonomySegments are path segments under which platforms list a term's
// posts: a link into them from the post's header or footer names a term.
var taxonomySegments = map[string]string{
	"category": "category", "categories": "category",
	"tag": "tag", "tags": "tag", "tagged": "tag", "topic": "tag", "topics": "tag", "label": "tag", "labels": "tag",
}

// postTerms returns the category and tag names the page ties to its post:
// the links, in the element holding the extracted article (its nearest
// <article> or hentry ancestor, else the article's grandparent) but
// outside the article's text, asides, navigation and related-post boxes,
// that are marked rel="tag" or rel="category", or lead under a taxonomy
// segment (/tags/x/, /category/x/). Without an extracted article element
// the page's rel-marked links are read (taxonomyLinks).
func postTerms(p *fetchedPage, ex learn.Extraction) (cats, tags []string) {
	box := postBox(ex)
	if box == nil {
		return taxonomyLinks(p.info)
	}
	content := ex.ArticleNode
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			if ch.Type != html.ElementNode || ch == content {
				continue
			}
			switch ch.DataAtom {
			case atom.Aside, atom.Nav, atom.Script, atom.Style, atom.Form:
				continue
			case atom.A:
				kind := termKind(ch, p.url)
				name := strings.Join(strings.Fields(htmlnode.Text(ch)), " ")
				switch {
				case name == "" || kind == "":
				case kind == "category":
					cats = appendNew(cats, name)
				default:
					tags = appendNew(tags, name)
				}
				continue
			}
			if platform.IsBoilerplate(htmlnode.Attr(ch, "class")) || platform.IsBoilerplate(htmlnode.Attr(ch, "id")) || isCommentsBox(ch) {
				continue
			}
			walk(ch)
		}
	}
	walk(box)
	if len(cats) == 0 && len(tags) == 0 {
		return taxonomyLinks(p.info)
	}
	return cats, tags
}

// isCommentsBox reports whether n is a comment area (its id or class
// names comments): links there are the readers', not the post's terms.
func isCommentsBox(n *html.Node) bool {
	return comments.NamesComments(htmlnode.Attr(n, "id") + " " + htmlnode.Attr(n, "class"))
}

// termKind says whether an anchor names a category or a tag of the post,
// or neither ("").
func termKind(a *html.Node, base *url.URL) string {
	rel := strings.ToLower(htmlnode.Attr(a, "rel"))
	href := htmlnode.Attr(a, "href")
	u, err := base.Parse(href)
	if err != nil || href == "" || href[0] == '#' {
		return ""
	}
	seg := ""
	for _, s := range segments(u.Path) {
		if k, ok := taxonomySegments[strings.ToLower(s)]; ok {
			seg = k
			break
		}
	}
	switch {
	case hasRel(rel, "category") || hasRel(rel, "tag") && seg == "category":
		return "category"
	case hasRel(rel, "tag"):
		return "tag"
	case u.Host != base.Host || u.RawQuery != "":
		return ""
	}
	return seg
}

// postBox returns the element that holds the post around its extracted
// article: the article's nearest <article> or hentry ancestor (at most six
// levels up), else its grandparent; nil when the extraction has no element
// of the page.
func postBox(ex learn.Extraction) *html.Node {
	n := ex.ArticleNode
	if n == nil {
		return nil
	}
	for a, up := n.Parent, 0; a != nil && up < 6; a, up = a.Parent, up+1 {
		if a.Type == html.ElementNode && (a.DataAtom == atom.Article || hasRel(htmlnode.Attr(a, "class"), "hentry")) {
			return a
		}
	}
	if n.Parent != nil && n.Parent.Parent != nil && n.Parent.Parent.DataAtom != atom.Body && n.Parent.Parent.DataAtom != atom.Html {
		return n.Parent.Parent
	}
	return n.Parent
}

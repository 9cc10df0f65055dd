package learn

import (
	"net/url"
	"strings"

	"github.com/blogharvest/blogharvest/harvest/platform"
	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
)

// droppedTag reports whether elements named tag are removed from
// article HTML with their content.
func droppedTag(tag string) bool {
	switch tag {
	case "script", "style", "noscript", "template", "form", "button", "input", "select", "textarea", "link", "meta":
		return true
	}
	return false
}

// urlAttr reports whether the attribute named key holds one URL.
func urlAttr(key string) bool {
	switch key {
	case "href", "src", "poster", "data-src", "cite", "longdesc", "data-lazy-src":
		return true
	}
	return false
}

// cleanNode removes scripts, styles, forms, HTML comments, share and related
// boxes and event handlers under n (not n itself), promotes lazy-loaded image
// sources, and resolves relative URLs against base. It modifies the tree.
func cleanNode(n *html.Node, base *url.URL) { cleanTree(n, base) }

// cleanTree is cleanNode, reporting whether it may have changed the text
// of n (nodeText): it removed an element whose text or block shape counts.
func cleanTree(n *html.Node, base *url.URL) bool {
	changed := false
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		switch {
		case cleanedAway(c):
			n.RemoveChild(c)
			changed = changed || c.Type == html.ElementNode && (!textless(c.Data) || c.Namespace != "")
		case c.Type == html.ElementNode:
			cleanAttrs(c, base)
			changed = cleanTree(c, base) || changed
		}
		c = next
	}
	return changed
}

// cleanedAway reports whether cleanNode removes node c (below the node it
// cleans): a copy to be cleaned need not hold it.
func cleanedAway(c *html.Node) bool {
	return c.Type == html.CommentNode || c.Type == html.ElementNode && (droppedTag(c.Data) || isBoilerplate(c))
}

// textless reports whether dropped elements named tag add nothing to
// nodeText: their content is skipped and they do not break lines.
func textless(tag string) bool {
	switch tag {
	case "script", "style", "noscript", "template", "link", "meta", "input":
		return true
	}
	return false
}

// isBoilerplate reports whether element n is a share, related or similar
// box, by its id or class (the platform table's boilerplate words).
func isBoilerplate(n *html.Node) bool {
	return platform.IsBoilerplate(htmlnode.Attr(n, "id")) || platform.IsBoilerplate(htmlnode.Attr(n, "class"))
}

// cleanAttrs drops event handlers, promotes lazy image sources and resolves
// URLs of element n.
func cleanAttrs(n *html.Node, base *url.URL) {
	lazy := lazySrc(n)
	out := n.Attr[:0]
	for _, a := range n.Attr {
		if b, keep := cleanAttr(a, lazy, base); keep {
			out = append(out, b)
		}
	}
	n.Attr = out
}

// lazySrc returns the lazy-loaded source of element n (data-src,
// data-lazy-src), "" when it has none.
func lazySrc(n *html.Node) string {
	lazy := htmlnode.Attr(n, "data-src")
	if lazy == "" {
		lazy = htmlnode.Attr(n, "data-lazy-src")
	}
	return lazy
}

// cleanAttr returns attribute a as cleanAttrs leaves it, given the
// element's lazy source, and false when cleanAttrs drops it.
func cleanAttr(a html.Attribute, lazy string, base *url.URL) (html.Attribute, bool) {
	k := strings.ToLower(a.Key)
	switch {
	case strings.HasPrefix(k, "on"):
		return a, false
	case k == "src" && lazy != "" && (a.Val == "" || strings.HasPrefix(a.Val, "data:")):
		a.Val = lazy
	}
	if urlAttr(k) {
		a.Val = resolve(base, a.Val)
	} else if k == "srcset" || k == "data-srcset" {
		a.Val = resolveSrcset(base, a.Val)
	}
	return a, true
}

// cleanedAttrs returns the attributes cleanAttrs would leave n, in a new
// slice, and whether they differ from n's (false: n's are kept, nothing
// allocated).
func cleanedAttrs(n *html.Node, base *url.URL) ([]html.Attribute, bool) {
	lazy := lazySrc(n)
	var out []html.Attribute
	changed := false
	for i, a := range n.Attr {
		b, keep := cleanAttr(a, lazy, base)
		if !changed && (!keep || b != a) {
			changed = true
			out = append(make([]html.Attribute, 0, len(n.Attr)), n.Attr[:i]...)
		}
		if changed && keep {
			out = append(out, b)
		}
	}
	return out, changed
}

// cleanText returns nodeText of the copy of element n that cloneTree(n,
// skip) makes and cleanNode cleans, without making it: skip holds
// everything cleanNode removes (cleanedAway), and cleaning the attributes
// changes no text.
func cleanText(n *html.Node, skip func(*html.Node) bool) string {
	var w spaceWriter
	writeTextWithout(&w, n, skip)
	return string(w.b)
}

// cleanHTML returns innerHTML of the copy of n that cloneTree(n, skip)
// makes and cleanNode(…, base) cleans, without making it: n's subtree is
// cleaned in place (the children skip takes unlinked, every element's
// attributes cleaned in a slice of its own) and rendered, then put back
// as it was, the same nodes in the same places with the same attribute
// slices. skip must hold everything cleanNode removes (cleanedAway).
func cleanHTML(n *html.Node, skip func(*html.Node) bool, base *url.URL) string {
	var u cleanUndo
	defer u.restore()
	u.clean(n, skip, base)
	return innerHTML(n)
}

// cleanUndo records what cleanHTML changed in a tree, to put it back.
type cleanUndo struct {
	cut   []cutChild // in the order they were unlinked
	attrs []savedAttrs
}

// cutChild is a child unlinked from parent, next its next sibling then.
type cutChild struct{ parent, child, next *html.Node }

// savedAttrs are an element's attributes before cleaning.
type savedAttrs struct {
	n    *html.Node
	attr []html.Attribute
}

// clean cleans the subtree under n (not n itself) as cleanTree cleans a
// copy made by cloneTree(n, skip), recording each change.
func (u *cleanUndo) clean(n *html.Node, skip func(*html.Node) bool, base *url.URL) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		switch {
		case skip(c):
			u.cut = append(u.cut, cutChild{n, c, next})
			n.RemoveChild(c)
		case c.Type == html.ElementNode:
			if a, changed := cleanedAttrs(c, base); changed {
				u.attrs = append(u.attrs, savedAttrs{c, c.Attr})
				c.Attr = a
			}
			u.clean(c, skip, base)
		}
		c = next
	}
}

// restore puts the tree back: the unlinked children in the reverse order
// of their unlinking (each one's next sibling is then back in its place),
// and the attribute slices.
func (u *cleanUndo) restore() {
	for i := len(u.cut) - 1; i >= 0; i-- {
		k := u.cut[i]
		k.parent.InsertBefore(k.child, k.next)
	}
	for _, s := range u.attrs {
		s.n.Attr = s.attr
	}
}

// resolvePlainPath resolves, without parsing, the commonest reference:
// an absolute path of plain characters ("/category/x/") against an http
// or https base with a plain host, which comes out as base.Parse would
// give it; false for anything else.
func resolvePlainPath(base *url.URL, ref string) (string, bool) {
	if len(ref) < 1 || ref[0] != '/' || strings.HasPrefix(ref, "//") || strings.Contains(ref, "/.") ||
		base.Scheme != "http" && base.Scheme != "https" || base.User != nil || base.Opaque != "" || base.Host == "" {
		return "", false
	}
	if !plainChars(ref, &plainPath) || !plainChars(base.Host, &plainHost) {
		return "", false
	}
	return base.Scheme + "://" + base.Host + ref, true
}

// plainChars reports whether every byte of s is in the set.
func plainChars(s string, set *[256]bool) bool {
	for i := 0; i < len(s); i++ {
		if !set[s[i]] {
			return false
		}
	}
	return true
}

// plainPath and plainHost are the bytes of plain paths and hosts: ASCII
// letters and digits, and "-._~/" in paths, "-.:" in hosts.
var plainPath, plainHost = plainSet("-._~/"), plainSet("-.:")

// plainSet returns the set of ASCII letters, digits and the bytes of extra.
func plainSet(extra string) (set [256]bool) {
	for c := range 256 {
		set[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(extra, byte(c)) >= 0
	}
	return set
}

// resolve returns ref resolved against base; unparseable references and
// javascript: URLs come back empty.
func resolve(base *url.URL, ref string) string {
	ref = strings.TrimSpace(ref)
	if hasLowerPrefix(ref, "javascript:") {
		return ""
	}
	if base == nil || ref == "" || strings.HasPrefix(ref, "data:") || strings.HasPrefix(ref, "#") {
		return ref
	}
	if r, ok := resolvePlainPath(base, ref); ok {
		return r
	}
	u, err := base.Parse(ref)
	if err != nil {
		return ref
	}
	return u.String()
}

// hasLowerPrefix is strings.HasPrefix(strings.ToLower(s), prefix) for a
// prefix of lower-case ASCII without 'k', without lower-casing s: no rune
// but the ASCII letters lower-cases to an ASCII letter other than 'k'
// (the Kelvin sign's).
func hasLowerPrefix(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// resolveSrcset resolves every URL of a srcset value.
func resolveSrcset(base *url.URL, v string) string {
	parts := strings.Split(v, ",")
	for i, p := range parts {
		f := strings.Fields(p)
		if len(f) > 0 {
			f[0] = resolve(base, f[0])
			parts[i] = strings.Join(f, " ")
		}
	}
	return strings.Join(parts, ", ")
}

package main

import (
	"bytes"
	"net/url"
	"os"
	"strings"

	"github.com/blogharvest/blogharvest/harvest/feed"
	"golang.org/x/net/html"
)

// reachable returns the corpus files (by path) of the HTML pages reachable
// from seeds by following links (<a>, <area>, <link rel=next|prev>)
// through pages the corpus holds on the blog's hosts (corpus README
// "Evaluating discovery"). URLs are canonicalised as the crawler does
// (harvest.Canonical). Feeds are not followed.
func reachable(b *corpusBlog, seeds []string) map[string]bool {
	seen := map[string]bool{}
	queue := append([]string(nil), seeds...)
	for len(queue) > 0 {
		u := canonicalKey(queue[0]) // as the crawler sees it: Blogger country domains are .com
		queue = queue[1:]
		f := b.fileFor(u)
		if f == "" || seen[f] {
			continue
		}
		body, err := os.ReadFile(f)
		if err != nil || len(body) == 0 || feed.Sniff(body) {
			continue
		}
		seen[f] = true
		queue = append(queue, links(body, u)...)
	}
	return seen
}

// links returns the absolute http(s) URLs a page links to.
func links(page []byte, base string) []string {
	bu, err := url.Parse(base)
	if err != nil {
		return nil
	}
	var out []string
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return out
		case html.StartTagToken, html.SelfClosingTagToken:
			if href := linkHref(z); href != "" {
				if u, err := bu.Parse(strings.TrimSpace(href)); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
					u.Fragment = ""
					out = append(out, u.String())
				}
			}
		}
	}
}

// linkHref returns the href of an <a>, <area> or <link rel=next|prev> tag.
func linkHref(z *html.Tokenizer) string {
	name, hasAttr := z.TagName()
	tag := string(name)
	if !hasAttr || (tag != "a" && tag != "area" && tag != "link") {
		return ""
	}
	var href, rel string
	for {
		k, v, more := z.TagAttr()
		switch string(k) {
		case "href":
			href = string(v)
		case "rel":
			rel = strings.ToLower(string(v))
		}
		if !more {
			break
		}
	}
	if tag == "link" && rel != "next" && rel != "prev" {
		return ""
	}
	return href
}

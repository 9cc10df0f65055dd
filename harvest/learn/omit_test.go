package learn_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/learn"
)

// titlePosts are the titles of the synthetic blogs below; the last is held
// out. Some titles are split over inline children (<em>, <code>), which
// are part of the title and must stay.
var titlePosts = []string{"Notes on tide pools", "A week of <em>bread</em> baking", "Fixing the <code>cron</code> job",
	"Why I moved to plain text", "Field guide to moss", "What the <em>old</em> maps show"}

// TestTitleOmitsForeignChildren: the heading that holds the post's title
// also holds other things — the date in a <time> with spans, a comment
// count, a subtitle the feed leaves out. The title rule selects the
// heading (its text matches the feed's title best), and the extracted
// title must be the title alone, on a post that was not trained on; the
// children that belong to the title (inline <em>, <code>) stay.
func TestTitleOmitsForeignChildren(t *testing.T) {
	extras := map[string]func(i int, day time.Time) string{
		"time": func(_ int, day time.Time) string {
			return fmt.Sprintf(`<time datetime="%s"><span>%s</span><span>%s</span><span>%s</span></time>`,
				day.Format(time.RFC3339), day.Format("02"), day.Format("Jan"), day.Format("2006"))
		},
		"count": func(i int, _ time.Time) string { return fmt.Sprintf(`<span class="count">%d responses</span>`, 3+i*7) },
		"subtitle": func(i int, _ time.Time) string {
			return fmt.Sprintf(`<small>Part %d of the spring series</small>`, i+1)
		},
	}
	for name, extra := range extras {
		t.Run(name, func(t *testing.T) {
			page := func(i int) []byte {
				day := time.Date(2021, 4, 1+3*i, 9, 0, 0, 0, time.UTC)
				body := strings.Repeat(fmt.Sprintf("Post %d walks through the details at some length. ", i), 10)
				return []byte(fmt.Sprintf(`<html><head><title>Site of Ann</title></head><body><header><p>Site of Ann</p></header>
<article><h2 class="headline">%s %s</h2><div class="body"><p>%s</p></div></article></body></html>`,
					titlePosts[i], extra(i, day), body))
			}
			var pairs []learn.Pair
			for i := range len(titlePosts) - 1 {
				pairs = append(pairs, learn.Pair{Page: learn.Page{URL: fmt.Sprintf("https://b.example/p%d.html", i), HTML: page(i)},
					Target: learn.Target{Title: plain(titlePosts[i]), FullText: true,
						Content: strings.Repeat(fmt.Sprintf("Post %d walks through the details at some length. ", i), 10)}})
			}
			rules, err := learn.Learn(pairs, learn.Options{})
			if err != nil {
				t.Fatal(err)
			}
			last := len(titlePosts) - 1
			x, err := rules.Extract(learn.Page{URL: "https://b.example/last.html", HTML: page(last)})
			if err != nil {
				t.Fatal(err)
			}
			if want := plain(titlePosts[last]); x.Title != want {
				t.Errorf("title %q, want %q (rule %+v)", x.Title, want, rules.Title)
			}
		})
	}
}

// plain strips the inline tags of a title.
func plain(s string) string {
	for _, tag := range []string{"<em>", "</em>", "<code>", "</code>"} {
		s = strings.ReplaceAll(s, tag, "")
	}
	return s
}

// articleWords are the paragraphs the synthetic posts below are made of:
// long enough that the bigrams of any English sentence occur in a post.
var articleWords = []string{
	"The river was higher than last spring, so we walked the upper path through the birch wood instead.",
	"Every few hundred metres the path crossed a stream, and the stepping stones were slick with moss.",
	"By noon the clouds had lifted and the whole valley opened up below us, green and quiet.",
	"We ate on a flat rock above the falls and counted eleven kinds of bird before anyone spoke.",
	"The way back was slower; my knee complained on every descent, and the light was going.",
}

// TestArticleOmitsTemplateChildren: the article element a theme writes
// holds the post and, below it, lines the feed's full text never has: "This
// entry was posted on … and is filed under …" and a note to readers. On a
// post not trained on, the article must leave them out and keep the post,
// including a figure whose caption the feed leaves out and an embedded
// quotation the feed lacks (media and quotations are never omitted). With a summary feed nothing is omitted: what lies outside a
// summary may be the post.
func TestArticleOmitsTemplateChildren(t *testing.T) {
	body := func(i int) string {
		var b strings.Builder
		for k := range articleWords {
			fmt.Fprintf(&b, "<p>%s (%d)</p>\n", articleWords[(i+k)%len(articleWords)], i)
		}
		return b.String()
	}
	page := func(i int) []byte {
		day := time.Date(2022, 5, 1+i, 8, 0, 0, 0, time.UTC)
		return []byte(fmt.Sprintf(`<html><body><div id="page"><h2 class="title">Walk number %d</h2>
<div class="post">%s<figure><img src="/w%d.jpg"><figcaption>Photo by a friend on walk %d</figcaption></figure>
<blockquote class="embedded">Shared from elsewhere: a note on walk %d</blockquote>
<p class="meta">This entry was posted on %s and is filed under Walks. You can follow any responses to this entry.</p>
<div class="after-note">Liked it? Tell a friend about this page!</div></div></div></body></html>`,
			i, body(i), i, i, i, day.Format("Monday, January 2, 2006")))
	}
	for _, full := range []bool{true, false} {
		t.Run(fmt.Sprintf("full=%v", full), func(t *testing.T) {
			var pairs []learn.Pair
			for i := range 5 {
				content := body(i)
				if !full {
					content = fmt.Sprintf("<p>%s (%d)</p>", articleWords[i%len(articleWords)], i)
				}
				pairs = append(pairs, learn.Pair{Page: learn.Page{URL: fmt.Sprintf("https://w.example/%d/", i), HTML: page(i)},
					Target: learn.Target{Title: fmt.Sprintf("Walk number %d", i), Content: content, FullText: full}})
			}
			rules, err := learn.Learn(pairs, learn.Options{})
			if err != nil {
				t.Fatal(err)
			}
			x, err := rules.Extract(learn.Page{URL: "https://w.example/9/", HTML: page(9)})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range articleWords {
				if !strings.Contains(x.ContentText, p) {
					t.Errorf("article lost %q: %q", p, x.ContentText)
				}
			}
			if !strings.Contains(x.ContentHTML, "/w9.jpg") || !strings.Contains(x.ContentText, "Photo by a friend") {
				t.Errorf("article lost the figure: %q", x.ContentHTML)
			}
			if !strings.Contains(x.ContentText, "Shared from elsewhere") {
				t.Errorf("article lost the quotation: %q", x.ContentText)
			}
			for _, tmpl := range []string{"This entry was posted", "Tell a friend"} {
				if got := strings.Contains(x.ContentText, tmpl); got != !full {
					t.Errorf("article holds %q: %v, want %v (omit %v): %q", tmpl, got, !full, rules.Article.Omit, x.ContentText)
				}
			}
		})
	}
}

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

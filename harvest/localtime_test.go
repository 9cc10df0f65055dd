package harvest_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
)

// TestNewCrawlLocalTimeLabelledUTC: a blog in a zone two hours east of
// UTC whose theme states each post's local time in a machine-readable
// attribute labelled +00:00 (<time datetime="…T20:30:00+00:00"> for a post
// published at 18:30 UTC) and shows the day in words; the feed gives the
// true instants of its newest posts. The held-out posts, dated from their
// pages, get their time of day in the blog's learned zone, not a bare day
// and not the mislabelled instant (issue 36, cause 4).
func TestNewCrawlLocalTimeLabelledUTC(t *testing.T) {
	zone := time.FixedZone("", 2*3600)
	s := newMiniSite()
	n := 16
	dates := make([]time.Time, n)
	for i := range dates {
		// local times across the day, some after midnight (the UTC day before)
		dates[i] = time.Date(2021, 3, 1+3*i, []int{0, 9, 13, 20, 23, 1, 17, 11}[i%8], 10+i, 0, 0, zone)
	}
	var items []miniItem
	for i := n - 1; i >= 0; i-- {
		local := dates[i]
		path := fmt.Sprintf("/2021/%02d/lock-%d/", local.Month(), i)
		title := fmt.Sprintf("At the lock, chapter %d", i)
		body := prose(fmt.Sprintf("chapter %d", i), 5)
		label := time.Date(local.Year(), local.Month(), local.Day(), local.Hour(), local.Minute(), 0, 0, time.UTC)
		s.docs[path] = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>` + title + ` – Lock</title></head><body>
<header><a href="{{base}}/">Lock</a></header><main><article class="post"><h1 class="entry-title">` + title + `</h1>
<p class="meta">Posted on <time class="published" datetime="` + label.Format("2006-01-02T15:04:05+00:00") + `">` + local.Format("January 2, 2006") + `</time> by Ada</p>
<div class="entry-content">` + body + `</div></article>` + olderLink(i, dates, n) + `</main></body></html>`
		if i >= n/2 {
			items = append(items, miniItem{path: path, title: title, body: body, date: local.UTC(), comments: -1})
		}
	}
	s.docs["/feed/"] = rss("Lock", "en", items)
	s.docs["/"] = `<!DOCTYPE html><html><head><title>Lock</title><link rel="alternate" type="application/rss+xml" href="{{base}}/feed/"></head><body><p>Lock</p></body></html>`
	srv := s.start(t)
	_, out := crawl(t, options("localtime", srv.URL))
	got := out.ByURL(t)
	for i := 0; i < n/2; i++ {
		u := fmt.Sprintf("%s/2021/%02d/lock-%d/", srv.URL, dates[i].Month(), i)
		e, ok := got[u]
		if !ok {
			t.Errorf("held-out post %d not archived", i)
			continue
		}
		if g, w := blogharvest.FormatDate(e.Created, e.CreatedPrecision), dates[i].Format("2006-01-02T15:04"); !strings.HasPrefix(g, w) || !e.Created.Equal(dates[i]) {
			t.Errorf("held-out post %d: created %q (%v, precision %q), want %s, the instant %v", i, g, e.Created, e.CreatedPrecision, w, dates[i].UTC())
		}
	}
}

// olderLink links post i to the one before it, so that a crawl finds the
// posts the feed does not list.
func olderLink(i int, dates []time.Time, n int) string {
	if i == 0 {
		return ""
	}
	return fmt.Sprintf(`<nav class="post-nav"><a rel="prev" href="{{base}}/2021/%02d/lock-%d/">Older</a></nav>`, dates[i-1].Month(), i-1)
}

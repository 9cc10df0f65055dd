package feed

import (
	"fmt"
	"slices"
	"time"

	"github.com/blogharvest/blogharvest"
)

// FillBlog copies the blog-level metadata of f into b: title, subtitle,
// language, platform and version, webmaster, rights, licence, update
// frequency (MethodFeed), and the post frequency and last activity computed
// from the item dates (MethodComputed). The post frequency is that of the
// feed's first page, so that a crawl reading every page and an update
// reading only the newest agree on it. Fields b already has are kept; every
// field set is recorded in b.Provenance under its DESIGN §6 name.
func FillBlog(f *Feed, b *blogharvest.Blog) {
	set := func(dst *string, v, field string, m blogharvest.Method) {
		if *dst == "" && v != "" {
			*dst = v
			b.Provenance.Set(field, m)
		}
	}
	feed := blogharvest.MethodFeed
	set(&b.Title, f.Title, "title", feed)
	set(&b.Subtitle, f.Subtitle, "subtitle", feed)
	set(&b.Language, f.Language, "language", feed)
	set(&b.Platform, f.Platform, "platform", feed)
	set(&b.PlatformVersion, f.PlatformVersion, "platform_version", feed)
	set(&b.Webmaster, f.Webmaster, "webmaster", feed)
	set(&b.Copyright, f.Rights, "copyright", feed)
	set(&b.License, f.License, "license", feed)
	set(&b.UpdateFrequency, f.UpdateFrequency, "update_frequency", feed)
	set(&b.PostFrequency, PostFrequency(f.firstPageItems()), "post_frequency", blogharvest.MethodComputed)
	if b.FeedURL == "" {
		b.FeedURL = f.URL
	}
	if last := LastActivity(f); b.LastActivity.IsZero() && !last.IsZero() {
		b.LastActivity = last
		b.Provenance.Set("last_activity_date", blogharvest.MethodComputed)
	}
}

// firstPageItems returns the items of the feed's first page (all items
// when the first page is not known).
func (f *Feed) firstPageItems() []Item {
	if f.FirstPage > 0 && f.FirstPage < len(f.Items) {
		return f.Items[:f.FirstPage]
	}
	return f.Items
}

// itemDate is an item's publication date, or its update date.
func itemDate(it Item) time.Time {
	if !it.Published.IsZero() {
		return it.Published
	}
	return it.Updated
}

// LastActivity is the latest date of the feed and its items; zero if none.
func LastActivity(f *Feed) time.Time {
	last := f.Updated
	for _, it := range f.Items {
		for _, t := range []time.Time{it.Published, it.Updated} {
			if t.After(last) {
				last = t
			}
		}
	}
	return last
}

// PostFrequency describes how often items were published, as "N.N
// posts/day", "/week" or "/month", from the spread of their dates. It is
// empty for fewer than two dated items or a spread under an hour.
func PostFrequency(items []Item) string {
	var dates []time.Time
	for _, it := range items {
		if d := itemDate(it); !d.IsZero() {
			dates = append(dates, d)
		}
	}
	if len(dates) < 2 {
		return ""
	}
	slices.SortFunc(dates, time.Time.Compare)
	span := dates[len(dates)-1].Sub(dates[0])
	if span < time.Hour {
		return ""
	}
	perDay := float64(len(dates)-1) / span.Hours() * 24
	switch {
	case perDay >= 1:
		return fmt.Sprintf("%.1f posts/day", perDay)
	case perDay*7 >= 1:
		return fmt.Sprintf("%.1f posts/week", perDay*7)
	}
	return fmt.Sprintf("%.1f posts/month", perDay*30.44)
}

package learn_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

// dayOnlyPage is a post page that prints its date to the day only.
func dayOnlyPage(i int, d time.Time) learn.Page {
	body := fmt.Sprintf("Post %d: the tide came in slowly over the old harbour wall while we counted the boats and mended the nets.", i)
	return learn.Page{URL: fmt.Sprintf("https://utc.example/p%d.html", i), HTML: []byte(fmt.Sprintf(`<!DOCTYPE html>
<html><head><title>Harbour notes %d</title></head><body><main><article>
<h1 class="title">Harbour notes %d</h1><span class="post-date">%s</span>
<div class="content"><p>%s</p></div></article></main></body></html>`, i, i, d.Format("2 January 2006"), body))}
}

// TestDayOnlyDatesOnUTCBlog is issue 16's finding 4: a UTC blog whose pages
// print only the day, posting from 03:00 to 23:30, got the offset -01:00
// (the rounded middle of what the pages allow) and its days were stored as
// midnight in that zone. The offset stays 0 when 0 is possible, and the
// date is a day: no time, no zone.
func TestDayOnlyDatesOnUTCBlog(t *testing.T) {
	times := []time.Time{
		time.Date(2023, 9, 1, 3, 0, 0, 0, time.UTC),
		time.Date(2023, 9, 8, 12, 0, 0, 0, time.UTC),
		time.Date(2023, 9, 15, 23, 30, 0, 0, time.UTC),
		time.Date(2023, 9, 22, 7, 45, 0, 0, time.UTC),
	}
	var pairs []learn.Pair
	for i, d := range times {
		p := dayOnlyPage(i, d)
		pairs = append(pairs, learn.Pair{Page: p, Target: learn.Target{Title: fmt.Sprintf("Harbour notes %d", i), Date: d}})
	}
	r, err := learn.Learn(pairs, learn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Date == nil || r.Date.UTCOffset != 0 {
		t.Fatalf("date rule %+v: want offset 0", r.Date)
	}
	x, err := r.Extract(dayOnlyPage(9, time.Date(2023, 10, 7, 22, 0, 0, 0, time.UTC)))
	if err != nil {
		t.Fatal(err)
	}
	if !x.Date.Equal(time.Date(2023, 10, 7, 0, 0, 0, 0, time.UTC)) || x.DatePrecision != blogharvest.PrecisionDay {
		t.Errorf("date = %v (%q), want 2023-10-07, a day", x.Date, x.DatePrecision)
	}
	if got := blogharvest.FormatDate(x.Date, x.DatePrecision); got != "2023-10-07" {
		t.Errorf("written %q, want 2023-10-07", got)
	}
}

// TestParseDateKeepsTime checks that a time of day written after a date is
// kept, with its zone when the text names one.
func TestParseDateKeepsTime(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"2024-10-29 23:42 UTC", "2024-10-29T23:42Z"},
		{"Posted 2024-10-29 23:42", "2024-10-29T23:42"},
		{"October 29, 2024 at 11:42 pm", "2024-10-29T23:42"},
		{"29 Oct 2024 23:42:07 +02:00", "2024-10-29T23:42:07+02:00"},
		{"29 Aug 2022 18:23", "2022-08-29T18:23"},
		{"12 August 2013", "2013-08-12"},
		{"2013-08-12", "2013-08-12"},
		{"2013-08-12T10:44:08Z", "2013-08-12T10:44:08Z"},
	} {
		d, ok := learn.ParseDate(c.in, "en")
		if !ok {
			t.Errorf("%q: not parsed", c.in)
			continue
		}
		if got := blogharvest.FormatDate(d, learn.DatePrecisionOf(c.in, "en")); got != c.want {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}

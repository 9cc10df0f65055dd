package learn_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// zonePost is one post of a blog whose pages print the day only: the
// instant of its feed entry and the offset the feed writes it with.
type zonePost struct {
	local  time.Time // the post's wall clock in the blog's zone, as a UTC time
	offset int       // seconds east of UTC, as the feed states it
}

// instant returns the post's instant (in UTC, as feeds are parsed).
func (p zonePost) instant() time.Time { return p.local.Add(-time.Duration(p.offset) * time.Second) }

// zonePairs makes training pairs of dayOnlyPage pages, each printing the
// post's day in the blog's zone.
func zonePairs(posts []zonePost) []learn.Pair {
	var pairs []learn.Pair
	for i, p := range posts {
		pairs = append(pairs, learn.Pair{Page: dayOnlyPage(i, p.local), Target: learn.Target{
			Title: fmt.Sprintf("Harbour notes %d", i), Date: p.instant(), DateOffset: p.offset}})
	}
	return pairs
}

// checkZoneDays extracts a page for each post of test and wants its day,
// placed in the zone learned, to be the day of the feed's instant in the
// zone the feed states (what eval's textsim.SameDay scores).
func checkZoneDays(t *testing.T, r *learn.Rules, test []zonePost) {
	t.Helper()
	for i, p := range test {
		x, err := r.Extract(dayOnlyPage(20+i, p.local))
		if err != nil {
			t.Fatal(err)
		}
		if x.DatePrecision != blogharvest.PrecisionDay {
			t.Errorf("%v: precision %q, want a day", p.local, x.DatePrecision)
		}
		if _, off := x.Date.Zone(); off != p.offset || !textsim.SameDay(x.Date, p.instant()) {
			t.Errorf("post at %v local (%v): date %v, want %s in offset %d", p.local.Format("2006-01-02 15:04"),
				p.instant(), x.Date, p.local.Format(time.DateOnly), p.offset)
		}
	}
}

// TestFeedStatedOffsetPlacesDays is issue 43's finding on dates a day off
// (kayven, mitsuyoshi): a blog eight hours east of UTC whose feed writes
// "+08:00" and whose pages print the day only. The pages alone allow any
// offset from -1 to +8 h, and 0 was kept, so a post at 05:00 local, 21:00
// UTC the day before, was dated a day late. The feed's stated offset, which
// every training page's day agrees with, is the blog's zone.
func TestFeedStatedOffsetPlacesDays(t *testing.T) {
	const east8 = 8 * 3600
	var train []zonePost
	for i, hm := range [][2]int{{9, 0}, {12, 10}, {20, 0}, {23, 30}, {15, 45}} {
		train = append(train, zonePost{time.Date(2023, 9, 1+7*i, hm[0], hm[1], 0, 0, time.UTC), east8})
	}
	r, err := learn.Learn(zonePairs(train), learn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Date == nil {
		t.Fatal("no date rule")
	}
	if r.Date.UTCOffset != east8 || r.Date.FeedZone != nil {
		t.Errorf("date rule: offset %d, zone %v; want offset %d, no FeedZone", r.Date.UTCOffset, r.Date.FeedZone, east8)
	}
	checkZoneDays(t, r, []zonePost{
		{time.Date(2023, 10, 7, 5, 0, 0, 0, time.UTC), east8},
		{time.Date(2023, 10, 9, 22, 18, 0, 0, time.UTC), east8},
	})
}

// TestFeedStatedSummerTime is the same finding on blogs in a zone with
// summer time (0x7df, bilalh): the feed writes "+00:00" in winter and
// "+01:00" in summer, so no single offset places both a winter post at
// 23:30 and a summer post at 00:30 on the day their pages print.
func TestFeedStatedSummerTime(t *testing.T) {
	var train []zonePost
	for i, hm := range [][2]int{{9, 0}, {12, 10}, {20, 0}, {23, 30}, {15, 45}, {0, 40}, {18, 5}, {10, 20}} {
		d := time.Date(2022, time.Month(1+i*3/2), 10, hm[0], hm[1], 0, 0, time.UTC)
		off := 0
		if d.Month() >= time.April && d.Month() <= time.September {
			off = 3600
		}
		train = append(train, zonePost{d, off})
	}
	r, err := learn.Learn(zonePairs(train), learn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Date == nil {
		t.Fatal("no date rule")
	}
	if len(r.Date.FeedZone) != len(train) {
		t.Errorf("date rule: offset %d, zone %v; want a FeedZone of %d days", r.Date.UTCOffset, r.Date.FeedZone, len(train))
	}
	checkZoneDays(t, r, []zonePost{
		{time.Date(2023, 2, 14, 23, 30, 0, 0, time.UTC), 0},
		{time.Date(2023, 7, 3, 0, 30, 0, 0, time.UTC), 3600},
		{time.Date(2023, 12, 20, 23, 50, 0, 0, time.UTC), 0},
	})
}

// TestFeedOffsetAgainstPages checks that a feed's offset is no evidence when
// the pages print their days in another zone (here UTC, the feed writing
// "+08:00"): the offset stays what the pages allow, 0.
func TestFeedOffsetAgainstPages(t *testing.T) {
	var pairs []learn.Pair
	for i, hm := range [][2]int{{9, 0}, {12, 10}, {20, 0}, {23, 30}} {
		utc := time.Date(2023, 9, 1+7*i, hm[0], hm[1], 0, 0, time.UTC)
		pairs = append(pairs, learn.Pair{Page: dayOnlyPage(i, utc), Target: learn.Target{
			Title: fmt.Sprintf("Harbour notes %d", i), Date: utc, DateOffset: 8 * 3600}})
	}
	r, err := learn.Learn(pairs, learn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Date == nil {
		t.Fatal("no date rule")
	}
	if r.Date.UTCOffset != 0 || r.Date.FeedZone != nil {
		t.Fatalf("date rule: offset %d, zone %v; want offset 0, no FeedZone", r.Date.UTCOffset, r.Date.FeedZone)
	}
}

// TestRegionOffsetAmongAllowed is issue 43's finding on jerryc: a zh-TW blog
// whose feed writes UTC ("Z") and whose pages allow offsets from +7:57 to
// +9:04 got the rounded middle, +9, and a post at 23:30 local was dated a
// day late. The region the pages' language names (Taiwan, +8) is taken
// when the pages allow it; not when they do not (a ja-JP page on a blog
// whose days are UTC's keeps 0).
func TestRegionOffsetAmongAllowed(t *testing.T) {
	const east8 = 8 * 3600
	tw := func(i int, local time.Time) learn.Page {
		p := dayOnlyPage(i, local)
		p.Lang = "zh-TW"
		return p
	}
	var pairs []learn.Pair
	for i, hm := range [][2]int{{0, 3}, {22, 56}, {12, 0}, {18, 30}} {
		local := time.Date(2019, 3, 1+7*i, hm[0], hm[1], 0, 0, time.UTC)
		pairs = append(pairs, learn.Pair{Page: tw(i, local), Target: learn.Target{
			Title: fmt.Sprintf("Harbour notes %d", i), Date: local.Add(-east8 * time.Second)}})
	}
	r, err := learn.Learn(pairs, learn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Date == nil {
		t.Fatal("no date rule")
	}
	if r.Date.UTCOffset != east8 {
		t.Errorf("offset %d, want %d", r.Date.UTCOffset, east8)
	}
	local := time.Date(2019, 10, 24, 23, 30, 0, 0, time.UTC)
	x, err := r.Extract(tw(20, local))
	if err != nil {
		t.Fatal(err)
	}
	if truth := local.Add(-east8 * time.Second); !textsim.SameDay(x.Date, truth) {
		t.Errorf("date %v, want 2019-10-24 (feed %v)", x.Date, truth)
	}

	pairs = pairs[:0]
	for i, d := range []time.Time{
		time.Date(2023, 9, 1, 3, 0, 0, 0, time.UTC), time.Date(2023, 9, 8, 12, 0, 0, 0, time.UTC),
		time.Date(2023, 9, 15, 23, 30, 0, 0, time.UTC), time.Date(2023, 9, 22, 7, 45, 0, 0, time.UTC),
	} {
		p := dayOnlyPage(i, d)
		p.Lang = "ja-JP"
		pairs = append(pairs, learn.Pair{Page: p, Target: learn.Target{Title: fmt.Sprintf("Harbour notes %d", i), Date: d}})
	}
	if r, err = learn.Learn(pairs, learn.Options{}); err != nil {
		t.Fatal(err)
	}
	if r.Date == nil {
		t.Fatal("no date rule")
	}
	if r.Date.UTCOffset != 0 {
		t.Errorf("ja-JP pages with UTC days: offset %d, want 0", r.Date.UTCOffset)
	}
}

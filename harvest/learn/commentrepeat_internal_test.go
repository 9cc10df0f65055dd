package learn

import (
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
)

// TestRenderedCommentsUnknownSystems reads comments drawn by systems no
// marker knows: cards with a nickname and a time span whose replies name
// their parent in data-reply-to, and a framed app with authors in <h4>,
// dates only in a title attribute over a relative date, replies nested.
func TestRenderedCommentsUnknownSystems(t *testing.T) {
	cards := `<html><body><article><h1>Post</h1><p>Some long article text about harbours, ropes and boats on the quay.</p></article>
<div id="talkbox-thread"><div class="tb-list">
<div class="tb-card" data-id="1"><span class="tb-nick">Ann Lee</span><span class="tb-when">29 Oct 2024, 23:42</span><div class="tb-msg"><p>First comment text that is long enough.</p></div></div>
<div class="tb-card" data-id="2"><span class="tb-nick">Bob Ray</span><span class="tb-when">30 Oct 2024, 08:12</span><div class="tb-msg"><p>Second comment text that is long enough.</p></div></div>
<div class="tb-card" data-id="3" data-reply-to="1"><span class="tb-nick">Cy Moor</span><span class="tb-when">30 Oct 2024, 09:00</span><div class="tb-msg"><p>A reply to Ann that is long enough.</p></div></div>
</div><button>Load more</button></div></body></html>`
	frame := `<html><body><div class="pl-stream">
<div class="pl-item"><h4>Ann Lee</h4><span class="pl-ago" title="29 Aug 2022 18:23">a while ago</span><div class="pl-txt"><p>First comment text that is long enough.</p></div>
 <div class="pl-kids"><div class="pl-item"><h4>Bob Ray</h4><span class="pl-ago" title="30 Aug 2022 08:01">a while ago</span><div class="pl-txt"><p>A nested reply that is long enough.</p></div></div></div></div>
<div class="pl-item"><h4>Cy Moor</h4><span class="pl-ago" title="1 Sep 2022 10:00">3 years ago</span><div class="pl-txt"><p>Third comment text that is long enough.</p></div></div>
</div><a href="#more">Load more</a></body></html>`
	type want struct {
		author, text string
		at           time.Time // wall clock, to the minute the page gives
		parent       int       // index of the parent, -1 for none
	}
	day := func(y int, m time.Month, d, h, min int) time.Time { return time.Date(y, m, d, h, min, 0, 0, time.UTC) }
	for name, tc := range map[string]struct {
		page string
		want []want
	}{
		"cards": {cards, []want{{"Ann Lee", "First comment text that is long enough.", day(2024, 10, 29, 23, 42), -1},
			{"Bob Ray", "Second comment text that is long enough.", day(2024, 10, 30, 8, 12), -1},
			{"Cy Moor", "A reply to Ann that is long enough.", day(2024, 10, 30, 9, 0), 0}}},
		"frame": {frame, []want{{"Ann Lee", "First comment text that is long enough.", day(2022, 8, 29, 18, 23), -1},
			{"Bob Ray", "A nested reply that is long enough.", day(2022, 8, 30, 8, 1), 0},
			{"Cy Moor", "Third comment text that is long enough.", day(2022, 9, 1, 10, 0), -1}}},
	} {
		got := RenderedComments(Page{URL: "http://blog.example/p.html", HTML: []byte(tc.page), Lang: "en"})
		if len(got) != len(tc.want) {
			t.Fatalf("%s: %d comments, want %d: %+v", name, len(got), len(tc.want), got)
		}
		for k, w := range tc.want {
			g := got[k]
			parent := ""
			if w.parent >= 0 {
				parent = got[w.parent].ID
			}
			y, m, d := g.Date.Date()
			wall := time.Date(y, m, d, g.Date.Hour(), g.Date.Minute(), g.Date.Second(), 0, time.UTC)
			if g.Author != w.author || g.ContentText != w.text || !wall.Equal(w.at) || g.ParentID != parent {
				t.Errorf("%s: comment %d = %q %q %v parent %q; want %q %q %v parent %q", name, k, g.Author, g.ContentText, g.Date, g.ParentID,
					w.author, w.text, w.at.Format("2006-01-02 15:04"), parent)
			}
			if g.DatePrecision != blogharvest.PrecisionLocalMinute { // a time of day, no zone: none invented
				t.Errorf("%s: comment %d: date precision %q, want %q", name, k, g.DatePrecision, blogharvest.PrecisionLocalMinute)
			}
		}
	}
}

// TestRenderedCommentsNotListings keeps the generic detector off what
// repeats like comments but is not: post teasers whose heading links to
// the post, and records with no date.
func TestRenderedCommentsNotListings(t *testing.T) {
	for name, page := range map[string]string{
		"teasers": `<html><body><div class="more-stories">
<div class="card"><h3><a href="/2024/one.html">One harbour story</a></h3><span title="29 Aug 2022">a while ago</span><p>An excerpt of the first story, long enough to be a text.</p></div>
<div class="card"><h3><a href="/2024/two.html">Two harbour stories</a></h3><span title="30 Aug 2022">a while ago</span><p>An excerpt of the second story, long enough to be a text.</p></div>
</div></body></html>`,
		"undated": `<html><body><div class="team">
<div class="member"><h4>Ann Lee</h4><p>Ann sails the small boats and mends the ropes in winter.</p></div>
<div class="member"><h4>Bob Ray</h4><p>Bob keeps the harbour log and the lamp on the pier.</p></div>
</div></body></html>`,
	} {
		if got := RenderedComments(Page{URL: "http://blog.example/p.html", HTML: []byte(page)}); len(got) != 0 {
			t.Errorf("%s: %d comments found, want none: %+v", name, len(got), got)
		}
	}
}

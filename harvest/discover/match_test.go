package discover_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/discover"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// words returns n words w1…wn of prefix, a text whose tokens are all
// distinct.
func words(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i+1)
	}
	return out
}

// sharing returns a text of 20 tokens, the first common of them the
// archived text's (words("w", 20)), the rest its own.
func sharing(common int) string {
	return strings.Join(append(words("w", 20)[:common], words("other", 20-common)...), " ")
}

// TestMoveIndexMatch: each kind of evidence matches the archived post it
// names, and only that one: a redirect from the archived URL (also when
// nothing else is alike), the same guid, the same title and day with the
// text alike; a catch-all redirect (two archived URLs sent to one page),
// another post (another title, day and text), the same title and day
// with another text, the same title on another day, or a post matched
// already (taken) match nothing. An entry naming an archived URL among
// its aliases is archived as that post already.
func TestMoveIndexMatch(t *testing.T) {
	day := time.Date(2021, 3, 4, 10, 0, 0, 0, time.UTC)
	text := func(topic string) string {
		return strings.Repeat("The "+topic+" was measured twice at the mill before the flood came down the valley. ", 6)
	}
	m := discover.NewMoveIndex([]discover.ArchivedPost{
		{URL: "http://b.test/a.html", Title: "Alder", Created: day, Text: text("alder"), GUID: "tag:b.test,2021:a"},
		{URL: "http://b.test/b.html", Title: "Birch", Created: day, Text: text("birch")},
		{URL: "http://b.test/c.html", Title: "Cedar", Created: day, Text: text("cedar")},
		{URL: "http://b.test/d.html", Title: "Dogwood", Created: day, Text: text("dogwood")},
		{URL: "http://b.test/e.html", Title: "Elm", Created: day.AddDate(0, 0, 3), Text: text("elm"), Aliases: []string{"http://b.test/?p=5"}},
	}, scope{})
	m.Redirect("http://b.test/2021/03/birch/", 1)
	m.Redirect("http://b.test/", 2) // c.html and d.html both sent to the home page: no evidence
	m.Redirect("http://b.test/", 3)
	entry := func(u, title string, created time.Time, body, guid string) *blogharvest.Entry {
		return &blogharvest.Entry{URL: u, Title: title, Created: created, Content: "<p>" + body + "</p>", AltIdentifier: guid}
	}
	taken := map[int]string{}
	for _, tc := range []struct {
		name string
		e    *blogharvest.Entry
		want int
		how  string
	}{
		{"guid", entry("http://b.test/2021/03/alder/", "Alder, rewritten", time.Time{}, "other words", "tag:b.test,2021:a"), 0, "guid"},
		{"redirect", entry("http://b.test/2021/03/birch/", "Birch renamed", day.AddDate(0, 1, 0), "nothing alike", ""), 1, "redirect"},
		{"catch-all redirect", entry("http://b.test/", "Home", day, "home", ""), -1, ""},
		{"another post", entry("http://b.test/2021/03/fir/", "Fir", day, text("fir"), ""), -1, ""},
		{"title, day, text", entry("http://b.test/2021/03/cedar/", "cedar ", day.Add(5*time.Hour), text("cedar"), ""), 2, "title, date and text"},
		{"title, day, other text", entry("http://b.test/2021/03/dogwood/", "Dogwood", day, "A different post that shares the title but not a sentence.", ""), -1, ""},
		{"title, other day", entry("http://b.test/2021/03/elm/", "Elm", day, text("elm"), ""), -1, ""},
		{"taken already", entry("http://b.test/2021/03/cedar-2/", "Cedar", day, text("cedar"), ""), -1, ""},
	} {
		i, how := m.Match(tc.e, taken)
		if i != tc.want || !strings.Contains(how, tc.how) {
			t.Errorf("%s: matched %d by %q, want %d by %q", tc.name, i, how, tc.want, tc.how)
		}
		if i >= 0 {
			taken[i] = tc.e.URL
		}
	}
	if i, how := m.Match(entry("http://b.test/2021/03/birch/", "Birch", day, text("birch"), ""), taken); i != -1 {
		t.Errorf("a post taken already matched again (%d by %q)", i, how)
	}
	if i, _ := m.Match(entry("http://b.test/2021/03/birch/", "Birch", day, text("birch"), ""), nil); i != 1 {
		t.Errorf("with nothing taken, the redirect matched %d, want 1", i)
	}
	if got := m.ArchivedAt(&blogharvest.Entry{URL: "http://b.test/new/", Aliases: []string{"http://b.test/e.html"}}); got != 4 {
		t.Errorf("an entry naming an archived URL among its aliases is archived as post %d, want 4", got)
	}
	if got := m.ArchivedAt(&blogharvest.Entry{URL: "http://b.test/?p=5"}); got != 4 {
		t.Errorf("an entry at an archived post's alias is archived as post %d, want 4", got)
	}
	if got := m.ArchivedAt(&blogharvest.Entry{URL: "http://b.test/2021/03/fir/"}); got != -1 {
		t.Errorf("an entry at a new URL is archived as post %d, want -1", got)
	}
	if m.Len() != 5 || m.Post(2).URL != "http://b.test/c.html" {
		t.Errorf("Len %d, Post(2) %q", m.Len(), m.Post(2).URL)
	}
}

// TestMoveIndexThreshold: with both dates known, a text of the same
// title and day is the archived post from MoveThreshold of TokenF1 on
// and not under it; with either date unknown, from MoveUndatedThreshold
// on. Of two candidates of one title and day, the more alike is taken.
func TestMoveIndexThreshold(t *testing.T) {
	day := time.Date(2021, 3, 4, 10, 0, 0, 0, time.UTC)
	archived := strings.Join(words("w", 20), " ")
	for _, tc := range []struct {
		name    string
		common  int
		created time.Time
		want    int
	}{
		{"dated, at the threshold", 16, day, 0},
		{"dated, under it", 15, day, -1},
		{"undated, at its threshold", 19, time.Time{}, 0},
		{"undated, over MoveThreshold but under its own", 18, time.Time{}, -1},
	} {
		text := sharing(tc.common)
		s := textsim.TokenF1(text, archived)
		need := discover.MoveThreshold
		if tc.created.IsZero() {
			need = discover.MoveUndatedThreshold
		}
		if (s >= need) != (tc.want == 0) || s < need-0.06 || s > need+0.06 {
			t.Fatalf("%s: the test's texts are %.3f alike, not at the edge of %.2f", tc.name, s, need)
		}
		m := discover.NewMoveIndex([]discover.ArchivedPost{{URL: "http://b.test/a.html", Title: "Alder", Created: day, Text: archived}}, scope{})
		e := &blogharvest.Entry{URL: "http://b.test/alder/", Title: "Alder", Created: tc.created, Content: "<p>" + text + "</p>"}
		if i, how := m.Match(e, nil); i != tc.want {
			t.Errorf("%s (similarity %.3f): matched %d by %q, want %d", tc.name, s, i, how, tc.want)
		}
	}
	m := discover.NewMoveIndex([]discover.ArchivedPost{
		{URL: "http://b.test/a.html", Title: "Alder", Created: day, Text: sharing(17)},
		{URL: "http://b.test/a2.html", Title: "Alder", Created: day, Text: sharing(19)},
	}, scope{})
	e := &blogharvest.Entry{URL: "http://b.test/alder/", Title: "Alder", Created: day, Content: archived}
	if i, how := m.Match(e, nil); i != 1 || !strings.Contains(how, "0.95") {
		t.Errorf("of two candidates, matched %d by %q, want the more alike, 1 (0.95)", i, how)
	}
}

// TestMoveIndexIdentity: a feed item is found again among the archived
// posts by its URL, a redirect to it, its guid, or its title on the same
// day (either date unknown: the title alone); another person's items
// (other titles, days, URLs, texts) make a stranger, with the highest
// similarity of their texts to the archived posts'; one item whose text
// is like an archived post's, or any archived URL redirecting to a page
// (not a catch-all), does not.
func TestMoveIndexIdentity(t *testing.T) {
	day := time.Date(2021, 3, 4, 10, 0, 0, 0, time.UTC)
	archivedText := strings.Join(words("w", 20), " ")
	posts := []discover.ArchivedPost{
		{URL: "http://b.test/a.html", Title: "Alder", Created: day, GUID: "tag:b.test,2021:a", Text: archivedText},
		{URL: "http://b.test/b.html", Title: "Birch", Created: day, Text: "birch bark peels in sheets"},
		{URL: "http://b.test/c.html", Title: "Cedar", Text: "cedar smells of pencils"},
	}
	m := discover.NewMoveIndex(posts, scope{})
	for _, tc := range []struct {
		it   feed.Item
		want string
	}{
		{feed.Item{Link: "http://b.test/a.html", Title: "Other"}, "archived URL"},
		{feed.Item{Link: "http://b.test/x/", GUID: "tag:b.test,2021:a"}, "feed guid"},
		{feed.Item{Link: "http://b.test/y/", Title: "alder ", Published: day.Add(3 * time.Hour)}, "title and day"},
		{feed.Item{Link: "http://b.test/z/", Title: "Cedar", Published: day.AddDate(1, 0, 0)}, "title and day"},
		{feed.Item{Link: "http://b.test/w/", Title: "Alder", Published: day.AddDate(0, 0, 2)}, ""},
		{feed.Item{Link: "http://b.test/", Title: "Buy this domain"}, ""},
	} {
		if got := m.FoundAgain(&tc.it); got != tc.want {
			t.Errorf("%s %q: found again by %q, want %q", tc.it.Link, tc.it.Title, got, tc.want)
		}
	}

	strangers := []feed.Item{
		{Link: "http://b.test/2024/05/kernel/", Title: "Kernel threads", Published: day.AddDate(3, 0, 0), Content: "<p>schedulers and run queues</p>"},
		{Link: "http://b.test/2024/05/casino/", Title: "Best casino", Published: day.AddDate(3, 0, 0), Summary: "<p>" + sharing(5) + "</p>"},
	}
	id := m.Identity(strangers)
	if !id.Stranger() || id.Redirected || id.By != "" || id.BestItem != strangers[1].Link || id.Best != textsim.TokenF1(sharing(5), archivedText) {
		t.Errorf("another person's items: %+v, want a stranger, best %s at %.2f", id, strangers[1].Link, textsim.TokenF1(sharing(5), archivedText))
	}
	like := append(strangers, feed.Item{Link: "http://b.test/2024/05/rewritten/", Title: "Rewritten", Content: "<p>" + sharing(12) + "</p>"})
	if id := m.Identity(like); id.Stranger() || id.Best < discover.StrangerThreshold || id.BestItem != like[2].Link {
		t.Errorf("an item with an archived post's text: %+v, want no stranger", id)
	}
	found := append(strangers, feed.Item{Link: "http://b.test/2024/05/alder/", Title: "Alder", Published: day})
	if id := m.Identity(found); id.Stranger() || id.Item != found[2].Link || id.By != "title and day" {
		t.Errorf("an item found again: %+v, want no stranger, by title and day", id)
	}
	m.Redirect("http://b.test/", 0)
	m.Redirect("http://b.test/", 1) // a catch-all: no evidence
	if id := m.Identity(strangers); !id.Stranger() {
		t.Errorf("with a catch-all redirect: %+v, want a stranger", id)
	}
	m.Redirect("http://b.test/2021/03/cedar/", 2)
	if id := m.Identity(strangers); id.Stranger() || !id.Redirected {
		t.Errorf("with an archived URL redirecting to a page: %+v, want no stranger", id)
	}
	if got := m.FoundAgain(&feed.Item{Link: "http://b.test/2021/03/cedar/", Title: "Other"}); got != "redirect" {
		t.Errorf("an item an archived URL redirects to: found again by %q, want redirect", got)
	}
}

// TestMovesAskNewest: the newest archived posts are asked for, newest
// first, until one is still at its URL with its text; one at a 404 or
// answering another page is a ledger line (failed, skipped); a 503 says
// the blog is down, no stranger; none there, the address answering, is a
// stranger. The slice given is not reordered.
func TestMovesAskNewest(t *testing.T) {
	ctx := context.Background()
	day := time.Date(2021, 3, 4, 10, 0, 0, 0, time.UTC)
	postText := func(n int) string { return strings.Join(words(fmt.Sprintf("post%d-", n), 30), " ") }
	mux := http.NewServeMux()
	mux.HandleFunc("/gone.html", http.NotFound)
	mux.HandleFunc("/down.html", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/p1.html" { // still there
			fmt.Fprintf(w, "<html><body><p>%s</p></body></html>", postText(1))
			return
		}
		fmt.Fprint(w, "<html><body><p>This domain is for sale. Buy it now.</p></body></html>")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	u := func(p string) string { return srv.URL + p }
	post := func(path string, n int, age int) discover.ArchivedPost {
		return discover.ArchivedPost{URL: u(path), Created: day.AddDate(0, 0, -age), Text: postText(n)}
	}
	var w warns
	var st steps
	m := discover.NewMoves(discover.MoveConfig{UseState: true}, discover.MoveDeps{Fetch: testClient(t), Canon: scope{}, Stub: stub{},
		Progress: &st, Warn: &w, Log: slog.New(slog.DiscardHandler)})

	// p1 is older than the 404 and the parked page: asked third, still there.
	posts := []discover.ArchivedPost{post("/p1.html", 1, 3), post("/gone.html", 2, 1), post("/p3.html", 3, 2), post("/p9.html", 9, 10)}
	a := m.AskNewest(ctx, posts)
	if a.Still != u("/p1.html") || a.Similarity < discover.StrangerThreshold || a.Asked != 3 || a.Pages != 2 || a.Stranger() || a.Down {
		t.Errorf("one post still there: %+v, want p1 found third, 2 pages", a)
	}
	if len(a.Lines) != 2 || a.Lines[0].URL != u("/gone.html") || a.Lines[0].Fate != discover.FateFailed ||
		a.Lines[1].URL != u("/p3.html") || a.Lines[1].Fate != discover.FateSkipped || a.Lines[1].Via != "archived" {
		t.Errorf("ledger lines %+v, want gone.html failed, p3.html skipped", a.Lines)
	}
	if posts[0].URL != u("/p1.html") {
		t.Errorf("the caller's posts were reordered")
	}

	var many []discover.ArchivedPost
	for i := range 7 {
		many = append(many, post(fmt.Sprintf("/x%d.html", i), 10+i, i))
	}
	many = append(many, post("/p1.html", 1, 30)) // still there, but not among the newest
	if a := m.AskNewest(ctx, many); !a.Stranger() || a.Asked != discover.StrangerProbes || a.Best >= discover.StrangerThreshold || len(a.Lines) != discover.StrangerProbes {
		t.Errorf("none of the newest there: %+v, want a stranger after %d asked", a, discover.StrangerProbes)
	}
	if a := m.AskNewest(ctx, []discover.ArchivedPost{post("/gone.html", 2, 1), post("/down.html", 3, 2), post("/p1.html", 1, 3)}); !a.Down || a.Stranger() || a.Asked != 2 {
		t.Errorf("a 503: %+v, want the blog down, no stranger", a)
	}
	if a := m.AskNewest(ctx, nil); a.Stranger() || a.Asked != 0 {
		t.Errorf("no posts: %+v, want nothing asked, no stranger", a)
	}
}

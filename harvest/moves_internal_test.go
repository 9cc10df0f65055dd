package harvest

import (
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
)

// TestMoveMatch: each kind of evidence matches the archived post it
// names, and only that one: a redirect from the archived URL, the same
// guid, the same title and day with the text alike; a catch-all redirect
// (two archived URLs sent to one page), the same title on another day,
// the same title and day with another text, or a post matched already
// match nothing.
func TestMoveMatch(t *testing.T) {
	day := time.Date(2021, 3, 4, 10, 0, 0, 0, time.UTC)
	text := func(topic string) string {
		return strings.Repeat("The "+topic+" was measured twice at the mill before the flood came down the valley. ", 6)
	}
	archived := []ArchivedPost{
		{URL: "http://b.test/a.html", Title: "Alder", Created: day, Text: text("alder"), GUID: "tag:b.test,2021:a"},
		{URL: "http://b.test/b.html", Title: "Birch", Created: day, Text: text("birch")},
		{URL: "http://b.test/c.html", Title: "Cedar", Created: day, Text: text("cedar")},
		{URL: "http://b.test/d.html", Title: "Dogwood", Created: day, Text: text("dogwood")},
		{URL: "http://b.test/e.html", Title: "Elm", Created: day.AddDate(0, 0, 3), Text: text("elm")},
	}
	m := newMoveIndex(archived)
	m.redirect("http://b.test/2021/03/birch/", 1)
	m.redirect("http://b.test/", 2) // c.html and d.html both sent to the home page: no evidence
	m.redirect("http://b.test/", 3)
	entry := func(u, title string, created time.Time, body, guid string) *blogharvest.Entry {
		return &blogharvest.Entry{URL: u, Title: title, Created: created, Content: "<p>" + body + "</p>", AltIdentifier: guid}
	}
	for _, tc := range []struct {
		name string
		e    *blogharvest.Entry
		want int
		how  string
	}{
		{"guid", entry("http://b.test/2021/03/alder/", "Alder, rewritten", time.Time{}, "other words", "tag:b.test,2021:a"), 0, "guid"},
		{"redirect", entry("http://b.test/2021/03/birch/", "Birch", day, "nothing alike", ""), 1, "redirect"},
		{"catch-all redirect", entry("http://b.test/", "Home", day, "home", ""), -1, ""},
		{"title, day, text", entry("http://b.test/2021/03/cedar/", "cedar ", day.Add(5*time.Hour), text("cedar"), ""), 2, "title, date and text"},
		{"title, day, other text", entry("http://b.test/2021/03/dogwood/", "Dogwood", day, "A different post that shares the title but not a sentence.", ""), -1, ""},
		{"title, other day", entry("http://b.test/2021/03/elm/", "Elm", day, text("elm"), ""), -1, ""},
		{"taken already", entry("http://b.test/2021/03/cedar-2/", "Cedar", day, text("cedar"), ""), -1, ""},
	} {
		i, how := m.match(tc.e)
		if i != tc.want || !strings.Contains(how, tc.how) {
			t.Errorf("%s: matched %d by %q, want %d by %q", tc.name, i, how, tc.want, tc.how)
		}
		if i >= 0 {
			m.taken[i] = tc.e.URL
		}
	}
	if got := m.archivedAt(&blogharvest.Entry{URL: "http://b.test/new/", Aliases: []string{"http://b.test/e.html"}}); got != 4 {
		t.Errorf("an entry naming an archived URL among its aliases is archived as post %d, want 4", got)
	}
}

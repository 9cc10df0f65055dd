package daemon

import (
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/report"
)

// TestFieldsNeverWorse: the same terms split otherwise take the archived
// split; a capture that lost its title, date, author, a term or more than
// half its words is worse; one that kept them (or gained) is not.
func TestFieldsNeverWorse(t *testing.T) {
	words := strings.Repeat("lock keeper towpath barge weir ", 20) // 100 words
	old := &report.Post{Title: "Lock", Author: "Ada", Created: "2021-03-02", Categories: []string{"notes"}, Tags: []string{"weir", "barge"}, Text: words}
	good := func() *blogharvest.Entry {
		return &blogharvest.Entry{Title: "Lock", Author: "Ada", Created: time.Date(2021, 3, 2, 9, 0, 0, 0, time.UTC),
			Categories: []string{"notes"}, Tags: []string{"weir", "barge"}, Content: "<p>" + words + "</p>"}
	}
	e := good()
	e.Categories, e.Tags = []string{"notes", "Weir"}, []string{"barge"}
	keepArchivedSplit(e, old)
	if strings.Join(e.Categories, ",") != "notes" || strings.Join(e.Tags, ",") != "weir,barge" {
		t.Errorf("the same terms split otherwise: categories %v, tags %v; want the archived split", e.Categories, e.Tags)
	}
	e = good()
	e.Tags = []string{"weir", "barge", "sluice"}
	keepArchivedSplit(e, old)
	if len(e.Tags) != 3 {
		t.Errorf("a new term: the archived split taken (%v)", e.Tags)
	}
	if why := keptReason(e, old); why != "" {
		t.Errorf("a capture with a term more is worse: %s", why)
	}
	for name, spoil := range map[string]func(*blogharvest.Entry){
		"title":  func(e *blogharvest.Entry) { e.Title = "" },
		"date":   func(e *blogharvest.Entry) { e.Created = time.Time{} },
		"author": func(e *blogharvest.Entry) { e.Author = "" },
		"term":   func(e *blogharvest.Entry) { e.Tags = []string{"weir"} },
		"text":   func(e *blogharvest.Entry) { e.Content = "<p>Archives Categories Tags</p>" },
	} {
		e := good()
		spoil(e)
		if why := keptReason(e, old); why == "" {
			t.Errorf("a capture that lost its %s is not worse", name)
		}
	}
	for name, spoil := range map[string]func(*blogharvest.Entry){
		"text": func(e *blogharvest.Entry) { e.Content = "<p>A shorter post.</p>" },
		"term": func(e *blogharvest.Entry) { e.Tags = []string{"weir"} },
	} {
		e := good()
		spoil(e)
		e.Modified = time.Date(2021, 3, 5, 8, 0, 0, 0, time.UTC) // the post says it was edited after 2021-03-02
		if why := keptReason(e, old); why != "" {
			t.Errorf("a post edited since the archived version (it lost its %s) is taken for worse: %s", name, why)
		}
		e.Modified = time.Date(2021, 3, 2, 10, 0, 0, 0, time.UTC) // the archived day: no later edit shown
		if why := keptReason(e, old); why == "" {
			t.Errorf("a capture that lost its %s, modified the archived day, is not worse", name)
		}
	}
	e = good()
	e.Content = "<p>" + strings.Repeat("lock keeper towpath barge weir ", 12) + "</p>" // 60 of 100 words: an edit
	if why := keptReason(e, old); why != "" {
		t.Errorf("a post cut to 60%% of its words is taken for worse: %s", why)
	}
}

// TestAcceptChange: accept_change is a day (YYYY-MM-DD) accepting a
// change found that day or before; another value is a config error that
// names its line.
func TestAcceptChange(t *testing.T) {
	c, err := ParseConfig("a.yaml", []byte("blogs:\n  - id: a\n    url: https://x.org/\n    accept_change: 2026-12-06\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := c.Blogs[0].AcceptChange
	for at, want := range map[time.Time]bool{
		time.Date(2026, 12, 6, 23, 59, 0, 0, time.UTC): true,
		time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC):   true,
		time.Date(2026, 12, 7, 0, 0, 1, 0, time.UTC):   false,
		{}: false,
	} {
		if got := d.Accepts(at); got != want {
			t.Errorf("accept_change 2026-12-06 accepts %v: %v, want %v", at, got, want)
		}
	}
	if (Date{}).Accepts(time.Now()) {
		t.Error("no accept_change accepts a change")
	}
	_, err = ParseConfig("a.yaml", []byte("blogs:\n  - id: a\n    url: https://x.org/\n    accept_change: next week\n"))
	if err == nil || !strings.Contains(err.Error(), "line 4") || !strings.Contains(err.Error(), "accept_change") {
		t.Errorf("accept_change: next week: %v; want an error naming line 4 and accept_change", err)
	}
}

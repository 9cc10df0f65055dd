package report

import (
	"reflect"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/marc"
)

// TestPostFieldsAreCrosswalkAttributes: every marc tag of Post names an
// attribute the crosswalk writes for an entry record, and of Comment one
// it writes for a comment record, so a renamed or removed attribute fails
// here instead of leaving the field empty in every export.
func TestPostFieldsAreCrosswalkAttributes(t *testing.T) {
	for typ, v := range map[string]any{marc.TypeBlogPost: Post{}, marc.TypeComment: Comment{}} {
		rt, n := reflect.TypeOf(v), 0
		for i := 0; i < rt.NumField(); i++ {
			if attr := rt.Field(i).Tag.Get("marc"); attr != "" {
				n++
				if !marc.HasAttribute(typ, attr) {
					t.Errorf("%s.%s reads attribute %q, which the crosswalk of %s records does not write", rt.Name(), rt.Field(i).Name, attr, typ)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s has no marc tags", rt.Name())
		}
	}
	if marc.HasAttribute(marc.TypeBlogPost, "subject") || !marc.HasAttribute(marc.TypeComment, "subject") {
		t.Error("HasAttribute does not tell an entry's attributes from a comment's")
	}
}

// TestPostFromCrosswalk writes an entry and a comment with the crosswalk
// and reads them back as a Post and a Comment.
func TestPostFromCrosswalk(t *testing.T) {
	at := time.Date(2024, 3, 4, 18, 5, 0, 0, time.UTC)
	e := &blogharvest.Entry{Kind: blogharvest.KindPage, URL: "https://b.ex/about/", Title: "About", Author: "Ann",
		Created: at, Modified: at.Add(time.Hour), Categories: []string{"Farm"}, Tags: []string{"olives", "oil"},
		Content: "<p>Hello</p>", ContentFormat: "text/html"}
	c := &blogharvest.Comment{URL: "https://b.ex/about/#c2", Author: "Bo", Subject: "Re", Added: at,
		Modified: at.Add(2 * time.Hour), ParentURL: "https://b.ex/about/#c1", Content: "Hi", ContentFormat: "text/plain"}
	er := marc.FromEntry(e, marc.Options{ID: "e1"})
	cr := marc.FromComment(c, e, marc.Options{ID: "c2", ParentCommentID: "c1"})
	p := postFrom(er, marc.Attributes(er))
	wantPost := &Post{Kind: "page", Permalink: e.URL, Title: "About", Author: "Ann", Created: "2024-03-04T18:05:00Z",
		Modified: "2024-03-04T19:05:00Z", Categories: []string{"Farm"}, Tags: []string{"olives", "oil"}, Text: "Hello"}
	if !reflect.DeepEqual(p, wantPost) {
		t.Errorf("post:\n got %+v\nwant %+v", p, wantPost)
	}
	got := commentFrom(cr, marc.Attributes(cr))
	want := Comment{ID: "c2", Permalink: c.URL, Author: "Bo", Subject: "Re", Added: "2024-03-04T18:05:00Z",
		Modified: "2024-03-04T20:05:00Z", Parent: c.ParentURL, ParentID: "c1", Text: "Hi"}
	if got != want {
		t.Errorf("comment:\n got %+v\nwant %+v", got, want)
	}
}

package learn_test

import (
	"testing"

	"github.com/blogharvest/blogharvest/harvest/learn"
)

// TestAPIComments reads comment records from the JSON a widget fetched:
// nested children and pid for parents, Unix milliseconds and ISO dates,
// authors in a key of their own or a nested user object; records the DOM
// does not show, or naming another page, are not kept, and JSON that is
// no thread of the page gives nothing.
func TestAPIComments(t *testing.T) {
	page := "http://blog.example/posts/a/"
	dom := []byte(`<html><body><div id="c1"><b>Ann Lee</b><p>First thoughts on the post here.</p>
<div id="c2"><b>Bob Ray</b><p>A reply to Ann, agreeing fully.</p></div><div id="c3"><b>Cy</b><p>And a reply to Bob, three deep.</p></div></div>
<div><b>Di</b><p>A second thread, from the user object.</p></div></body></html>`)
	thread := []byte(`{"errno":0,"data":{"count":4,"data":[
 {"objectId":"c1","nick":"Ann Lee","comment":"<p>First thoughts on the post here.</p>","time":1732700000000,"pid":null,
  "children":[{"objectId":"c2","nick":"Bob Ray","comment":"<p>A reply to Ann, agreeing fully.</p>","time":1732700100000,"pid":"c1"},
              {"objectId":"c3","nick":"Cy","comment":"And a reply to Bob, three deep.","time":1732700200000,"pid":"c2"}]},
 {"id":"x9","user":{"name":"Di"},"body":"A second thread, from the user object.","created_at":"2024-11-27T10:00:00Z","url":"/posts/a/"}]}}`)
	other := []byte(`[{"id":"r1","author":"Eve","text":"A comment on another post, in a widget.","date":"2024-11-20T10:00:00Z","url":"/posts/b/"}]`)
	counts := []byte(`{"data":[{"url":"/posts/a/","time":12,"reaction0":1}]}`)
	got := learn.APIComments([][]byte{thread, other, counts}, []learn.Page{{URL: page, HTML: dom}})
	want := map[string]struct{ author, parent string }{"c1": {"Ann Lee", ""}, "c2": {"Bob Ray", "c1"}, "c3": {"Cy", "c2"}, "x9": {"Di", ""}}
	if len(got) != len(want) {
		t.Fatalf("%d comments, want %d: %+v", len(got), len(want), got)
	}
	for _, c := range got {
		w, ok := want[c.ID]
		if !ok || c.Author != w.author || c.ParentID != w.parent || c.Date.IsZero() {
			t.Errorf("comment %+v, want %+v with a date", c, w)
		}
	}
	if got[0].URL != page+"#c1" {
		t.Errorf("URL %q, want the page's with the element id", got[0].URL)
	}
	if got := learn.APIComments([][]byte{thread}, []learn.Page{{URL: page, HTML: []byte(`<p>Another page altogether.</p>`)}}); got != nil {
		t.Errorf("a DOM showing none of the records: %d comments, want none", len(got))
	}
}

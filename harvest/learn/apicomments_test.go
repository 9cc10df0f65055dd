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

// TestAPICommentsAnsweredComment reads the parent of a reply from the
// comment it answers when the service nests every reply flat under its
// thread's first comment and names both (in_reply_to_id and parent_id),
// and falls back to the thread's comment when the one answered is not in
// the responses.
func TestAPICommentsAnsweredComment(t *testing.T) {
	page := "http://blog.example/rye/"
	dom := []byte(`<html><body><div><h4>Ann Lee</h4><p>Rye makes a denser crumb, I found.</p>
<div><h4>Bob Ray</h4><p>Rye needs more water, ten percent more.</p></div>
<div><h4>Ann Lee</h4><p>I will raise the hydration next time.</p></div>
<div><h4>Cy Dee</h4><p>Answering a comment that was deleted since.</p></div></div></body></html>`)
	thread := []byte(`{"comments":[{"id":"a1","parent_id":null,"html":"<p>Rye makes a denser crumb, I found.</p>","created_at":"2025-03-10T09:00:00.000Z",
 "member":{"id":"m1","name":"Ann Lee"},"replies":[
  {"id":"b2","parent_id":"a1","in_reply_to_id":null,"html":"<p>Rye needs more water, ten percent more.</p>","created_at":"2025-03-10T10:00:00.000Z","member":{"name":"Bob Ray"}},
  {"id":"c3","parent_id":"a1","in_reply_to_id":"b2","html":"<p>I will raise the hydration next time.</p>","created_at":"2025-03-10T11:00:00.000Z","member":{"name":"Ann Lee"}},
  {"id":"d4","parent_id":"a1","in_reply_to_id":"gone","html":"<p>Answering a comment that was deleted since.</p>","created_at":"2025-03-10T12:00:00.000Z","member":{"name":"Cy Dee"}}]}],
 "meta":{"pagination":{"page":1,"limit":20,"pages":1,"total":1}}}`)
	got := learn.APIComments([][]byte{thread}, []learn.Page{{URL: page, HTML: dom}})
	want := map[string]string{"a1": "", "b2": "a1", "c3": "b2", "d4": "a1"}
	if len(got) != len(want) {
		t.Fatalf("%d comments, want %d: %+v", len(got), len(want), got)
	}
	for _, c := range got {
		if p, ok := want[c.ID]; !ok || c.ParentID != p {
			t.Errorf("comment %s by %s: parent %q, want %q", c.ID, c.Author, c.ParentID, p)
		}
	}
}

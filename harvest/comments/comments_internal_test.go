package comments

import (
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

func TestCommentMergeKeepsEveryCommentOnce(t *testing.T) {
	post := "http://b.ex/2013/08/28/p/"
	t0 := time.Date(2013, 8, 28, 12, 0, 0, 0, time.UTC)
	j := &Post{Item: &feed.Item{CommentCount: 5}, Comments: []feed.Comment{
		{ID: "http://b.ex/?p=5#comment-41", Link: post + "#comment-41", Author: "Ann", Published: t0, Content: "<p>First!</p>"},
		{ID: "http://b.ex/?p=5#comment-42", Link: post + "#comment-42", Author: "Bob", Published: t0.Add(time.Hour),
			Content: "<p>A reply to Ann.</p>", InReplyTo: post + "#comment-41"},
	}}
	ex := learn.Extraction{Methods: blogharvest.Provenance{"comments": blogharvest.MethodRule}, Comments: []learn.Comment{
		{ID: "comment-41", Author: "Ann", Date: t0, ContentText: "First!"}, // same as feed 41
		{ID: "comment-42", Author: "Bob", Date: t0.Add(time.Hour), ContentText: "A reply to Ann.", ParentID: "comment-41"},
		{ID: "comment-43", Author: "Cy", Date: t0.Add(2 * time.Hour), ContentHTML: "<p>Only on the page.</p>",
			ContentText: "Only on the page.", ParentID: "comment-42"},
		{ID: "c9f1e2", Author: "Dee", ContentText: "Undated, no platform id."},
	}}
	e := &blogharvest.Entry{URL: post}
	FillComments(e, j, ex)
	if len(e.Comments) != 4 {
		t.Fatalf("%d comments, want 4: %+v", len(e.Comments), e.Comments)
	}
	byID := map[string]blogharvest.Comment{}
	for _, c := range e.Comments {
		byID[c.ID] = c
	}
	ann, bob, cy := byID["comment-41"], byID["comment-42"], byID["comment-43"]
	if ann.Provenance["full_content"] != blogharvest.MethodFeed || cy.Provenance["full_content"] != blogharvest.MethodRule {
		t.Errorf("provenance: ann %v, cy %v", ann.Provenance, cy.Provenance)
	}
	if bob.ParentID != "comment-41" || cy.ParentID != "comment-42" || ann.ParentID != "" {
		t.Errorf("parents: bob %q cy %q ann %q", bob.ParentID, cy.ParentID, ann.ParentID)
	}
	if !ann.HasReply || ann.NumReplies != 1 || bob.NumReplies != 1 || cy.HasReply {
		t.Errorf("reply counts: ann %v/%d bob %d cy %v", ann.HasReply, ann.NumReplies, bob.NumReplies, cy.HasReply)
	}
	if bob.ParentURL != post+"#comment-41" || bob.AddressedTo != bob.ParentURL || ann.AddressedTo != post {
		t.Errorf("links: bob parent %q addressed %q, ann addressed %q", bob.ParentURL, bob.AddressedTo, ann.AddressedTo)
	}
	if e.NumReplies != 5 || !e.HasReply || !e.LastReplyDate.Equal(t0.Add(2*time.Hour)) {
		t.Errorf("entry counts: %d %v %v", e.NumReplies, e.HasReply, e.LastReplyDate)
	}
	for _, c := range e.Comments {
		if err := c.Validate(); err != nil {
			t.Errorf("comment %s: %v", c.ID, err)
		}
	}
}

// TestCommentMergeKeepsLookalikes: a 10-level thread of short replies
// ("Comment Depth 03", "Comment Depth 04") looks alike to text similarity;
// comments with different platform ids are never merged for it, even when
// one came from the feed and the other only from the page.
func TestCommentMergeKeepsLookalikes(t *testing.T) {
	post := "http://b.ex/2012/01/03/template-comments/"
	t0 := time.Date(2013, 3, 14, 8, 0, 0, 0, time.UTC)
	j := &Post{Comments: []feed.Comment{
		{ID: "http://b.ex/?p=1148#comment-907", Link: post + "comment-page-2/#comment-907", Author: "Fred Bloggs",
			Published: t0.Add(3 * time.Minute), Content: "<p>Comment Depth 04</p>"},
	}}
	var page []learn.Comment
	for i, id := range []string{"904", "905", "906", "907"} {
		page = append(page, learn.Comment{ID: "comment-" + id, Author: "Fred Bloggs", Date: t0.Add(time.Duration(i) * time.Minute),
			ContentHTML: "<p>Comment Depth 0" + string(rune('1'+i)) + "</p>", ContentText: "Comment Depth 0" + string(rune('1'+i))})
	}
	ex := learn.Extraction{Methods: blogharvest.Provenance{"comments": blogharvest.MethodHeuristic}, Comments: page}
	e := &blogharvest.Entry{URL: post}
	FillComments(e, j, ex)
	var ids []string
	for _, c := range e.Comments {
		ids = append(ids, c.ID)
	}
	if len(e.Comments) != 4 {
		t.Fatalf("%d comments %v, want comment-904 … comment-907 once each", len(e.Comments), ids)
	}
}

func TestCommentKey(t *testing.T) {
	cases := map[string]string{"comment-42": "42", "http://b.ex/p/#comment-42": "42", "42": "42", "c84": "84",
		"http://b.ex/p.html?showComment=1378#c84": "84", "tag:blogger.com,1999:blog-1.post-77": "77",
		"cafe12ab": "", "": "", "http://b.ex/2013/08/28/p/": ""}
	for in, want := range cases {
		if got := commentKey(in); got != want {
			t.Errorf("commentKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// testPage is a Page of an identity and the feeds it advertises.
type testPage struct {
	Page
	ident string
	feeds []string
}

func (p testPage) Ident() string   { return p.ident }
func (p testPage) Feeds() []string { return p.feeds }

func TestPostCommentFeed(t *testing.T) {
	p := testPage{ident: "http://d.ex/2013/07/a.html", feeds: []string{"http://d.ex/feeds/comments/default", "http://d.ex/feeds/123/comments/default"}}
	if got := postCommentFeed(p); got != "http://d.ex/feeds/123/comments/default" {
		t.Errorf("Blogger post comment feed %q", got)
	}
	p = testPage{ident: "http://w.ex/2013/08/28/p/", feeds: []string{"http://w.ex/feed/", "http://w.ex/2013/08/28/p/feed/"}}
	if got := postCommentFeed(p); got != "http://w.ex/2013/08/28/p/feed/" {
		t.Errorf("WordPress post comment feed %q", got)
	}
}

package learn_test

import (
	"reflect"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/learn"
)

// TestReadAPIMore reads what comment API answers say is left: a stated
// reply count above the replies given (a count object, a reply_count, a
// replies object's total and next link), a next page by pagination
// object, page count, cursor, next link or HAL link, and nothing when a
// has-more flag says so or the answer holds no comment.
func TestReadAPIMore(t *testing.T) {
	reply := func(id string) string {
		return `{"id":"` + id + `","parent_id":"c1","html":"<p>A reply to the first comment, ` + id + `.</p>","created_at":"2025-03-10T10:00:00.000Z","member":{"name":"Bob Ray"}}`
	}
	for _, tc := range []struct {
		name, body string
		want       learn.APIMore
	}{
		{"count object", `{"comments":[{"id":"c1","html":"<p>First.</p>","created_at":"2025-03-10T09:00:00.000Z","member":{"name":"Ann Lee"},
			"count":{"replies":5,"likes":2},"replies":[` + reply("r1") + `,` + reply("r2") + `,` + reply("r3") + `]}],
			"meta":{"pagination":{"page":1,"limit":20,"pages":1,"total":1,"next":null,"prev":null}}}`,
			learn.APIMore{Comments: []string{"c1", "r1", "r2", "r3"}, Replies: []learn.APIReplies{{ID: "c1", Stated: 5, Given: 3, Last: "r3"}}}},
		{"next page number", `{"comments":[` + reply("r1") + `],"meta":{"pagination":{"page":1,"pages":3,"next":2}}}`,
			learn.APIMore{Comments: []string{"r1"}, NextPage: 2}},
		{"page below pages", `{"errno":0,"data":{"page":2,"totalPages":3,"data":[` + reply("r1") + `]}}`,
			learn.APIMore{Comments: []string{"r1"}, NextPage: 3}},
		{"cursor", `{"items":[` + reply("r1") + `],"next_cursor":"Y3Vyc29y"}`,
			learn.APIMore{Comments: []string{"r1"}, CursorKey: "next_cursor", Cursor: "Y3Vyc29y"}},
		{"opaque next", `{"cursor":{"hasNext":true,"next":"1:0:0"},"response":[` + reply("r1") + `]}`,
			learn.APIMore{Comments: []string{"r1"}, CursorKey: "next", Cursor: "1:0:0"}},
		{"next link", `{"replies":[` + reply("r1") + `],"next":"/api/replies?comment=c1&after=r1"}`,
			learn.APIMore{Comments: []string{"r1"}, Next: "/api/replies?comment=c1&after=r1"}},
		{"HAL link", `{"_embedded":{"comments":[` + reply("r1") + `]},"_links":{"next":{"href":"https://svc.example/c?page=2"}}}`,
			learn.APIMore{Comments: []string{"r1"}, Next: "https://svc.example/c?page=2"}},
		{"has_more false", `{"data":[` + reply("r1") + `],"has_more":false,"next_cursor":"abc"}`,
			learn.APIMore{Comments: []string{"r1"}, Done: true}},
		{"replies object", `[{"id":"c1","text":"First of all.","author":"Ann Lee","replies":{"total":4,"next":"https://svc.example/c1/replies?p=2","items":[` + reply("r1") + `]}}]`,
			learn.APIMore{Comments: []string{"c1", "r1"}, Replies: []learn.APIReplies{{ID: "c1", Stated: 4, Given: 1, Last: "r1", URL: "https://svc.example/c1/replies?p=2"}}}},
		{"no comment", `{"count":3,"next":"/api/next","settings":{"theme":"dark"}}`, learn.APIMore{}},
		{"not JSON", `<html></html>`, learn.APIMore{}},
	} {
		got := learn.ReadAPIMore([]byte(tc.body))
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
}

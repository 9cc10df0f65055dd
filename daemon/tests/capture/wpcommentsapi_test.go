package capture_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/platform"
)

// TestWordPressLiveCommentsAPI reads, through the WordPress row of the
// platform table (its comments REST endpoint and JSON fields), the
// comments of every post of the live WordPress that has approved comments,
// and compares them with WordPress's database: the same comments, each
// with its parent. For the post with the most comments it also shows the
// gap the endpoint fills: the post's own comment feed lists only the
// newest posts_per_rss of them. Runs with BLOGHARVEST_WORDPRESS=1, as
// TestWordPressLive.
func TestWordPressLiveCommentsAPI(t *testing.T) {
	wp := liveWordPress(t)
	row, ok := platform.ByID("wordpress")
	if !ok || row.CommentsAPI == "" {
		t.Fatal("the platform table has no WordPress comments endpoint")
	}
	c, err := fetch.New(fetch.Options{AllowHosts: []string{strings.Split(wp.host, ":")[0]}, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	// Approved comments (not pings) of public, unprotected posts: what the
	// endpoint shows anyone.
	want := map[string]map[string]string{} // post id → comment id → parent id
	for _, r := range wp.sql(t, "SELECT c.comment_post_ID, c.comment_ID, c.comment_parent FROM wp_comments c JOIN wp_posts p ON p.ID = c.comment_post_ID "+
		"WHERE c.comment_approved = '1' AND c.comment_type IN ('comment', '') AND p.post_status = 'publish' AND p.post_password = ''") {
		if want[r[0]] == nil {
			want[r[0]] = map[string]string{}
		}
		want[r[0]][r[1]] = r[2]
	}
	if len(want) == 0 {
		t.Fatal("the live WordPress holds no approved comments")
	}
	most, total := "", 0
	for post, cs := range want {
		got, files, _, err := feed.FetchCommentsAPI(context.Background(), c, row, wp.url+"/", post, feed.CommentLimits{})
		if err != nil || len(files) == 0 {
			t.Errorf("post %s: %v (%d answers)", post, err, len(files))
			continue
		}
		total += len(got)
		if g := apiParents(got); fmt.Sprint(g) != fmt.Sprint(cs) {
			t.Errorf("post %s: comment → parent %v, WordPress has %v", post, g, cs)
		}
		if len(cs) > len(want[most]) {
			most = post
		}
	}
	t.Logf("%d comments of %d posts read from the endpoint", total, len(want))
	pf := &feed.Feed{URL: wp.url + "/feed/", PlatformID: "wordpress"}
	page, err := c.Do(context.Background(), fetch.Request{URL: wp.url + "/?p=" + most})
	if err != nil {
		t.Fatalf("post %s: %v", most, err)
	}
	fcs, _, _, err := feed.FetchComments(context.Background(), c, pf, feed.Item{Link: page.URL}, feed.CommentLimits{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("post %s (%s): %d comments, its own comment feed lists %d", most, page.URL, len(want[most]), len(fcs))
	if len(fcs) >= len(want[most]) {
		t.Logf("the comment feed holds them all here: no gap for the endpoint to fill")
	}
}

// apiParents maps each comment's WordPress id to its parent's ("0" at top
// level), reading both from the comments' permalinks (…#comment-N).
func apiParents(cs []feed.Comment) map[string]string {
	num := func(s string) string {
		i := strings.LastIndex(s, "#comment-")
		if i < 0 {
			return s
		}
		return s[i+len("#comment-"):]
	}
	out := map[string]string{}
	for _, c := range cs {
		p := "0"
		if c.InReplyTo != "" {
			p = num(c.InReplyTo)
		}
		out[num(c.ID)] = p
	}
	return out
}

package feed_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/platform"
)

// wpComments is a WordPress comment feed: comment 12 answers 10, 13
// answers 12, in WordPress's own words; 10 starts with a link to the later
// comment 12, which must not count as its parent.
const wpComments = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>Comments on: Toast</title><link>%[1]s/toast/</link><generator>https://wordpress.org/?v=6.4.2</generator>
<item><title>By: Cy</title><link>%[1]s/toast/#comment-13</link><dc:creator><![CDATA[Cy]]></dc:creator><pubDate>Wed, 06 Mar 2024 10:00:00 +0000</pubDate><guid isPermaLink="false">%[1]s/?p=5#comment-13</guid>
 <content:encoded><![CDATA[<p>En réponse à <a href="%[1]s/toast/#comment-12">Bo</a>.</p><p>Quite.</p>]]></content:encoded></item>
<item><title>By: Bo</title><link>%[1]s/toast/#comment-12</link><dc:creator><![CDATA[Bo]]></dc:creator><pubDate>Tue, 05 Mar 2024 10:00:00 +0000</pubDate><guid isPermaLink="false">%[1]s/?p=5#comment-12</guid>
 <description><![CDATA[In reply to &lt;a href=&quot;%[1]s/toast/#comment-10&quot;&gt;Al&lt;/a&gt;.]]></description>
 <content:encoded><![CDATA[<p>In reply to <a href="%[1]s/toast/#comment-10">Al</a>.</p><p>Agreed.</p>]]></content:encoded></item>
<item><title>By: Al</title><link>%[1]s/toast/#comment-10</link><dc:creator><![CDATA[Al]]></dc:creator><pubDate>Mon, 04 Mar 2024 10:00:00 +0000</pubDate><guid isPermaLink="false">%[1]s/?p=5#comment-10</guid>
 <content:encoded><![CDATA[<p>Nice <a href="%[1]s/toast/#comment-12">Bo</a>.</p>]]></content:encoded></item>
</channel></rss>`

// atomComments threads with thr:in-reply-to; the top-level comment points
// at the post itself.
const atomComments = `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:thr="http://purl.org/syndication/thread/1.0">
<title>Comments</title><id>urn:c</id>
<entry><id>urn:c:2</id><title>Re</title><link rel="alternate" href="https://a.example.org/p#c2"/><author><name>Ben</name><uri>https://ben.example.org/</uri></author>
 <published>2024-01-02T00:00:00Z</published><content>second</content><thr:in-reply-to ref="urn:c:1" href="https://a.example.org/p#c1"/></entry>
<entry><id>urn:c:1</id><title>First</title><link rel="alternate" href="https://a.example.org/p#c1"/><author><name>Ann</name></author>
 <published>2024-01-01T00:00:00Z</published><content>first</content><thr:in-reply-to ref="urn:post:1" href="https://a.example.org/p"/></entry>
</feed>`

func TestParseCommentsNesting(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      map[string]string // author → parent's author
	}{
		{"wordpress", fmt.Sprintf(wpComments, "https://tea.example.org"), map[string]string{"Cy": "Bo", "Bo": "Al", "Al": ""}},
		{"atom", atomComments, map[string]string{"Ben": "Ann", "Ann": ""}},
	} {
		cs, err := feed.ParseComments([]byte(tc.doc), "https://x.example.org/comments")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		byID := map[string]string{}
		for _, c := range cs {
			byID[c.ID] = c.Author
		}
		got := map[string]string{}
		for _, c := range cs {
			got[c.Author] = byID[c.InReplyTo]
			if c.InReplyTo != "" && byID[c.InReplyTo] == "" {
				t.Errorf("%s: %s answers unknown %q", tc.name, c.Author, c.InReplyTo)
			}
			if len(c.Raw) == 0 || c.Published.IsZero() || c.Content == "" {
				t.Errorf("%s: comment %+v incomplete", tc.name, c)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: parents %v, want %v", tc.name, got, tc.want)
		}
	}
	cs, _ := feed.ParseComments([]byte(atomComments), "https://x.example.org/comments")
	if cs[0].AuthorURL != "https://ben.example.org/" {
		t.Errorf("author URL %q", cs[0].AuthorURL)
	}
}

func TestFetchCommentsWordPress(t *testing.T) {
	mux := http.NewServeMux()
	var site string
	mux.HandleFunc("/toast/feed/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintf(w, wpComments, site) })
	site = serveMux(t, mux).URL
	f := &feed.Feed{URL: site + "/feed/", Platform: "WordPress", PlatformID: "wordpress"}
	it := feed.Item{Link: site + "/toast/"}
	if got := feed.CommentFeedURLs(f, it); !slices.Equal(got, []string{site + "/toast/feed/"}) {
		t.Errorf("candidates %v", got)
	}
	cs, files, _, err := feed.FetchComments(context.Background(), newClient(t), f, it, feed.CommentLimits{})
	if err != nil || len(cs) != 3 || len(files) != 1 || files[0].Role != blogharvest.RoleCommentFeed || files[0].Validate() != nil {
		t.Fatalf("%v: %d comments, files %v", err, len(cs), files)
	}
	it.Link = site + "/none/" // its comment feed is missing
	if cs, files, _, err := feed.FetchComments(context.Background(), newClient(t), f, it, feed.CommentLimits{}); err != nil || cs != nil || files != nil {
		t.Errorf("missing comment feed: %v %v %v", cs, files, err)
	}
}

// TestFetchCommentsBlogger derives the Blogger comment feed from the post
// id, follows its rel="next" page, nests a reply by its rel="related"
// link, and returns both pages' captures to be archived (the second was
// read and dropped once).
func TestFetchCommentsBlogger(t *testing.T) {
	mux := http.NewServeMux()
	entry := func(id, related string) string {
		rel := ""
		if related != "" {
			rel = `<link rel="related" type="application/atom+xml" href="https://www.blogger.com/feeds/7/555/comments/default/` + related + `"/>`
		}
		return `<entry><id>tag:blogger.com,1999:blog-7.post-` + id + `</id><published>2024-01-0` + id[len(id)-1:] + `T00:00:00Z</published><title>c</title><content type="html">comment ` + id + `</content>` + rel +
			`<thr:in-reply-to xmlns:thr="http://purl.org/syndication/thread/1.0" ref="tag:blogger.com,1999:blog-7.post-555" href="https://b.example/p.html"/></entry>`
	}
	head := `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:openSearch="http://a9.com/-/spec/opensearchrss/1.0/"><id>x</id><title>Comments</title><generator version="7.00" uri="http://www.blogger.com">Blogger</generator><openSearch:totalResults>3</openSearch:totalResults>`
	mux.HandleFunc("/feeds/555/comments/default", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("start-index") == "3" {
			fmt.Fprint(w, head+entry("903", "901")+`</feed>`)
			return
		}
		fmt.Fprint(w, head+`<link rel="next" href="/feeds/555/comments/default?start-index=3&amp;max-results=2"/>`+entry("902", "")+entry("901", "")+`</feed>`)
	})
	site := serveMux(t, mux).URL
	f := &feed.Feed{URL: site + "/feeds/posts/default", Platform: "Blogger", PlatformID: "blogger"}
	it := feed.Item{GUID: "tag:blogger.com,1999:blog-7.post-555", Link: site + "/2024/01/p.html"}
	cs, files, _, err := feed.FetchComments(context.Background(), newClient(t), f, it, feed.CommentLimits{})
	if err != nil || len(cs) != 3 || len(files) != 2 {
		t.Fatalf("%v: %d comments, %d files", err, len(cs), len(files))
	}
	for i, want := range []string{"/feeds/555/comments/default", "/feeds/555/comments/default?start-index=3&max-results=2"} {
		if f := files[i]; !strings.HasSuffix(f.URL, want) || f.Role != blogharvest.RoleCommentFeed || f.Validate() != nil {
			t.Errorf("file %d: %s %s (%v), want …%s as a comment feed", i, f.URL, f.Role, f.Validate(), want)
		}
	}
	parents := map[string]string{}
	for _, c := range cs {
		parents[c.ID[len(c.ID)-3:]] = c.InReplyTo
	}
	if parents["901"] != "" || parents["902"] != "" || parents["903"] != "tag:blogger.com,1999:blog-7.post-901" {
		t.Errorf("parents %v", parents)
	}
}

// wpDeepComments is a WordPress comment feed whose replies answer
// comments on an older comment page, outside the feed's newest items.
const wpDeepComments = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>Comments on: Deep</title><link>%[1]s/deep/</link><generator>https://wordpress.org/?v=6.1.9</generator>
<item><title>By: Jo</title><link>%[1]s/deep/comment-page-2/#comment-15</link><dc:creator><![CDATA[Jo]]></dc:creator><pubDate>Wed, 06 Mar 2024 10:00:00 +0000</pubDate><guid isPermaLink="false">%[1]s/?p=5#comment-15</guid>
 <content:encoded><![CDATA[<p>In reply to <a href="%[1]s/deep/comment-page-2/#comment-14">Jane</a>.</p>
<p>Depth ten.</p>]]></content:encoded></item>
<item><title>By: Ed</title><link>%[1]s/deep/comment-page-2/#comment-16</link><dc:creator><![CDATA[Ed]]></dc:creator><pubDate>Wed, 06 Mar 2024 11:00:00 +0000</pubDate><guid isPermaLink="false">%[1]s/?p=5#comment-16</guid>
 <content:encoded><![CDATA[<p>See <a href="%[1]s/other/#comment-3">this</a>.</p><p>Unrelated link.</p>]]></content:encoded></item>
</channel></rss>`

func TestParseCommentsReplyPrefix(t *testing.T) {
	site := "https://tea.example.org"
	cs, err := feed.ParseComments([]byte(fmt.Sprintf(wpComments, site)), site+"/toast/feed/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.Author == "Bo" && c.Content != "<p>Agreed.</p>" || c.Author == "Cy" && c.Content != "<p>Quite.</p>" {
			t.Errorf("%s: content %q still carries the feed's reply prefix", c.Author, c.Content)
		}
		if c.Author == "Al" && c.Content == "" {
			t.Errorf("Al: an ordinary link at the start was stripped")
		}
	}
	cs, err = feed.ParseComments([]byte(fmt.Sprintf(wpDeepComments, site)), site+"/deep/feed/")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{ // author → parent reference, content
		"Jo": {site + "/deep/comment-page-2/#comment-14", "<p>Depth ten.</p>"},
		"Ed": {"", `<p>See <a href="` + site + `/other/#comment-3">this</a>.</p><p>Unrelated link.</p>`},
	}
	for _, c := range cs {
		if got := [2]string{c.InReplyTo, c.Content}; got != want[c.Author] {
			t.Errorf("%s: parent, content = %q, want %q", c.Author, got, want[c.Author])
		}
	}
}

// TestCommentFeedShapes: a post's own comment feed comes from its
// platform's row (WordPress <post>/feed/, and <post>/feed after a
// file-like permalink; Blogger /feeds/<postid>/comments/default), and a
// platform's comment feed is one row: a made-up platform's shape, added
// with platform.Add, is what a feed generated by it gets.
func TestCommentFeedShapes(t *testing.T) {
	wp := &feed.Feed{URL: "https://b.example/feed/", PlatformID: "wordpress"}
	for link, want := range map[string]string{
		"https://b.example/2024/01/toast/": "https://b.example/2024/01/toast/feed/",
		"https://b.example/toast.html":     "https://b.example/toast.html/feed",
		"https://b.example/?p=12":          "",
	} {
		got := feed.CommentFeedURLs(wp, feed.Item{Link: link})
		if want == "" && len(got) != 0 || want != "" && !slices.Equal(got, []string{want}) {
			t.Errorf("WordPress %s: %q, want %q", link, got, want)
		}
	}
	bl := &feed.Feed{URL: "https://x.blogspot.com/feeds/posts/default?alt=rss", PlatformID: "blogger"}
	if got := feed.CommentFeedURLs(bl, feed.Item{GUID: "tag:blogger.com,1999:blog-7.post-555"}); !slices.Equal(got, []string{"https://x.blogspot.com/feeds/555/comments/default"}) {
		t.Errorf("Blogger: %q", got)
	}
	remove := platform.Add(platform.Platform{ID: "quillpress", Name: "QuillPress", Generators: []string{"quillpress"},
		CommentFeed: "{post}comments.atom"})
	defer remove()
	body := `<?xml version="1.0"?><rss version="2.0"><channel><title>Q</title><link>https://q.example/</link><generator>QuillPress 2.1</generator>` +
		`<item><title>A</title><link>https://q.example/a/</link></item></channel></rss>`
	f, err := feed.Parse([]byte(body), "https://q.example/rss")
	if err != nil {
		t.Fatal(err)
	}
	if got := feed.CommentFeedURLs(f, f.Items[0]); f.PlatformID != "quillpress" || !slices.Equal(got, []string{"https://q.example/a/comments.atom"}) {
		t.Errorf("a platform added as one row: id %q, comment feeds %q", f.PlatformID, got)
	}
}

// TestCommentsAPIShapes: a comments REST endpoint is one row: WordPress's
// takes the post's id from its GUID (?p=N) or, failing that, its
// shortlink, and a made-up platform's endpoint and JSON members, added
// with platform.Add, are read as the row says (parents by id, IDs the
// comments' permalinks).
func TestCommentsAPIShapes(t *testing.T) {
	wp, _ := platform.ByID("wordpress")
	for _, tc := range []struct{ guid, short, want string }{
		{"https://b.example/?p=42", "", "https://b.example/wp-json/wp/v2/comments?post=42&per_page=100&page=3"},
		{"tiny-7", "https://b.example/?p=7", "https://b.example/wp-json/wp/v2/comments?post=7&per_page=100&page=3"},
		{"tiny-7", "", ""},
	} {
		if got := feed.CommentsAPIURL(wp, "https://b.example/", feed.PostID(wp, tc.guid, tc.short), 3); got != tc.want {
			t.Errorf("WordPress %q %q: %q, want %q", tc.guid, tc.short, got, tc.want)
		}
	}
	q := platform.Platform{ID: "quillpress-api", Name: "QuillPress", PostID: `^urn:quill:(\w+)$`,
		CommentsAPI:       "{site}api/threads/{postid}.json?p={page}",
		CommentsAPIFields: platform.APIFields{ID: "key", Parent: "replyTo", Author: "by.name", Date: "at", Content: "html", Link: "url"}}
	defer platform.Add(q)()
	if got := feed.CommentsAPIURL(q, "https://q.example", feed.PostID(q, "urn:quill:ab12", ""), 1); got != "https://q.example/api/threads/ab12.json?p=1" {
		t.Errorf("made-up endpoint: %q", got)
	}
	body := `[{"key":"c1","by":{"name":"Ann"},"at":"2024-03-04T10:00:00Z","html":"<p>Hi</p>","url":"https://q.example/a/#c1"},` +
		`{"key":"c2","replyTo":"c1","by":{"name":"Ben"},"at":"2024-03-05T10:00:00+01:00","html":"<p>Yes</p>","url":"https://q.example/a/#c2"}]`
	cs, err := feed.ParseCommentsAPI([]byte(body), q.CommentsAPIFields)
	if err != nil || len(cs) != 2 {
		t.Fatalf("%v: %d comments", err, len(cs))
	}
	if cs[1].Author != "Ben" || cs[1].InReplyTo != "c1" || cs[1].Published.UTC().Hour() != 9 || len(cs[0].Raw) == 0 {
		t.Errorf("comments %+v", cs)
	}
	if _, err := feed.ParseCommentsAPI([]byte(`{"code":"rest_forbidden"}`), q.CommentsAPIFields); err == nil {
		t.Error("an error object read as comments")
	}
}

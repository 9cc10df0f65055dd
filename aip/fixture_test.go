package aip_test

import (
	"time"

	"github.com/blogharvest/blogharvest"
)

// clock is the fixed time of every test write.
var clock = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

// fixedNow returns clock.
func fixedNow() time.Time { return clock }

// file returns a captured file with its sum filled in.
func file(url string, role blogharvest.Role, mt string, body string, status int) blogharvest.File {
	f := blogharvest.File{URL: url, Role: role, MediaType: mt, Body: []byte(body), Status: status,
		Captured: time.Date(2024, 5, 6, 6, 0, 0, 0, time.UTC)}
	f.Sum()
	return f
}

// fixtureEntry returns a post with nested comments, media and snapshots.
func fixtureEntry() *blogharvest.Entry {
	const u = "https://garden.example.org/2024/03/notes-on-the-green-kettle/"
	created := time.Date(2024, 3, 14, 9, 26, 53, 0, time.FixedZone("", 3600))
	e := &blogharvest.Entry{
		BlogID: "garden", Kind: blogharvest.KindPost, URL: u,
		Title: "Notes on the green kettle", Content: "<p>The kettle <em>sang</em> &amp; we listened.</p>",
		ContentFormat: "text/html", Author: "Clara Holm", Created: created, Modified: created.Add(48 * time.Hour),
		StatusCode: 200, ResponseCode: "200 OK", Categories: []string{"Kitchen"}, Tags: []string{"kettle", "tea"},
		HasReply: true, NumReplies: 3, LastReplyDate: created.Add(72 * time.Hour), ChildOf: "https://garden.example.org/",
		Captured: time.Date(2024, 5, 6, 6, 0, 0, 0, time.UTC),
		Comments: []blogharvest.Comment{
			{ID: "comment-1", URL: u + "#comment-1", Author: "Hugo Marsh", Content: "Lovely kettle.", ContentFormat: "text/plain",
				Added: created.Add(24 * time.Hour), PostURL: u, HasReply: true, NumReplies: 1},
			{ID: "comment-2", URL: u + "#comment-2", Author: "Clara Holm", Content: "Thank you, Hugo!", ContentFormat: "text/plain",
				Added: created.Add(30 * time.Hour), PostURL: u, ParentID: "comment-1", ParentURL: u + "#comment-1"},
			{ID: "comment-3", URL: u + "#comment-3", Author: "Ines Vance", Content: "Where is it from?", ContentFormat: "text/plain",
				Added: created.Add(72 * time.Hour), PostURL: u},
		},
		Files: []blogharvest.File{
			file(u, blogharvest.RolePage, "text/html; charset=utf-8", "<html><body><p>The kettle sang.</p></body></html>", 200),
			file("https://garden.example.org/wp-content/uploads/kettle.png", blogharvest.RoleMedia, "image/png", "\x89PNG\r\n\x1a\nfake", 200),
			file("https://garden.example.org/wp-content/uploads/kettle%20big.JPG?ver=2", blogharvest.RoleMedia, "image/jpeg", "\xff\xd8\xff fake", 200),
			file(u+"feed/", blogharvest.RoleCommentFeed, "application/rss+xml", "<rss version=\"2.0\"><channel/></rss>", 200),
			file("", blogharvest.RoleScreenshot, "image/png", "\x89PNG\r\n\x1a\nshot", 0),
			// made by the harvest (no HTTP status): the rendered DOM, the
			// feed's item of the entry, the learned rules
			file(u, blogharvest.RoleRendered, "text/html; charset=utf-8", "<html><body><p>The kettle sang.</p><p>3 comments</p></body></html>", 0),
			file("https://garden.example.org/feed/", blogharvest.RoleFeed, "application/rss+xml",
				`<item xmlns:dc="http://purl.org/dc/elements/1.1/"><title>Notes on the green kettle</title><dc:creator>Clara Holm</dc:creator></item>`, 0),
			file("", blogharvest.RoleLog, "application/json", `{"content":"div.entry"}`, 0),
		},
		Problems: []string{"media https://garden.example.org/missing.gif: 404"},
		Provenance: blogharvest.Provenance{"title": blogharvest.MethodRule, "author": blogharvest.MethodFeed,
			"date_created": blogharvest.MethodStructured, "full_content": blogharvest.MethodHeuristic},
	}
	e.Comments[0].Provenance = blogharvest.Provenance{"author": blogharvest.MethodHeuristic, "full_content": blogharvest.MethodDensity}
	return e
}

// fixtureBlog returns a blog with its snapshots.
func fixtureBlog() *blogharvest.Blog {
	return &blogharvest.Blog{
		ID: "garden", URL: "https://garden.example.org/", Title: "The Garden Ledger", Subtitle: "Kettles, kitchens, seasons",
		Language: "en", Encoding: "UTF-8", FeedURL: "https://garden.example.org/feed/", Platform: "WordPress",
		PlatformVersion: "6.4", StatusCode: 200, Provenance: blogharvest.Provenance{"title": blogharvest.MethodFeed, "status_code": blogharvest.MethodHTTP}, Copyright: "© 2024 Clara Holm", License: "https://creativecommons.org/licenses/by-sa/4.0/", Captured: time.Date(2024, 5, 6, 6, 0, 0, 0, time.UTC),
		Files: []blogharvest.File{
			file("https://garden.example.org/", blogharvest.RolePage, "text/html", "<html><title>The Garden Ledger</title></html>", 200),
			file("https://garden.example.org/feed/", blogharvest.RoleFeed, "application/rss+xml", "<rss version=\"2.0\"><channel/></rss>", 200),
			file("https://garden.example.org/robots.txt", blogharvest.RoleRobots, "text/plain", "User-agent: *\nAllow: /\n", 200),
			file("https://garden.example.org/wp-sitemap.xml", blogharvest.RoleSitemap, "application/xml", "<urlset/>", 200),
		},
	}
}

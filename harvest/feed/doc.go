// Package feed discovers, fetches, parses and pages through blog feeds (RSS,
// Atom, JSON Feed) and comment feeds, and derives blog-level metadata from
// them.
//
// Parsing sniffs content rather than trusting Content-Type, survives wrong
// declared encodings, never expands DTD entities, and gives each item's own
// XML (re-encoded as UTF-8) or JSON for the archive (Item.XML, which cuts an
// XML item from the feed's text when asked rather than holding a copy of
// it beside the text, types.go and scanns.go; Item.WriteXML writes the
// same bytes without making them, for a digest). Metadata
// gofeed does not keep (Atom link relations, threading, wfw/slash/sy/
// creativeCommons/openSearch elements) is read by a second, streaming pass
// over the same bytes (scan.go), which also marks where each item's body
// (description, content:encoded, Atom content and summary) lies: a reader
// that wants only the items' dates (PageOptions.DatesOnly: the section
// feeds harvest reads to date posts, FillUpdated's Atom twin) has gofeed
// parse the document without them, so that a full-text feed's bodies are
// decoded once, by the scan, and not again by gofeed (parse.go). A whole
// read does the same for an RSS 2.0 feed the scan finds plain (its items
// where gofeed looks for them, one description and one content:encoded
// each, bodies of text and CDATA only): gofeed parses it without the
// bodies, which are filled in from their bytes as gofeed's ParseText
// reads them (bodycut.go); any other document goes to gofeed whole.
// Dates are UTC, as gofeed gives them; the numeric offset the feed wrote
// an item's date with is Item.Offset (parse.go), evidence of the blog's
// zone for learning.
//
// Items are kept whatever host their links point to: a feed proxied
// through FeedBurner, or a link blog, points off-site. Callers that scope a
// crawl compare Item.Link with the blog's host themselves.
//
// Paging follows RFC 5005 links, then start-index/max-results (Blogger),
// then ?paged=N, as the platform's row says (platform.Platform.FeedPaging,
// found by Feed.PlatformID); comment feeds come from wfw:commentRss, Atom
// rel="replies", and the row's CommentFeed shape (WordPress <post>/feed/,
// Blogger /feeds/<postid>/comments/default: PostCommentFeed), with nesting
// from thr:in-reply-to, Blogger's rel="related" links and WordPress's "In
// reply to" prefix. A platform's comments REST endpoint (the row's
// CommentsAPI: WordPress wp/v2/comments) is read by FetchCommentsAPI, paged,
// its parents from the objects' parent ids (commentsapi.go), each answer
// element by element. Both comment readers follow every page up to the
// bounds of CommentLimits (limits.go: comments per post, comments and
// bytes per REST answer, bytes per post) and say in a Cut which bound
// stopped them.
package feed

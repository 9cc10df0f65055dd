// Package platform is the crawler's one table of what it knows about blog
// and comment platforms: one Platform per row, with the hints that name
// it in a generator, the markup of its comment elements (id prefixes,
// class tokens, itemtypes), the markers of comments it loads by
// JavaScript, the selectors of its "load more" controls and the id or
// class words of the boxes it puts inside an article that are not the
// article. Every matcher of the crawler is derived from the table:
//
//   - harvest's render decision: JSSystem (which JavaScript comment system
//     a page loads, so that render:auto renders it);
//   - harvest/render: LoadMore (the controls clicked for more comments);
//   - harvest/learn's comment fallback: IsCommentID, IsCommentClass,
//     IsCommentItemType;
//   - harvest/learn's article cleaning: IsBoilerplate;
//   - harvest/feed: Generator and ByGenerator (the platform a feed's
//     generator names; a feed keeps the row's ID), and through ByID the
//     blog platform's behaviour: FeedPaging (?paged=N guessed, Blogger's
//     start-index), CommentFeed (the URL shape of a post's own comment
//     feed, with PostID), CommentsAPI and CommentsAPIFields (the
//     comments REST endpoint and its JSON members), AtomTwin;
//   - harvest: Sitemaps (well-known sitemap paths), SiteCommentFeed (the
//     blog-wide comment feed), CommentFeed for posts no feed item names,
//     SectionFeed (the per-section feed read for dates), FeedHosts (the
//     platform's own feed hosts, where a feed's later pages may lie,
//     given to the fetch client for feed pages only).
//
// Adding a platform is one row in table (platforms.go) plus a fixture page
// that shows it; Add does the same at run time, for tests. Adding a
// platform's per-post comment feed is its row's CommentFeed (and PostID
// when the shape needs the post's id); its comments REST endpoint is
// CommentsAPI with CommentsAPIFields. Rows are keyed by ID, never by
// their display Name.
//
// The package imports only harvest/anyof (JSSystem finds the markers in
// one pass) and the standard library; harvest, harvest/feed,
// harvest/learn and harvest/render import it.
package platform

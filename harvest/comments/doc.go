// Package comments is a crawl's comment stage: for one post it asks the
// comment sources, merges what they hold with the comments read off the
// post's page, compares the result with the count the blog states, and
// says what is missing. Package harvest builds the stage once per crawl
// (New), when the site is set up, and its page workers call it with each
// post's Post; the stage reaches the rest of the crawl only through the
// small interfaces of Deps (Fetcher, APIFetcher, PageReader with the
// Page it returns, Scope, Posts, Archive, Ledger, Threads), and reads the
// crawl's policy and options only as its Config. The watch of comment
// thread APIs between crawls (Watcher) is here too; harvest's coordinator
// holds it and the stage reads it as its Threads.
//
// For one post, in the order harvest's buildEntry calls them:
// FetchComments (the item's comment feed, or the per-post feed the page
// advertises; UpdateCrawl's blog-wide comment feed in its place where it
// lists them all, or the new ones with the archive's to come:
// deferComments), CommentPages (the further WordPress comment pages),
// FillShortfall (the post's own comment feed, then the platform's
// comments REST endpoint, while the blog states more), CompleteComments
// (an update's archived comments joined with the new ones, or the feed
// asked for when they do not line up), FillComments (the merge into the
// entry: two comments are one only with the same platform id, or the same
// author, text and time to the precision both give), NoteShortfall (what
// stays short, to the ledger). A rendered page's thread read from its
// comment API is FollowThreads, its shortfall NoteThreadShort.
//
// # Files
//
//   - commentstage.go: Stage, Config, Blog, SiteFeed, Deps and its
//     interfaces, Post (one post's comment state), New.
//   - comments.go: comment feeds and comment pages (FetchComments,
//     CommentPages), merging feed and page (FillComments,
//     commentMerger), comment identity (commentKey, stableCommentID).
//   - stated.go: the comment counts a blog states (in digits or words:
//     StatedComments, readStated), the shortfall's sources
//     (FillShortfall: askOwnFeed, askCommentsAPI) and its ledger note.
//   - archivedcomments.go: UpdateCrawl's comments from the blog-wide
//     comment feed and the archive (deferComments, CompleteComments).
//   - threadmore.go: the rest of a rendered thread from its comment API
//     (FollowThreads, More, NoteThreadShort); RenderedPages.
//   - threads.go: the watch of comment thread APIs between crawls
//     (Watcher: UseFetcher, Poll, Note, Changed, State; ThreadWatch,
//     threadShape), which harvest's coordinator holds, hands its client
//     (UseFetcher) and polls; the state file that keeps it for
//     `crawl -out` is harvest's Watch (watch.go).
//   - words.go: the words that name comments (NamesComments, Words) and
//     a JSON-LD commentCount (LDCommentCount), shared with harvest's
//     comment signals.
//   - util.go: small helpers.
//
// # Where to change what
//
//   - A new comment source of a post, or a new check of what one holds:
//     a method of Stage here, called from harvest's buildEntry
//     (entry.go); what the post's state must keep is a field of Post.
//     What it needs of the crawl is a field of Config (set from the
//     policy in harvest's newCommentStage, commentdeps.go), of Blog, or a
//     method of a small interface of Deps that harvest implements in
//     commentdeps.go — never a harvest type.
//   - Where a blog states a comment count: readStated and
//     pageCommentCounts (stated.go; number words: numberWords).
//   - When two comments are one: commentMerger.find and sameComment
//     (comments.go).
//   - How the rest of a rendered thread is asked for (page and cursor
//     parameters, the replies endpoint learned from the app's requests):
//     threadmore.go; what an answer says is left: learn.ReadAPIMore.
//   - Which answers of a render are watched threads, which posts' threads
//     changed and what the next crawl watches: Watcher (threads.go).
//   - The words that name comments in ids, classes and URLs: commentWords
//     (words.go).
package comments

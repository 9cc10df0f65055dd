// Package learn learns extraction rules (XPath) for the article, title, author,
// date and comments of a blog from pairs of feed entries and their pages, with
// the linear-time BlogForever algorithm (Sørensen–Dice on character bigrams),
// and applies them, falling back to structured data, platform heuristics and
// text density when a rule is untrusted or finds nothing.
//
// # Learning
//
// Each page is parsed once. Its visible text (scripts, styles and comments
// dropped; text after inline children kept) is case-folded, white space is
// collapsed, and every character bigram gets an integer id. Elements are
// numbered in post-order, so each element's bigrams are a contiguous range.
// For every element Learn needs |N|, the number of distinct bigrams under it,
// and |N∩T|, the number of those in a target T (the feed's content, title,
// author): both come from one linear pass, in which every bigram occurrence
// adds one to the element holding it and takes one from the deepest element
// that also holds the previous occurrence of the same bigram; summing
// children into parents then counts each distinct bigram once per element.
//
// The best element of a page scores highest: Dice 2|N∩T|/(|N|+|T|) for the
// article of a full-text feed; for a summary-only feed (Target.FullText
// false), containment |N∩T|/|T|, after which the best element climbs from
// the paragraph that holds the summary to its block container (div, article,
// section, main, td). Title, author and date prefer, among near-equal
// scores, the element nearest the article (Dice × 1/(1 + 0.05 × tree
// distance) for author and date). Dates are matched against many renderings
// of the feed's date (numeric, RFC 1123, English and French, German, Spanish,
// Italian, Portuguese and Dutch month and day names) and against datetime,
// content and title attributes.
//
// A rule's element may hold more than its field: a <time> or a comment
// count inside the title's <h1>, a "This entry was posted on … and is filed
// under …" line inside the article's element. Each child of the element
// the title or article rule selects is matched against the feed's title or
// full content on the training pages (the share of its character shingles
// the feed's text holds: bigrams for titles, five characters for articles,
// since a long post holds most bigrams of any sentence; for articles only
// pages whose entry matches the element with Dice ≥ 0.8, so that a summary
// taken for the full text does not count); kinds of children (tag, or tag
// and first class token) outside the feed's text on some pages (one for
// titles, two for articles) and inside it on none are left out of the
// field (Rule.Omit). Children holding media, code, tables, math or
// quotations are never left out.
//
// Each page's best element (and its same-text wrappers) proposes rules: its
// id, each class token, a semantic tag, and paths from up to three
// ancestors with an id or class. Ids and tokens with runs of three or more
// digits (post-1234) are never proposed, and the vote across pages weeds out
// the rest of what varies between posts. The most voted rules are evaluated
// on every training page; the one with the highest mean score wins, and that
// mean is its confidence. Below Options.MinConfidence a rule is kept, for
// debugging, but untrusted.
//
// Comments: the feed's comments of each training page are located the same
// way; rules that select many nodes are scored by a maximum-weight bipartite
// matching (the Hungarian algorithm) between the nodes they select and the
// feed's comments, then author and date rules are learned relative to the
// comment element (or its sibling, for flat <dt>/<dd> layouts), as is where
// the element carrying the feed's comment id sits. Nesting of comment
// elements gives each comment's parent.
//
// # Extraction
//
// Without a trusted comment rule, or when it finds nothing, comments come
// from a fallback (MethodHeuristic): the markup comment systems share
// (comment-42 ids, the comment class on block elements, Disqus, Blogger,
// schema.org Comment microdata and JSON-LD, microformats p-comment and
// h-cite), else repeated sibling records that each hold an author, a date
// and a text; sidebars and related-post lists are never searched.
// RenderedComments reads a rendered page or frame document the same way,
// then with a looser detector for comment systems no marker knows: the
// author may be a heading, bold text or a link holding a name, the date
// any attribute (title, data-time …) or short text holding a calendar
// date; replies come from nesting or from reply attributes
// (data-reply-to, data-parent …). Its siblings are grouped by tag and
// first class token, then, when that finds nothing, by tag and whole
// class set (utility-class apps: commentrepeat.go).
//
// Each page is parsed once: a Page built by ParsePage carries its tree
// (Page.Root), which Learn and Extract leave as they found it, so the
// crawler's link scan and media discovery read the same tree. Extract
// makes no copy of the article: ContentText is read skipping what
// cleaning removes, and ContentHTML is rendered from the page's tree
// cleaned in place (the children cleaning removes unlinked, attributes
// cleaned in slices of their own) and put back before Extract returns
// (cleanHTML in clean.go), so no other goroutine may read the tree
// meanwhile; Extraction.CleanedArticle makes the cleaned copy on demand.
// A Page with only HTML is parsed when needed. A post is never dropped silently: with
// no article, Extract returns what it found with an error wrapping
// blogharvest.ErrNoArticle.
//
// Authors and dates have more sources than their rules. In training, an
// element whose own text node holds the feed's day among other words
// ("Posté le 27 août 2013 |", "This entry was posted on Wednesday, August
// 28th, 2013 at 4:44 am and is filed under") scores as a date, and a byline
// one part of which is the feed's author ("Seth Zenz | USLHC | USA") scores
// as the author, the part being recorded in Rule.Part, with the number of
// parts in Rule.Parts — unless an element below the byline holds the name
// on its own (an h-card in "Title — <span>Ann Lee</span>, 2023"), which the
// rule then selects. A byline that splits into other parts than in training
// (a title with a comma or a dash in it) gives its one part that may be a
// name once the page's title is taken out, else nothing; a date or a number
// is never an author. In extraction, when the rule is untrusted or finds
// nothing, the date comes from structured data (JSON-LD datePublished,
// h-entry dt-published, article:published_time, DC.date, date,
// sailthru.date, parsely-pub-date and similar meta), then a date the page
// marks as published apart from what it shows (<time pubdate>, an HTML
// comment "<!-- created: 2023-10-07 -->"), then <time>, dated classes (<abbr
// class="published" title="…">) and itemprop datePublished that do not say
// "Last edited" or "Updated", then og:updated_time, then the day in the
// permalink's path (/2013/08/28/; a path with only a month gives no day),
// then the first date written in a text node around the article. A rule
// that reads a "Last edited …" date gives way to a published date the page
// states elsewhere; the edit date is Extraction.Modified.
//
// Dates keep the precision the page gives (Extraction.DatePrecision): a
// day ("7 October 2023") is a day, with no time and no zone; a time after
// the date ("2024-10-29 23:42 UTC", "at 4:44 pm") is kept to the minute,
// with its zone when the text names one, else as a wall clock without
// zone. Such dates are placed in the blog's zone, for ordering and
// comparison only (blogharvest.FormatDate writes no zone the page did not
// give): the offsets the feed states when they are not all 0 and every
// training page's day agrees with them (Rule.FeedZone for a zone with
// summer time: the offset of the nearest training day of the year), else
// the offset of the region the pages' language names when the training
// pages allow it ("zh-TW": +8), else 0 when they allow UTC, else the middle
// of what they allow (Rule.UTCOffset). A
// machine-readable date whose zone label the feed shows false on every
// training page by one same offset (a local wall clock written
// "+00:00") is read as that wall clock in the zone so learned
// (Rule.LocalAttr). The
// author comes from structured data (JSON-LD, h-entry, meta author), then
// author classes, rel=author and itemprop author, then a byline in running
// text ("Posted by X at 10:44 AM", "By X, Staff Writer", "par X", "von X"),
// then an element whose class or id mentions author or byline; last, when
// every training entry named the same author (at least three),
// Rules.SoleAuthor, recorded as a heuristic since it is an inference.
//
// Text comparison (bigrams, Dice, token F1, same author, same day) lives in
// harvest/textsim, which the eval module scores with too; what the crawler
// knows about platforms (comment markup, boilerplate words) in
// harvest/platform.
//
// # Files
//
//   - api.go: Page, ParsePage, Target, Pair, Options, Extraction, Comment,
//     the field names.
//   - fields.go: the field table (article, title, author, date): how each
//     is scored in training, completed, read from its rule's element and
//     found by its fallbacks.
//   - learn.go: Learn, Rules, training pages, the vote and evaluation of
//     candidate rules.
//   - bigramindex.go: bigramIndex, a parsed page's text as bigram ids per
//     element, and the linear sweep that counts |N| and |N∩T|.
//   - rule.go, selector.go: Rule, the XPath shapes Learn writes and their
//     evaluation without a general XPath engine.
//   - omit.go: the children of a title or article element left out of
//     the field (Rule.Omit).
//   - extract.go: Extract, ExtractWithoutRules, the extractor's run.
//   - fallback.go, structured.go, density.go, widget.go: the fallbacks
//     (structured data, platform heuristics, text density) and the
//     sidebar/widget areas they skip.
//   - author.go, byline.go: authors in bylines and their parts.
//   - date.go, dateparse.go, datetext.go, urldate.go: dates in attributes,
//     text and permalinks; date scores in training; the blog's zone for
//     dates without one (learnOffset, learnFeedZone, regionOffsets,
//     Rule.offsetAt). go-dateparser (slow,
//     its first call in a process slower) is asked last, and not about
//     what is read without it (quickDate, cjkMonthDate) or proven no date
//     (isShortNumber, isClockOnly, isEnglishNumber): each of these is
//     checked against it by a test or a fuzz target.
//   - dateclock.go: the time of day after a date and its zone, and the
//     precision of a date (blogharvest.Precision).
//   - datepick.go: published against modified dates ("Last edited …",
//     <time pubdate>, "<!-- created: … -->"), Extraction.Modified.
//   - commentlearn.go, hungarian.go: learning comment rules (bipartite
//     matching against the comment feed).
//   - commentextract.go: applying comment rules.
//   - commentfallback.go, commentfallback_ld.go, commentrecord.go: comments
//     without rules (platform markup, JSON-LD, repeated records);
//     commentrepeat.go: a rendered page's (RenderedComments);
//     apicomments.go: the comment records of the JSON a rendered page's
//     scripts fetched (APIComments), kept when the DOM shows them, with
//     those of the answers read following them (APICommentsMore);
//     apimore.go: what such an answer says is left of its thread, a next
//     page or replies beyond those given (ReadAPIMore).
//   - clean.go: cleaning the article and comment HTML (boilerplate boxes,
//     scripts, lazy images, absolute URLs).
//   - text.go: the visible text of a tree (nodeText) and its HTML
//     (innerHTML).
//
// # Where to change what
//
//   - A new comment platform, JavaScript comment system, "load more"
//     control or boilerplate box: a row in harvest/platform's table (plus a
//     fixture page that shows it); nothing here.
//   - A new single-valued field: an entry in fields (fields.go) with its
//     scorer, and the Rules, trainPage and Extraction members that hold its
//     rule, scores and value; then its MARC mapping in marc.
//   - A new fallback for a field: a function appended to the field's
//     fallbacks in fields.go.
//   - A new date format or language: dateparse.go.
//   - How texts are compared (normalisation, Dice): harvest/textsim.
package learn

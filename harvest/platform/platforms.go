package platform

// table is the built-in table, in the order the matchers try it: the
// first row whose JavaScript marker a page holds names its system, and
// "load more" selectors are tried row by row.
var table = []Platform{
	{
		ID: "generic", Name: "any platform", Sitemaps: []string{"/sitemap.xml"},
		CommentIDPrefixes:   []string{"comment-", "comment_", "comment"},
		BlockCommentClasses: []string{"comment", "Comment"},
		Boilerplate: []string{"share", "sharing", "social", "related", "advert", "ads", "ad-container", "sponsor",
			"newsletter", "subscribe", "respond", "comment-form", "post-navigation", "nav-links", "navigation",
			"breadcrumb", "breadcrumbs", "popular-posts", "comments", "commentlist", "comment-list"},
	},
	{
		ID: "disqus", Name: "Disqus",
		CommentIDPrefixes: []string{"dsq-comment-", "dsq-comment_", "dsq-comment"},
		CommentClasses:    []string{"dsq-comment"},
		JSMarkers:         []string{"disqus_thread", "disqus.com/embed", ".disqus.com"},
		LoadMore:          []string{".load-more__button", "[data-action=more-posts]", ".load-more a"},
		Boilerplate:       []string{"disqus_thread"},
	},
	{
		ID: "livefyre", Name: "LiveFyre",
		JSMarkers: []string{"livefyre", "fyre.co"},
		LoadMore:  []string{".fyre-stream-more", ".fyre-stream-more-container", ".fyre-comment-more"},
	},
	{
		ID: "jetpack", Name: "WordPress/Jetpack",
		JSMarkers: []string{"jetpack_remote_comment", "jetpack-comments"},
		LoadMore: []string{"#infinite-handle button", "#infinite-handle span", ".load-more-comments", ".comments-load-more",
			".wp-block-comments-load-more"},
		Boilerplate: []string{"sharedaddy", "jp-relatedposts"},
	},
	{
		ID: "facebook", Name: "Facebook comments",
		JSMarkers: []string{"fb-comments", "facebook.com/plugins/comments"},
	},
	{ID: "intensedebate", Name: "IntenseDebate", JSMarkers: []string{"intensedebate"}},
	{ID: "utterances", Name: "utterances", JSMarkers: []string{"utteranc.es"}},
	{ID: "giscus", Name: "giscus", JSMarkers: []string{"giscus.app"}},
	{ID: "commento", Name: "Commento", JSMarkers: []string{"cdn.commento.io"}},
	{
		ID: "scripted", Name: "comments loaded by a site's own script",
		JSMarkers: []string{"data-comments=", "data-comments-src"},
	},
	{
		ID: "schema.org", Name: "schema.org microdata",
		CommentItemTypes: []string{"schema.org/comment", "schema.org/usercomments"},
	},
	{ID: "microformats", Name: "microformats", CommentClasses: []string{"p-comment", "h-cite"}},
	{ID: "yarpp", Name: "Yet Another Related Posts Plugin", Boilerplate: []string{"yarpp"}},
	{ID: "addtoany", Name: "AddToAny", Boilerplate: []string{"addtoany"}},
	{ID: "addthis", Name: "AddThis", Boilerplate: []string{"addthis"}},
	{ID: "shareaholic", Name: "Shareaholic", Boilerplate: []string{"shareaholic"}},
	{ID: "outbrain", Name: "Outbrain", Boilerplate: []string{"outbrain"}},
	{ID: "taboola", Name: "Taboola", Boilerplate: []string{"taboola"}},
	// Blog platforms, most specific generator first (wordpress.com before
	// wordpress).
	{
		ID: "wordpress.com", Name: "WordPress.com", Generators: []string{"wordpress.com"},
		FeedPaging: PagingQuery, CommentFeed: "{post}feed/", SiteCommentFeeds: []string{"/comments/feed"},
		PostID: wordpressPostID, CommentsAPI: wordpressCommentsAPI, CommentsAPIFields: wordpressCommentFields,
		Sitemaps: []string{"/sitemap.xml", "/wp-sitemap.xml"}, AtomTwin: true,
	},
	{
		ID: "wordpress", Name: "WordPress", Generators: []string{"wordpress"},
		FeedPaging: PagingQuery, CommentFeed: "{post}feed/", SiteCommentFeeds: []string{"/comments/feed"},
		PostID: wordpressPostID, CommentsAPI: wordpressCommentsAPI, CommentsAPIFields: wordpressCommentFields,
		Sitemaps: []string{"/wp-sitemap.xml"}, AtomTwin: true,
		CommentIDPrefixes: []string{
			"div-comment-", "div-comment_", "div-comment", "li-comment-", "li-comment_", "li-comment",
			"article-comment-", "article-comment_", "article-comment",
		},
		Boilerplate: []string{"wp-block-buttons"},
	},
	{
		ID: "blogger", Name: "Blogger", Generators: []string{"blogger", "blogspot"},
		CommentClasses: []string{"comment-block"},
		LoadMore:       []string{".loadmore a", ".comment-thread .loadmore a"},
		FeedPaging:     PagingStartIndex, CommentFeed: "{feedroot}/feeds/{postid}/comments/default",
		PostID:           `^tag:blogger\.com,1999:blog-\d+\.post-(\d+)$`,
		SiteCommentFeeds: []string{"/feeds/comments/default"}, Sitemaps: []string{"/sitemap.xml"},
		HostAliases: []HostAlias{{Infix: ".blogspot.", Canonical: ".blogspot.com"}},
		FeedHosts:   []string{"www.blogger.com", "blogger.com"},
	},
	{ID: "tumblr", Name: "Tumblr", Generators: []string{"tumblr"}},
	{ID: "movabletype", Name: "Movable Type", Generators: []string{"movable type", "movabletype"}},
	{ID: "typepad", Name: "TypePad", Generators: []string{"typepad"}},
	{ID: "octopress", Name: "Octopress", Generators: []string{"octopress"}},
	{ID: "jekyll", Name: "Jekyll", Generators: []string{"jekyll"}},
	{ID: "hugo", Name: "Hugo", Generators: []string{"hugo"}, Sitemaps: []string{"/sitemap.xml"}, SectionFeed: "index.xml"},
	{ID: "ghost", Name: "Ghost", Generators: []string{"ghost"}},
	{ID: "medium", Name: "Medium", Generators: []string{"medium"}},
	{ID: "squarespace", Name: "Squarespace", Generators: []string{"squarespace"}},
	{ID: "drupal", Name: "Drupal", Generators: []string{"drupal"}},
	{ID: "joomla", Name: "Joomla", Generators: []string{"joomla"}},
	{ID: "livejournal", Name: "LiveJournal", Generators: []string{"livejournal"}},
	{ID: "substack", Name: "Substack", Generators: []string{"substack"}},
	{ID: "wix", Name: "Wix", Generators: []string{"wix.com"}},
	{ID: "pelican", Name: "Pelican", Generators: []string{"pelican"}},
	{ID: "hexo", Name: "Hexo", Generators: []string{"hexo"}},
	{ID: "eleventy", Name: "Eleventy", Generators: []string{"eleventy"}},
	{ID: "dotclear", Name: "Dotclear", Generators: []string{"dotclear"}},
	{ID: "serendipity", Name: "Serendipity", Generators: []string{"serendipity"}},
	{ID: "b2evolution", Name: "b2evolution", Generators: []string{"b2evolution"}},
	{ID: "textpattern", Name: "Textpattern", Generators: []string{"textpattern"}},
	{ID: "posterous", Name: "Posterous", Generators: []string{"posterous"}},
	{ID: "write.as", Name: "Write.as", Generators: []string{"write.as"}},
	{ID: "bear", Name: "Bear", Generators: []string{"bearblog"}},
}

// WordPress's post id (its GUIDs and shortlinks are <home>/?p=N) and its
// comments REST endpoint (wp/v2/comments, since WordPress 4.7; at most
// 100 comments a page), shared by the wordpress and wordpress.com rows.
const (
	wordpressPostID      = `[?&]p=(\d+)$`
	wordpressCommentsAPI = "{site}wp-json/wp/v2/comments?post={postid}&per_page=100&page={page}"
)

// wordpressCommentFields are the members of a wp/v2/comments object.
var wordpressCommentFields = APIFields{ID: "id", Parent: "parent", Author: "author_name", AuthorURL: "author_url",
	Date: "date_gmt", Content: "content.rendered", Link: "link"}

package learn

import (
	"bytes"
	"fmt"
	"net/url"
	"time"

	"github.com/blogharvest/blogharvest"
	xnethtml "github.com/blogharvest/blogharvest/internal/xnet/html"
	"golang.org/x/net/html"
)

// Page is one fetched web page. Learn and Extract read Root when it is set
// (ParsePage sets it) and parse HTML otherwise; neither leaves Root
// changed, so a caller parses a page once and hands the same tree to
// Learn, Extract, its own link scan and media discovery. Extract cleans
// the article's subtree in place while it renders ContentHTML and puts it
// back before it returns (no copy of a large article): no other goroutine
// may read the tree during Extract.
type Page struct {
	URL  string     // where the page was fetched from; relative links resolve against it
	HTML []byte     // the page, decoded to UTF-8; unused when Root is set
	Lang string     // BCP 47 language of the page or blog ("fr", "en-US"); empty if unknown
	Root *html.Node // the page parsed by html.Parse; nil: HTML is parsed when needed
}

// ParsePage parses a fetched page once, for every reader of its tree.
func ParsePage(pageURL string, page []byte, lang string) (Page, error) {
	root, err := xnethtml.Parse(bytes.NewReader(page))
	if err != nil {
		return Page{}, fmt.Errorf("parse %s: %w", pageURL, err)
	}
	return Page{URL: pageURL, HTML: page, Lang: lang, Root: root}, nil
}

// root returns the page's tree, parsing HTML when Root is not set.
func (p Page) root() (*html.Node, error) {
	if p.Root != nil {
		return p.Root, nil
	}
	root, err := xnethtml.Parse(bytes.NewReader(p.HTML))
	if err != nil {
		return nil, fmt.Errorf("parse html: %w", err)
	}
	return root, nil
}

// Target is what the feed says about the post a Page shows: the values the
// learner looks for in the page.
type Target struct {
	Title  string
	Author string
	Date   time.Time // zero when the feed gives none
	// DateOffset is the UTC offset, in seconds east, the feed wrote Date
	// with (feed.Item.Offset): 0 for UTC or none stated, which many feeds
	// write whatever the blog's zone.
	DateOffset int
	Content    string // HTML or text from the feed
	FullText   bool   // whether Content is the whole post (false: a summary)
	Comments   []CommentTarget
}

// CommentTarget is one comment of a post as its comment feed gives it.
type CommentTarget struct {
	ID       string
	Author   string
	Date     time.Time
	Content  string // HTML or text
	ParentID string // ID of the comment answered; empty for a top-level comment
}

// Pair is a page and what its feed entry says about it.
type Pair struct {
	Page   Page
	Target Target
}

// Options tune Learn.
type Options struct {
	// MinConfidence is the mean Dice (over all training pages) below which a
	// learned rule is not trusted and Extract uses the fallbacks instead. If
	// zero, 0.5 is used.
	MinConfidence float64
}

// DefaultMinConfidence is the confidence threshold used when
// Options.MinConfidence is zero.
const DefaultMinConfidence = 0.5

func (o Options) minConfidence() float64 {
	if o.MinConfidence == 0 {
		return DefaultMinConfidence
	}
	return o.MinConfidence
}

// Extraction is what Extract found on a page. Fields are zero when nothing was
// found; Methods says, per field, which method produced each value.
type Extraction struct {
	Title       string
	Author      string
	Date        time.Time
	ContentHTML string // cleaned article HTML, URLs absolute
	ContentText string // the article's text, whitespace collapsed
	// ArticleNode is the article element in the page's own tree (Page.Root
	// or the tree parsed from Page.HTML), uncleaned, for callers that read
	// what surrounds the article (the post's header and footer); nil when
	// the article came from structured data or was not found.
	// CleanedArticle copies it cleaned, as ContentHTML renders it.
	ArticleNode *html.Node `json:"-"`
	// cleanOmit and cleanBase are how CleanedArticle cleans ArticleNode:
	// the kinds of children left out (nil: none), the page's URL.
	cleanOmit []string
	cleanBase *url.URL
	Comments  []Comment

	// DatePrecision says how much of Date the page gave (a day, a minute
	// …); Modified is when the page says the post was last changed, when it
	// says so apart from Date ("Last edited …", article:modified_time).
	DatePrecision     blogharvest.Precision
	Modified          time.Time
	ModifiedPrecision blogharvest.Precision

	// Methods maps "title", "author", "date_created", "full_content" and
	// "comments" to the method that produced them.
	Methods blogharvest.Provenance

	// Score says how well the article rule matched this page, in [0, 1]: the
	// rule's confidence, scaled down when the extracted text is much shorter
	// than the articles seen in training. It is 0 when the article came from a
	// fallback or was not found, which is the signal for render:auto to try a
	// rendered page.
	Score float64
}

// Comment is one comment found on a page.
type Comment struct {
	ID          string // the element's id ("comment-42"), else a digest of the content
	Author      string
	Date        time.Time
	ContentHTML string
	ContentText string
	ParentID    string // ID of the enclosing comment; empty at top level
	URL         string // permalink, when the page gives one

	DatePrecision blogharvest.Precision // how much of Date the page gave
}

// Field names: the keys of Extraction.Methods, named after the MARC
// attributes of DESIGN §6.
const (
	FieldTitle    = "title"
	FieldAuthor   = "author"
	FieldDate     = "date_created"
	FieldContent  = "full_content"
	FieldComments = "comments"
)

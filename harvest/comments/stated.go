package comments

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/htmlnode"
	"github.com/blogharvest/blogharvest/harvest/platform"
)

// Stated versus archived: wherever a blog states how many comments a post
// has, the crawl compares that number with the comments it archived. A
// shortfall makes it try the next source in order: the post's own comment
// feed (the platform table's shape, platform.Platform.CommentFeed), the
// platform's comments REST endpoint (platform.Platform.CommentsAPI), its
// comment pages (CommentPages), then rendering (harvest's renderReason); what stays
// short is written in the ledger's comments column for the post, with the
// reason (Shortfalls lists them).

// Stated is how many comments a blog says a post has, and where it says
// so.
type Stated struct {
	N      int
	Source string // "feed slash:comments", "JSON-LD commentCount", "page text"
}

// String renders s for the ledger ("4 (JSON-LD commentCount)").
func (s Stated) String() string { return fmt.Sprintf("%d (%s)", s.N, s.Source) }

// StatedComments returns the largest count of comments the blog states
// for the post: its feed item's (slash:comments, thr:total), the
// page's JSON-LD commentCount, or a short text holding one number tied to
// the page's comment area (a heading or title inside an element that names
// comments, as "4 thoughts on …", or a link to the page's own #comments
// as "4 Comments").
func StatedComments(j *Post) Stated {
	if j.stated == nil {
		st := readStated(j)
		j.stated = &st
	}
	return *j.stated
}

// readStated is StatedComments, read.
func readStated(j *Post) Stated {
	var best Stated
	if j.Item != nil && j.Item.CommentCount > 0 {
		best = Stated{j.Item.CommentCount, "feed slash:comments"}
	}
	if j.Page == nil || j.Page.Doc() == nil {
		return best
	}
	ld, text := pageCommentCounts(j.Page.Doc(), j.Page.Self())
	if ld > best.N {
		best = Stated{ld, "JSON-LD commentCount"}
	}
	if text > best.N {
		best = Stated{text, "page text"}
	}
	return best
}

// pageCommentCounts reads the comment counts a page states: the largest
// JSON-LD commentCount, and the largest count of a text tied to the
// comment area.
func pageCommentCounts(doc *html.Node, self *url.URL) (ld, text int) {
	var walk func(n *html.Node, area bool)
	walk = func(n *html.Node, area bool) {
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			if ch.Type != html.ElementNode {
				continue
			}
			switch ch.DataAtom {
			case atom.Script:
				if strings.Contains(strings.ToLower(htmlnode.Attr(ch, "type")), "ld+json") && ch.FirstChild != nil {
					ld = max(ld, LDCommentCount([]byte(ch.FirstChild.Data)))
				}
				continue
			case atom.Style, atom.Form, atom.Textarea, atom.Aside, atom.Nav:
				continue // sidebars: recent comments on this and other posts
			case atom.A:
				if t := htmlnode.Text(ch); ownCommentsLink(htmlnode.Attr(ch, "href"), self) && len(strings.TrimSpace(t)) <= maxCountLink {
					if k, ok := countIn(t); ok {
						text = max(text, k)
					}
				}
				continue
			}
			inArea := area || NamesComments(htmlnode.Attr(ch, "id")+" "+htmlnode.Attr(ch, "class"))
			if inArea && isCountTitle(ch) {
				if k, ok := countIn(htmlnode.Text(ch)); ok {
					text = max(text, k)
				}
				continue
			}
			walk(ch, inArea)
		}
	}
	walk(doc, false)
	return ld, text
}

// maxCountLink bounds the text of a link that states a comment count
// ("4 Comments", "Comments (4)"), so that a link holding a title is none.
const maxCountLink = 40

// ownCommentsLink reports whether href leads to the comment area of the
// page itself (#comments, or the page's URL with it), not to one comment
// (#comment-42) or another post's.
func ownCommentsLink(href string, self *url.URL) bool {
	i := strings.IndexByte(href, '#')
	if i < 0 || !NamesComments(href[i+1:]) || strings.ContainsAny(href[i+1:], "0123456789") || self == nil {
		return false
	}
	if i == 0 {
		return true
	}
	u, err := self.Parse(href)
	return err == nil && strings.TrimSuffix(u.Path, "/") == strings.TrimSuffix(self.Path, "/") && u.Host == self.Host
}

// isCountTitle reports whether n is a heading, or an element whose id or
// class calls it a title or count, whose own text is short: where themes
// state the number of comments ("4 thoughts on …", "4 comments:").
func isCountTitle(n *html.Node) bool {
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
	default:
		v := strings.ToLower(htmlnode.Attr(n, "id") + " " + htmlnode.Attr(n, "class"))
		if !strings.Contains(v, "title") && !strings.Contains(v, "count") && !strings.Contains(v, "number") {
			return false
		}
	}
	return len(htmlnode.Text(n)) <= 200
}

// countIn returns the one number a short text holds ("4 Comments",
// "4 thoughts on “Title”", "Comments (4)"), or, when it holds no digit,
// the number written in words as its first or second word ("Three
// comments", "One response to “Title”", "Eine Antwort auf …"); ok is
// false when it holds none, several digit runs, or zero ("No comments").
func countIn(text string) (int, bool) {
	if len(strings.TrimSpace(text)) > 200 {
		return 0, false
	}
	fields := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsDigit(r) })
	if len(fields) == 0 {
		k := countWord(text)
		return k, k > 0
	}
	if len(fields) != 1 {
		return 0, false
	}
	k, err := strconv.Atoi(fields[0])
	if err != nil || k <= 0 || k > 100000 {
		return 0, false
	}
	return k, true
}

// countWord returns the number a count phrase writes in words
// (numberWords), or 0: the phrase's first word, or its second after a
// word that only qualifies it ("Only one comment", "Nur eine Antwort").
// A number word further on belongs to another phrase: "Laisser un
// commentaire", "Deja un comentario", "Hinterlasse einen Kommentar" invite
// a comment and count none, and "Comments on “Two bridges”" names a title.
func countWord(text string) int {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) })
	if len(words) > 1 && countQualifiers[words[0]] {
		words = words[1:]
	}
	if len(words) > 0 {
		return numberWords()[words[0]]
	}
	return 0
}

// countQualifiers are the words that may stand before a count in words
// ("only one comment"), in the languages of numberWords.
var countQualifiers = map[string]bool{
	"only": true, "just": true, "nur": true, "bisher": true, "seulement": true, "que": true, "solo": true,
	"sólo": true, "solamente": true, "soltanto": true, "apenas": true, "só": true, "slechts": true, "alleen": true,
}

// numberWords are the numbers zero to twelve as comment counts write them,
// in the languages of most blog platforms' translations: English, German,
// French, Spanish, Italian, Portuguese and Dutch (an article that is also
// "one", as un, ein or een, counts one: "Un commentaire"). Built at first use.
var numberWords = sync.OnceValue(func() map[string]int {
	m := map[string]int{}
	for _, l := range []string{
		"no zero none|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve",
		"kein keine keinen null|ein eine einen eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf",
		"aucun aucune zéro|un une|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze",
		"ningún ninguno ninguna cero sin|un uno una|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce",
		"nessun nessuno nessuna zero|un uno una|due|tre|quattro|cinque|sei|sette|otto|nove|dieci|undici|dodici",
		"nenhum nenhuma zero sem|um uma|dois duas|três|quatro|cinco|seis|sete|oito|nove|dez|onze|doze",
		"geen nul|een één|twee|drie|vier|vijf|zes|zeven|acht|negen|tien|elf|twaalf",
	} {
		for n, ws := range strings.Split(l, "|") {
			for _, w := range strings.Fields(ws) {
				if _, ok := m[w]; !ok {
					m[w] = n
				}
			}
		}
	}
	return m
})

// ownCommentFeed returns the URL of the post's own comment feed by the
// platform's shape (platform.Platform.CommentFeed) for a post the feed
// does not name, or "": asked only where the blog's platform offers one.
func (s *Stage) ownCommentFeed(j *Post) string {
	if s.blog.Feed == nil || s.blog.Feed.PlatformID == "" || j.Page == nil {
		return ""
	}
	p, ok := platform.ByID(s.blog.Feed.PlatformID)
	if !ok {
		return ""
	}
	guid := ""
	if j.Item != nil {
		guid = j.Item.GUID
	}
	return feed.PostCommentFeed(p, s.blog.Feed.URL, j.Page.Ident(), guid)
}

// FillShortfall asks the post's own comment feed, then the platform's
// comments REST endpoint (platform.Platform.CommentsAPI), when the blog
// states more comments than the post holds from its feeds and page (have):
// the sources after those, each asked only while something is still
// missing. It reports whether it asked.
func (s *Stage) FillShortfall(ctx context.Context, j *Post, have int) bool {
	if !s.short(j, have) {
		return false
	}
	asked := s.askOwnFeed(ctx, j)
	if s.short(j, have) {
		asked = s.askCommentsAPI(ctx, j) || asked
	}
	return asked
}

// short reports whether the blog states more comments than the post holds
// (have from the page, j.Comments from the feeds).
func (s *Stage) short(j *Post, have int) bool {
	st := StatedComments(j)
	return !j.deferred && st.N > have && st.N > len(j.Comments)
}

// askOwnFeed asks the post's own comment feed (ownCommentFeed), once,
// unless the post's comments already came from a comment feed.
func (s *Stage) askOwnFeed(ctx context.Context, j *Post) bool {
	cf := ""
	if !j.run || len(j.Feed) == 0 {
		cf = s.ownCommentFeed(j)
	}
	if cf == "" || j.askedOwn {
		return false
	}
	j.askedOwn = true
	it := feed.Item{Link: j.Page.Ident(), CommentFeedURL: cf}
	cs, files, cut, err := s.d.Fetch.Comments(ctx, s.blog.Feed, it, s.cfg.Limits)
	if err != nil {
		s.d.Log.Info("own comment feed", "url", cf, "err", err)
		j.ownErr = err
		return true
	}
	j.ownHeld = len(cs)
	if len(cs) > len(j.Comments) {
		j.Comments, j.Feed, j.cut = cs, files, cut
		j.run, j.Err = true, nil
		j.from = "its own comment feed"
	}
	return true
}

// askCommentsAPI asks the platform's comments REST endpoint for the
// post's comments, once, where the platform's row names one and the post's
// id is known (its GUID or shortlink). Its answers are archived with the
// entry (j.APIFiles) whatever they hold; its comments replace the post's
// when they are more.
func (s *Stage) askCommentsAPI(ctx context.Context, j *Post) bool {
	if j.askedAPI || s.blog.Feed == nil || s.blog.Feed.PlatformID == "" || j.Page == nil || s.blog.Home == nil {
		return false
	}
	p, ok := platform.ByID(s.blog.Feed.PlatformID)
	if !ok || p.CommentsAPI == "" {
		return false
	}
	guid := ""
	if j.Item != nil {
		guid = j.Item.GUID
	}
	id := feed.PostID(p, guid, j.Page.Shortlink())
	if id == "" {
		return false
	}
	j.askedAPI = true
	cs, files, cut, err := s.d.Fetch.CommentsAPI(ctx, p, s.blog.Home.String(), id, s.cfg.Limits)
	j.APIFiles, j.apiErr, j.apiHeld, j.apiCut = files, err, len(cs), cut
	if err != nil {
		s.d.Log.Info("comments API", "post", j.Page.Ident(), "err", err)
	}
	if cut.Reason != "" {
		s.d.Log.Info("comments API: bounded", "post", j.Page.Ident(), "cut", cut.String())
	}
	if len(cs) > len(j.Comments) {
		j.Comments = cs
		j.run, j.Err = true, nil
		j.from, j.cut = "its comments API", cut
	}
	return true
}

// NoteShortfall records in the ledger, and in the entry's problems, a
// post whose archived comments fall short of what the blog states, with
// the sources tried.
func (s *Stage) NoteShortfall(e *blogharvest.Entry, j *Post) {
	st := StatedComments(j)
	if st.N <= len(e.Comments) {
		return
	}
	var tried []string
	switch {
	case j.askedOwn && j.ownErr != nil:
		tried = append(tried, fmt.Sprintf("its own comment feed failed (%v)", j.ownErr))
	case j.askedOwn:
		tried = append(tried, fmt.Sprintf("its own comment feed holds %d", j.ownHeld))
	case j.held > 0 || j.from == "its comment feed":
		tried = append(tried, fmt.Sprintf("its comment feed holds %d", j.held))
	case len(j.Feed) == 0:
		tried = append(tried, "no comment feed the platform offers")
	}
	switch {
	case j.askedAPI && j.apiErr != nil:
		tried = append(tried, fmt.Sprintf("its comments API failed (%v)", j.apiErr))
	case j.askedAPI:
		tried = append(tried, fmt.Sprintf("its comments API holds %d", j.apiHeld))
	}
	if j.from != "" {
		tried = append(tried, fmt.Sprintf("the %d read came from %s", len(j.Comments), j.from))
	}
	if c := j.cut.String(); c != "" {
		tried = append(tried, "reading stopped: "+c)
	} else if c := j.apiCut.String(); c != "" && j.from != "its comments API" {
		tried = append(tried, "its comments API stopped: "+c)
	}
	switch {
	case j.Rendered:
		tried = append(tried, "the rendered page shows no more")
	case s.cfg.RenderNever:
		tried = append(tried, "not rendered (render: never)")
	default:
		tried = append(tried, "not rendered")
	}
	note := fmt.Sprintf("stated %s, archived %d: %s", st, len(e.Comments), strings.Join(tried, "; "))
	s.d.Ledger.Shortfall(e.URL, note)
	e.Problems = append(e.Problems, "comments short: "+note)
	s.d.Log.Info("comments short", "url", e.URL, "stated", st.N, "source", st.Source, "archived", len(e.Comments))
}

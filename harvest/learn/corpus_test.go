package learn_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// tally counts successes of one field.
type tally struct{ ok, n int }

func (t *tally) add(ok bool) {
	t.n++
	if ok {
		t.ok++
	}
}

func (t tally) String() string {
	if t.n == 0 {
		return "    -    "
	}
	return fmt.Sprintf("%3d/%-3d %3.0f%%", t.ok, t.n, 100*float64(t.ok)/float64(t.n))
}

func (t tally) rate() float64 {
	if t.n == 0 {
		return 1
	}
	return float64(t.ok) / float64(t.n)
}

// blogScore is the held-out score of one blog.
type blogScore struct {
	art8, art5, title, author, date tally
	commentP, commentR              tally
	commentAuthor, commentParent    tally // among comments found by id: author equal, parent id equal
	commentDate                     tally // among comments found by id: same day
	threaded                        bool  // some extracted comment has a parent
	methods                         map[string]int
	unfed                           int // comments found on pages without a comment feed (not scored)
}

// scoreExtraction scores one extraction against its feed entry and returns
// the article's score.
func (s *blogScore) scoreExtraction(x learn.Extraction, want learn.Target) float64 {
	truth := textsim.HTMLText(want.Content)
	d := textsim.Dice(x.ContentText, truth)
	if truth == "" { // a picture post: the feed gives only images
		d = imageRecall(x.ContentHTML, want.Content)
	}
	if want.FullText { // a summary says nothing of the article's extent
		s.art8.add(d >= 0.8)
		s.art5.add(d >= 0.5)
	}
	s.title.add(textsim.Dice(x.Title, want.Title) >= 0.9)
	if want.Author != "" {
		s.author.add(textsim.SameAuthor(x.Author, want.Author))
	}
	if !want.Date.IsZero() {
		s.date.add(textsim.SameDay(x.Date, want.Date))
	}
	for k, m := range x.Methods {
		s.methods[k+"="+string(m)]++
	}
	switch {
	case want.Comments != nil:
		scoreComments(s, x.Comments, want.Comments)
	default: // no comment feed: the page's comments are unknown
		s.unfed += len(x.Comments)
	}
	return d
}

// imageRecall returns the share of the feed content's images that the
// extracted article holds (1 when the feed has none).
func imageRecall(got, want string) float64 {
	have := map[string]bool{}
	for _, u := range imageURLs(got, "") {
		have[u] = true
	}
	n, found := 0, 0
	for _, u := range imageURLs(want, "") {
		if strings.Contains(u, "feedburner.com") {
			continue // feed flare and tracking pixels, not content
		}
		n++
		if have[u] {
			found++
		}
	}
	if n == 0 {
		return 1
	}
	return float64(found) / float64(n)
}

// scoreComments counts extracted comments that match a feed comment
// (precision) and feed comments found (recall), by Dice ≥ 0.8 of the text.
func scoreComments(s *blogScore, got []learn.Comment, want []learn.CommentTarget) {
	used := make([]bool, len(want))
	for _, g := range got {
		hit := false
		for j, w := range want {
			if !used[j] && textsim.Dice(g.ContentText, textsim.HTMLText(w.Content)) >= 0.8 {
				used[j], hit = true, true
				break
			}
		}
		s.commentP.add(hit)
	}
	for _, u := range used {
		s.commentR.add(u)
	}
	byID := map[string]learn.CommentTarget{}
	for _, w := range want {
		byID[w.ID] = w
	}
	for _, g := range got {
		s.threaded = s.threaded || g.ParentID != ""
		if w, ok := byID[g.ID]; ok {
			s.commentAuthor.add(textsim.SameAuthor(g.Author, w.Author))
			s.commentParent.add(g.ParentID == w.ParentID)
			if !w.Date.IsZero() {
				s.commentDate.add(textsim.SameDay(g.Date, w.Date))
			}
		}
	}
}

// summaryFeeds names the corpus blogs whose blog.json says the feed holds
// the full text while it holds summaries: their article figure says
// nothing of the extractor, and is printed but left out of the total (the
// evidence is in doc/evaluation.md; eval/floors.json keeps the blog's own
// floors).
var summaryFeeds = map[string]string{
	"thaumatorium": "its article entries hold Hugo's summaries, each wholly inside the page's <article> and several times shorter",
}

// TestCorpusHeldOut learns on one half of each corpus blog's feed entries
// (split by date), extracts the other half, swaps, and prints the success
// rates per blog. It fails when the overall rates fall below the floors
// measured when it was written.
func TestCorpusHeldOut(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus evaluation skipped in -short mode")
	}
	total := &blogScore{methods: map[string]int{}}
	var lines []string
	for _, b := range corpusBlogs(t) {
		pairs := b.pairs(t)
		if len(pairs) < 2 {
			continue
		}
		s := &blogScore{methods: map[string]int{}}
		old, recent := split(pairs)
		heldOut(t, s, old, recent)
		heldOut(t, s, recent, old)
		lines = append(lines, fmt.Sprintf("%-22s %s %s %s %s %s %s %s (by id: author %s date %s; unscored %d) %v", b.Name, s.art8, s.art5, s.title,
			s.author, s.date, s.commentP, s.commentR, s.commentAuthor, s.commentDate, s.unfed, s.methods))
		if why, ok := summaryFeeds[b.Name]; ok {
			lines = append(lines, fmt.Sprintf("%-22s article left out of ALL: %s", "", why))
			s.art8, s.art5 = tally{}, tally{}
		}
		total.merge(s)
	}
	t.Logf("%-22s %-12s %-12s %-12s %-12s %-12s %-12s %-12s", "blog", "article≥.8", "article≥.5", "title", "author", "date", "comments P", "comments R")
	for _, l := range lines {
		t.Log(l)
	}
	t.Logf("%-22s %s %s %s %s %s %s %s (by id: author %s date %s; unscored %d)", "ALL", total.art8, total.art5, total.title, total.author, total.date,
		total.commentP, total.commentR, total.commentAuthor, total.commentDate, total.unfed)
	floor(t, "article", total.art8, 0.95)
	floor(t, "title", total.title, 0.97)
	floor(t, "author", total.author, 0.95)
	floor(t, "date", total.date, 0.9) // one blog (bft-mnmlist) shows no date at all
	floor(t, "comment precision", total.commentP, 0.95)
	floor(t, "comment recall", total.commentR, 0.95)
}

// floor fails the test when a rate is below min.
func floor(t *testing.T, what string, got tally, min float64) {
	t.Helper()
	if got.rate() < min {
		t.Errorf("%s success %.3f, want ≥ %.2f", what, got.rate(), min)
	}
}

// merge adds o's counts to s.
func (s *blogScore) merge(o *blogScore) {
	for _, p := range [][2]*tally{{&s.art8, &o.art8}, {&s.art5, &o.art5}, {&s.title, &o.title}, {&s.author, &o.author},
		{&s.date, &o.date}, {&s.commentP, &o.commentP}, {&s.commentR, &o.commentR}, {&s.commentAuthor, &o.commentAuthor},
		{&s.commentDate, &o.commentDate}} {
		p[0].ok += p[1].ok
		p[0].n += p[1].n
	}
	s.unfed += o.unfed
}

// heldOut learns on train and scores extraction of test.
func heldOut(t *testing.T, s *blogScore, train, test []learn.Pair) {
	rules, err := learn.Learn(train, learn.Options{})
	if err != nil {
		t.Fatalf("learn: %v", err)
	}
	for _, p := range test {
		x, err := rules.Extract(p.Page)
		if err != nil && !strings.Contains(err.Error(), "no article") {
			t.Errorf("extract %s: %v", p.Page.URL, err)
		}
		if d := s.scoreExtraction(x, p.Target); d < 0.8 {
			t.Logf("  miss %s: %.2f (rule %s, confidence %.2f)", p.Page.URL, d, rules.Article.XPath, rules.Article.Confidence)
		}
	}
}

package main

import (
	"time"

	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// Thresholds of DESIGN §8.
const (
	articleOK    = 0.8 // Dice of the article's bigram sets
	articleLoose = 0.5 // the papers' looser threshold
	titleOK      = 0.9
	commentOK    = 0.8 // Dice of a comment's text with a truth comment
)

// tally counts the successes of one field; onPage and okOnPage count the
// cases whose truth the page shows at all (author and date only).
type tally struct{ ok, n, onPage, okOnPage int }

// addOnPage counts a case whose truth the page shows.
func (t *tally) addOnPage(on, ok bool) {
	if on {
		t.onPage++
		if ok {
			t.okOnPage++
		}
	}
}

// add counts one case.
func (t *tally) add(ok bool) {
	t.n++
	if ok {
		t.ok++
	}
}

// rate returns ok/n, 0 when n is 0.
func (t tally) rate() float64 {
	if t.n == 0 {
		return 0
	}
	return float64(t.ok) / float64(t.n)
}

// score accumulates one system's scores over posts (of a blog or overall).
type score struct {
	art8, art5, title, author, date tally
	f1Sum                           float64
	commentPosts                    int
	cExtracted, cMatched, cTruth    int
	hasComments                     bool
	posts                           int
	errors                          int
	extract                         time.Duration // summed over posts
	bytes                           int64         // page bytes extracted (for ms per 100 KB)
	learn                           time.Duration
	learnPages                      int
	learned                         bool
	methods                         map[string]int
	// Authors inferred from the feed (result.AuthorInferred), of those the
	// right ones, and the right ones on pages that show the truth author
	// (counted in author.okOnPage too); infers says the system may infer
	// at all (blogharvest).
	inferred, inferredOK, inferredOKOnPage int
	infers                                 bool
}

// newScore returns an empty score.
func newScore() *score { return &score{methods: map[string]int{}} }

// add scores one extraction against its truth and returns the fields it
// got wrong ("article", "title", "author", "date").
func (s *score) add(r result, t truth) (misses []string) {
	s.posts++
	check := func(name string, tl *tally, ok bool) {
		tl.add(ok)
		if !ok {
			misses = append(misses, name)
		}
	}
	if t.FullText {
		d := textsim.Dice(r.Text, t.Text)
		check("article", &s.art8, d >= articleOK)
		s.art5.add(d >= articleLoose)
		s.f1Sum += textsim.TokenF1(r.Text, t.Text)
	}
	if t.Title != "" {
		check("title", &s.title, textsim.Dice(r.Title, t.Title) >= titleOK)
	}
	if t.Author != "" {
		ok := textsim.SameAuthor(r.Author, t.Author)
		check("author", &s.author, ok)
		s.author.addOnPage(t.AuthorOnPage, ok)
	}
	s.addInferred(r, t)
	if !t.Date.IsZero() {
		ok := textsim.SameDay(r.Date, t.Date)
		check("date", &s.date, ok)
		s.date.addOnPage(t.DateOnPage, ok)
	}
	if r.HasComments {
		s.hasComments = true
		if t.CommentTruth {
			s.addComments(r.Comments, t.Comments)
		}
	}
	for field, m := range r.Methods {
		s.methods[field+"="+m]++
	}
	for _, m := range r.CommentFrom {
		s.methods["comment="+m]++
	}
	return misses
}

// addInferred counts an author the system inferred from the feed rather
// than read from the page (scored only where the truth has an author).
func (s *score) addInferred(r result, t truth) {
	s.infers = s.infers || r.InfersAuthor
	if !r.AuthorInferred || t.Author == "" {
		return
	}
	s.inferred++
	if textsim.SameAuthor(r.Author, t.Author) {
		s.inferredOK++
		if t.AuthorOnPage {
			s.inferredOKOnPage++
		}
	}
}

// addComments matches extracted comments with truth comments one to one
// by text (Dice ≥ commentOK), greedily in order.
func (s *score) addComments(got, want []string) {
	s.commentPosts++
	s.cExtracted += len(got)
	s.cTruth += len(want)
	used := make([]bool, len(want))
	for _, g := range got {
		for j, w := range want {
			if !used[j] && textsim.Dice(g, w) >= commentOK {
				used[j] = true
				s.cMatched++
				break
			}
		}
	}
}

// merge adds o into s.
func (s *score) merge(o *score) {
	for _, p := range [][2]*tally{{&s.art8, &o.art8}, {&s.art5, &o.art5}, {&s.title, &o.title},
		{&s.author, &o.author}, {&s.date, &o.date}} {
		p[0].ok += p[1].ok
		p[0].n += p[1].n
		p[0].onPage += p[1].onPage
		p[0].okOnPage += p[1].okOnPage
	}
	s.f1Sum += o.f1Sum
	s.commentPosts += o.commentPosts
	s.cExtracted += o.cExtracted
	s.cMatched += o.cMatched
	s.cTruth += o.cTruth
	s.hasComments = s.hasComments || o.hasComments
	s.posts += o.posts
	s.errors += o.errors
	s.extract += o.extract
	s.bytes += o.bytes
	s.learn += o.learn
	s.learnPages += o.learnPages
	s.learned = s.learned || o.learned
	s.inferred += o.inferred
	s.inferredOK += o.inferredOK
	s.inferredOKOnPage += o.inferredOKOnPage
	s.infers = s.infers || o.infers
	for k, v := range o.methods {
		s.methods[k] += v
	}
}

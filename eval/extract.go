package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// extractor runs extract mode: learn on one half, extract the other, swap.
type extractor struct {
	baselines []baseline
	tl        *timeline
	systems   []string
	logf      func(format string, args ...any) // blogharvest's misses, with -v
	warm      bool                             // one-time initialisation done (see warmUp)
	reps      int                              // each timed call runs this many times; the fastest counts
}

// newExtractor returns an extractor for blogharvest and the baselines.
func newExtractor(bs []baseline, tl *timeline, logf func(string, ...any)) *extractor {
	x := &extractor{baselines: bs, tl: tl, systems: []string{systemOurs}, logf: logf}
	for _, b := range bs {
		x.systems = append(x.systems, b.name)
	}
	return x
}

// blog evaluates one blog's samples (oldest first).
func (x *extractor) blog(name string, samples []sample) *blogRun {
	br := newBlogRun(name, x.systems)
	x.warmUp(samples)
	if len(samples) < 2 {
		br.skip = fmt.Sprintf("%d post(s) with a page: nothing to hold out", len(samples))
	}
	older, newer := halves(samples)
	x.half(br, older, newer)
	x.half(br, newer, older)
	return br
}

// half learns on train and scores every system on test.
func (x *extractor) half(br *blogRun, train, test []sample) {
	if len(test) == 0 {
		return
	}
	ours := br.scores[systemOurs]
	var rules *learn.Rules
	var err error
	d := minTime(x.reps, func() { rules, _, err = learnRules(train) })
	if err != nil {
		ours.errors++
	}
	ours.learn += d
	ours.learnPages += len(train)
	ours.learned = ours.learned || len(train) > 0
	x.tl.add(systemOurs, d, false)
	for _, s := range test {
		t := truthOf(s)
		x.ours(ours, rules, s, t)
		for _, b := range x.baselines {
			x.baseline(br.scores[b.name], b, s, t)
		}
	}
}

// learnRules learns from train and times it; nil rules (fallbacks only)
// when train is empty or learning fails.
func learnRules(train []sample) (*learn.Rules, time.Duration, error) {
	if len(train) == 0 {
		return nil, 0, nil
	}
	pairs := make([]learn.Pair, len(train))
	for i, s := range train {
		pairs[i] = s.pair()
	}
	start := time.Now()
	rules, err := learn.Learn(pairs, learn.Options{})
	return rules, time.Since(start), err
}

// ours extracts one page with the learned rules and scores it.
func (x *extractor) ours(sc *score, rules *learn.Rules, s sample, t truth) {
	var ex learn.Extraction
	var err error
	d := minTime(x.reps, func() { ex, err = rules.Extract(s.Page) })
	if err != nil && !errors.Is(err, blogharvest.ErrNoArticle) {
		sc.errors++
	}
	sc.extract += d
	sc.bytes += int64(len(s.Page.HTML))
	x.tl.add(systemOurs, d, true)
	x.tl.add(curveOursApply, d, true)
	r := resultOf(ex)
	r.AuthorInferred = inferredAuthor(rules, s.Page, r.Author, r.Methods[learn.FieldAuthor])
	for _, m := range sc.add(r, t) {
		x.logf("  miss %s %s: %s", m, s.Page.URL, missDetail(m, r, t))
	}
}

// inferredAuthor reports whether blogharvest's author for page p is the
// feed's sole author inferred by the rules (learn.Rules.SoleAuthor, which
// Extract records as a heuristic) rather than read from the page: the
// method is heuristic, the value is the sole author, and the same rules
// without SoleAuthor give the page another author or none. The extra
// extraction is untimed and only runs for such candidates.
func inferredAuthor(rules *learn.Rules, p learn.Page, author, method string) bool {
	if rules == nil || rules.SoleAuthor == "" || author == "" || author != rules.SoleAuthor ||
		method != string(blogharvest.MethodHeuristic) {
		return false
	}
	without := *rules
	without.SoleAuthor = ""
	ex, _ := without.Extract(p)
	return ex.Author != author
}

// missDetail says what was extracted and what was wanted for a field.
func missDetail(field string, r result, t truth) string {
	switch field {
	case "article":
		return fmt.Sprintf("dice %.2f, got %d chars %.80q, want %d chars %.80q", textsim.Dice(r.Text, t.Text),
			len(r.Text), r.Text, len(t.Text), t.Text)
	case "title":
		return fmt.Sprintf("got %q, want %q", r.Title, t.Title)
	case "author":
		return fmt.Sprintf("got %q, want %q (%s)", r.Author, t.Author, r.Methods[learn.FieldAuthor])
	default:
		return fmt.Sprintf("got %v, want %v (%s)", r.Date, t.Date, r.Methods[learn.FieldDate])
	}
}

// baseline runs one baseline on one page and scores it.
func (x *extractor) baseline(sc *score, b baseline, s sample, t truth) {
	var r result
	var err error
	d := minTime(x.reps, func() { r, err = b.extract(s.Page) })
	if err != nil {
		sc.errors++
	}
	sc.extract += d
	sc.bytes += int64(len(s.Page.HTML))
	x.tl.add(b.name, d, true)
	sc.add(r, t)
}

// resultOf converts blogharvest's extraction.
func resultOf(ex learn.Extraction) result {
	r := result{Title: ex.Title, Author: ex.Author, Date: ex.Date, Text: ex.ContentText, HasComments: true,
		InfersAuthor: true, Methods: map[string]string{}}
	for _, c := range ex.Comments {
		r.Comments = append(r.Comments, c.ContentText)
	}
	for f, m := range ex.Methods {
		r.Methods[f] = string(m)
	}
	return r
}

// minTime runs fn reps times (at least once) and returns the fastest run:
// on a shared machine the minimum is the best estimate of the work itself.
func minTime(reps int, fn func()) time.Duration {
	best := time.Duration(-1)
	for i := 0; i < max(reps, 1); i++ {
		start := time.Now()
		fn()
		if d := time.Since(start); best < 0 || d < best {
			best = d
		}
	}
	return best
}

// warmUp runs every system once, untimed, on the first blog with two
// samples, so one-time initialisation (regexp compilation, date parser
// tables, the WebAssembly regexp engine) is not charged to the first blog:
// the report gives steady-state times.
func (x *extractor) warmUp(samples []sample) {
	if x.warm || len(samples) < 2 {
		return
	}
	x.warm = true
	if rules, _, err := learnRules(samples[:1]); err == nil {
		_, _ = rules.Extract(samples[1].Page)
	}
	for _, b := range x.baselines {
		_, _ = b.extract(samples[1].Page)
	}
}

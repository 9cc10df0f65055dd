package main

import (
	"time"
)

// blogRun holds one blog's scores per system.
type blogRun struct {
	name    string
	fixture bool              // one of the project's fixture blogs, not a real corpus blog
	skip    string            // why the blog was not evaluated; "" when it was
	scores  map[string]*score // by system name
	crawl   *crawlStats       // crawl mode only
}

// newBlogRun returns a blogRun with an empty score per system.
func newBlogRun(name string, systems []string) *blogRun {
	br := &blogRun{name: name, scores: map[string]*score{}}
	for _, s := range systems {
		br.scores[s] = newScore()
	}
	return br
}

// point is one step of a system's cumulative time curve.
type point struct {
	Posts int     `json:"posts"`
	MS    float64 `json:"ms"`
}

// timeline records, per system, the cumulative extraction time after each
// post (and after each learning step, for blogharvest).
type timeline struct {
	posts map[string]int
	total map[string]time.Duration
	curve map[string][]point
}

// newTimeline returns an empty timeline.
func newTimeline() *timeline {
	return &timeline{posts: map[string]int{}, total: map[string]time.Duration{}, curve: map[string][]point{}}
}

// add records d spent by system; post says whether a post was completed.
func (tl *timeline) add(system string, d time.Duration, post bool) {
	if post {
		tl.posts[system]++
	}
	tl.total[system] += d
	tl.curve[system] = append(tl.curve[system], point{tl.posts[system], ms(tl.total[system])})
}

// ms converts a duration to fractional milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// evaluation is the outcome of a whole run.
type evaluation struct {
	mode     string
	systems  []string // report order
	blogs    []*blogRun
	timeline *timeline
	started  time.Time
	wall     time.Duration
}

// totals sums the blogs' scores per system.
func (ev *evaluation) totals() map[string]*score { return ev.totalsOf(ev.blogs) }

// totalsOf sums the scores of blogs per system.
func (ev *evaluation) totalsOf(blogs []*blogRun) map[string]*score {
	out := map[string]*score{}
	for _, s := range ev.systems {
		out[s] = newScore()
	}
	for _, b := range blogs {
		for s, sc := range b.scores {
			out[s].merge(sc)
		}
	}
	return out
}

// Groups of blogs reported apart: the real corpus and the project's own
// fixture blogs (built with the extractor in mind, so never mixed with
// the corpus in a headline figure).
const (
	groupCorpus   = "corpus"
	groupFixtures = "fixtures"
)

// group returns the blogs of one group, in run order.
func (ev *evaluation) group(name string) []*blogRun {
	var out []*blogRun
	for _, b := range ev.blogs {
		if b.fixture == (name == groupFixtures) {
			out = append(out, b)
		}
	}
	return out
}

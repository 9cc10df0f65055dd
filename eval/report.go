package main

import (
	"time"
)

// report is the JSON document eval writes (the report's contract).
type report struct {
	Mode     string            `json:"mode"`
	Command  string            `json:"command,omitempty"` // the command line, as run in eval/
	Corpus   string            `json:"corpus,omitempty"`
	LoadAvg  string            `json:"load_avg,omitempty"` // /proc/loadavg at the end: timings are only as quiet as the machine
	Started  time.Time         `json:"started"`
	Reps     int               `json:"reps,omitempty"` // timed calls repeated, fastest kept (extract mode)
	WallMS   float64           `json:"wall_ms"`
	Versions map[string]string `json:"versions"`
	// Systems sums every blog evaluated, corpus and fixtures together;
	// Groups sums the real corpus ("corpus") and the fixture blogs
	// ("fixtures") apart: quote those.
	Systems map[string]systemJSON `json:"systems"`
	Groups  map[string]groupJSON  `json:"groups"`
	Blogs   []blogJSON            `json:"blogs"`
	Curves  map[string][]point    `json:"curves,omitempty"` // cumulative time per system (extract mode)
	Gate    *gateJSON             `json:"gate,omitempty"`   // the floors check (-floors)
}

// groupJSON sums one group of blogs (groupCorpus or groupFixtures).
type groupJSON struct {
	Blogs   int                   `json:"blogs"` // blogs of the group, skipped ones included
	Systems map[string]systemJSON `json:"systems"`
}

// blogJSON is one blog's part of the report.
type blogJSON struct {
	Name    string                `json:"name"`
	Skipped string                `json:"skipped,omitempty"`
	Systems map[string]systemJSON `json:"systems"`
	// Figures are blogharvest's per-blog figures (figures.go), the ones
	// the floors watch.
	Figures map[string]figure `json:"figures,omitempty"`
}

// fieldJSON is the success count of one field. For author and date,
// OnPage counts the truth values the page shows (truth.AuthorOnPage,
// truth.DateOnPage) and OKOnPage the successes among them. For
// blogharvest's author, Inferred counts the authors inferred from the
// feed (the feed's sole author, for a page that names nobody), InferredOK
// the right ones, and OKOnPageInferred the right ones on pages that show
// the author (they are in OKOnPage too).
type fieldJSON struct {
	N                int      `json:"n"`
	OK               int      `json:"ok"`
	Success          float64  `json:"success"`
	OnPage           *int     `json:"on_page,omitempty"`
	OKOnPage         *int     `json:"ok_on_page,omitempty"`
	SuccessOnPage    *float64 `json:"success_on_page,omitempty"`
	Inferred         *int     `json:"inferred,omitempty"`
	InferredOK       *int     `json:"inferred_ok,omitempty"`
	OKOnPageInferred *int     `json:"ok_on_page_inferred,omitempty"`
}

// articleJSON scores the article text.
type articleJSON struct {
	N         int     `json:"n"`
	OK        int     `json:"ok"`
	Success   float64 `json:"success"`
	OK05      int     `json:"ok_05"`
	Success05 float64 `json:"success_05"`
	TokenF1   float64 `json:"token_f1"`
}

// commentsJSON scores the comments of posts with comment truth.
type commentsJSON struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	N         int     `json:"n"` // truth comments
	Extracted int     `json:"extracted"`
	Matched   int     `json:"matched"`
	Posts     int     `json:"posts"` // posts with comment truth
}

// discoveryJSON is crawl mode's discovery recall over the held-out posts:
// over every held-out post with a page (HeldOut, FoundAll, RecallAll) and
// over those reachable by links (N, Found, Recall).
type discoveryJSON struct {
	HeldOut   int     `json:"held_out"` // every held-out post with a page
	FoundAll  int     `json:"found_all"`
	RecallAll float64 `json:"recall_all"`
	N         int     `json:"n"` // held-out posts reachable by links
	Found     int     `json:"found"`
	Recall    float64 `json:"recall"`
	// Unreachable counts held-out posts linked from no page the crawl
	// could reach (not in N); FoundUnreachable those found anyway.
	Unreachable      int `json:"unreachable"`
	FoundUnreachable int `json:"found_unreachable"`
}

// archiveJSON is crawl mode's whole-archive discovery: every post page of
// the capture (Matched, found by the feed's URL pattern; beside blog.json's
// Posts it shows how well that pattern fits), FoundAll of them emitted;
// N of them reachable by links from the home page and the kept entries,
// Found of those emitted.
type archiveJSON struct {
	Matched   int     `json:"matched"`
	FoundAll  int     `json:"found_all"`
	RecallAll float64 `json:"recall_all"`
	N         int     `json:"n"`
	Found     int     `json:"found"`
	Recall    float64 `json:"recall"`
	Posts     int     `json:"posts"`
	// Emitted counts every entry the crawl emitted; ExtraPosts those of
	// kind post that are no post of the capture (listing pages taken for
	// posts, say), with a few examples.
	Emitted       int      `json:"emitted"`
	ExtraPosts    int      `json:"extra_posts"`
	ExtraExamples []string `json:"extra_examples,omitempty"`
}

// systemJSON is one system's scores.
type systemJSON struct {
	Posts          int           `json:"posts"`
	Article        articleJSON   `json:"article"`
	Title          fieldJSON     `json:"title"`
	Author         fieldJSON     `json:"author"`
	Date           fieldJSON     `json:"date"`
	Comments       *commentsJSON `json:"comments,omitempty"`
	MSPerPost      float64       `json:"ms_per_post"`
	MSPer100KB     float64       `json:"ms_per_100kb,omitempty"` // extraction time per 100 KB of page
	LearnMS        *float64      `json:"learn_ms,omitempty"`
	LearnMSPerPage *float64      `json:"learn_ms_per_page,omitempty"`
	// Extract mode, blogharvest: the cost per post with learning counted.
	// Amortised: learning a feed of amortFeed items once (amortFeed ×
	// LearnMSPerPage) and extracting amortPosts posts, per post.
	// WithLearning: this run's learning time plus extraction time over
	// its posts (every post is learned on once and extracted once).
	MSPerPostAmortised    *float64       `json:"ms_per_post_amortised,omitempty"`
	MSPerPostWithLearning *float64       `json:"ms_per_post_with_learning,omitempty"`
	Errors                int            `json:"errors"`
	Methods               map[string]int `json:"methods,omitempty"`
	Discovery             *discoveryJSON `json:"discovery,omitempty"`
	Archive               *archiveJSON   `json:"archive,omitempty"`
	CrawlWallMS           *float64       `json:"wall_ms,omitempty"`
	PagesFetched          *int           `json:"pages,omitempty"`
	PeakRSSKB             *int64         `json:"peak_rss_kb,omitempty"`
	Warnings              *int           `json:"warnings,omitempty"`
}

// field converts a tally.
func field(t tally) fieldJSON { return fieldJSON{N: t.n, OK: t.ok, Success: round(t.rate())} }

// onPage converts a tally with its on-page counts.
func onPage(t tally) fieldJSON {
	f := field(t)
	on, ok := t.onPage, t.okOnPage
	f.OnPage, f.OKOnPage = &on, &ok
	if on > 0 {
		r := round(float64(ok) / float64(on))
		f.SuccessOnPage = &r
	}
	return f
}

// authorJSON converts the author tally with, for a system that may infer
// authors, the inferred counts.
func (s *score) authorJSON() fieldJSON {
	f := onPage(s.author)
	if s.infers {
		n, ok, okOn := s.inferred, s.inferredOK, s.inferredOKOnPage
		f.Inferred, f.InferredOK, f.OKOnPageInferred = &n, &ok, &okOn
	}
	return f
}

// Amortisation of learning (systemJSON.MSPerPostAmortised): a feed of
// amortFeed items learned once, amortPosts posts extracted.
const (
	amortFeed  = 15
	amortPosts = 1000
)

// setLearningCost fills the per-post costs with learning counted.
func (s *score) setLearningCost(out *systemJSON) {
	if !s.learned || s.posts == 0 || s.learnPages == 0 {
		return
	}
	perPage := ms(s.learn) / float64(s.learnPages)
	am := round((amortFeed*perPage + amortPosts*ms(s.extract)/float64(s.posts)) / amortPosts)
	wl := round((ms(s.learn) + ms(s.extract)) / float64(s.posts))
	out.MSPerPostAmortised, out.MSPerPostWithLearning = &am, &wl
}

// json converts a score.
func (s *score) json() systemJSON {
	out := systemJSON{
		Posts: s.posts,
		Article: articleJSON{N: s.art8.n, OK: s.art8.ok, Success: round(s.art8.rate()), OK05: s.art5.ok,
			Success05: round(s.art5.rate())},
		Title: field(s.title), Author: s.authorJSON(), Date: onPage(s.date), Errors: s.errors,
	}
	if s.art8.n > 0 {
		out.Article.TokenF1 = round(s.f1Sum / float64(s.art8.n))
	}
	if s.hasComments {
		out.Comments = s.commentsJSON()
	}
	if s.posts > 0 {
		out.MSPerPost = round(ms(s.extract) / float64(s.posts))
	}
	if s.bytes > 0 {
		out.MSPer100KB = round(ms(s.extract) / (float64(s.bytes) / 100e3))
	}
	if s.learned {
		l := round(ms(s.learn))
		out.LearnMS = &l
		if s.learnPages > 0 {
			p := round(ms(s.learn) / float64(s.learnPages))
			out.LearnMSPerPage = &p
		}
		s.setLearningCost(&out)
	}
	if len(s.methods) > 0 {
		out.Methods = s.methods
	}
	return out
}

// commentsJSON converts the comment counts.
func (s *score) commentsJSON() *commentsJSON {
	c := &commentsJSON{N: s.cTruth, Extracted: s.cExtracted, Matched: s.cMatched, Posts: s.commentPosts}
	c.Precision, c.Recall = 1, 1
	if s.cExtracted > 0 {
		c.Precision = round(float64(s.cMatched) / float64(s.cExtracted))
	}
	if s.cTruth > 0 {
		c.Recall = round(float64(s.cMatched) / float64(s.cTruth))
	}
	return c
}

// round keeps four decimals.
func round(f float64) float64 {
	const k = 1e4
	if f < 0 {
		return -float64(int64(-f*k+0.5)) / k
	}
	return float64(int64(f*k+0.5)) / k
}

// systemsOf sums the scores (and, in crawl mode, the crawl measurements)
// of blogs per system.
func (ev *evaluation) systemsOf(blogs []*blogRun) map[string]systemJSON {
	out := map[string]systemJSON{}
	for name, sc := range ev.totalsOf(blogs) {
		out[name] = sc.json()
	}
	if ev.mode == modeCrawl {
		out[systemOurs] = crawlTotals(blogs, out[systemOurs])
	}
	return out
}

// buildReport assembles the JSON report of an evaluation.
func buildReport(ev *evaluation, corpus string) *report {
	r := &report{Mode: ev.mode, Corpus: corpus, Started: ev.started.UTC().Truncate(time.Second),
		WallMS: round(ms(ev.wall)), Versions: versions(), LoadAvg: loadAvg(), Groups: map[string]groupJSON{}}
	r.Systems = ev.systemsOf(ev.blogs)
	for _, g := range []string{groupCorpus, groupFixtures} {
		if blogs := ev.group(g); len(blogs) > 0 {
			r.Groups[g] = groupJSON{Blogs: len(blogs), Systems: ev.systemsOf(blogs)}
		}
	}
	for _, b := range ev.blogs {
		bj := blogJSON{Name: b.name, Skipped: b.skip, Systems: map[string]systemJSON{}}
		for name, sc := range b.scores {
			bj.Systems[name] = sc.json()
		}
		if b.crawl != nil {
			bj.Systems[systemOurs] = b.crawl.fill(bj.Systems[systemOurs])
		}
		if ours, ok := bj.Systems[systemOurs]; ok {
			if f := figuresOf(ours); len(f) > 0 {
				bj.Figures = f
			}
		}
		r.Blogs = append(r.Blogs, bj)
	}
	if ev.mode == modeExtract {
		r.Curves = ev.timeline.curve
	}
	return r
}

package main

import (
	"time"
)

// report is the JSON document eval writes (the report's contract).
type report struct {
	Mode     string                `json:"mode"`
	Corpus   string                `json:"corpus,omitempty"`
	LoadAvg  string                `json:"load_avg,omitempty"` // /proc/loadavg at the end: timings are only as quiet as the machine
	Started  time.Time             `json:"started"`
	Reps     int                   `json:"reps,omitempty"` // timed calls repeated, fastest kept (extract mode)
	WallMS   float64               `json:"wall_ms"`
	Versions map[string]string     `json:"versions"`
	Systems  map[string]systemJSON `json:"systems"`
	Blogs    []blogJSON            `json:"blogs"`
	Curves   map[string][]point    `json:"curves,omitempty"` // cumulative time per system (extract mode)
}

// blogJSON is one blog's part of the report.
type blogJSON struct {
	Name    string                `json:"name"`
	Skipped string                `json:"skipped,omitempty"`
	Systems map[string]systemJSON `json:"systems"`
}

// fieldJSON is the success count of one field. For author and date,
// OnPage counts the truth values the page shows at all and OKOnPage the
// successes among them.
type fieldJSON struct {
	N        int     `json:"n"`
	OK       int     `json:"ok"`
	Success  float64 `json:"success"`
	OnPage   *int    `json:"on_page,omitempty"`
	OKOnPage *int    `json:"ok_on_page,omitempty"`
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

// discoveryJSON is crawl mode's discovery recall over the held-out posts.
type discoveryJSON struct {
	N      int     `json:"n"` // held-out posts reachable by links
	Found  int     `json:"found"`
	Recall float64 `json:"recall"`
	// Unreachable counts held-out posts linked from no page the crawl
	// could reach (not in N); FoundUnreachable those found anyway.
	Unreachable      int `json:"unreachable"`
	FoundUnreachable int `json:"found_unreachable"`
}

// archiveJSON is crawl mode's whole-archive discovery: every post page of
// the capture (found by the feed's URL pattern; Matched beside blog.json's
// Posts shows how well that pattern fits), N of them reachable by links
// from the home page and the kept entries, Found of those emitted.
type archiveJSON struct {
	N       int     `json:"n"`
	Found   int     `json:"found"`
	Recall  float64 `json:"recall"`
	Matched int     `json:"matched"`
	Posts   int     `json:"posts"`
	// Emitted counts every entry the crawl emitted; ExtraPosts those of
	// kind post that are no post of the capture (listing pages taken for
	// posts, say), with a few examples.
	Emitted       int      `json:"emitted"`
	ExtraPosts    int      `json:"extra_posts"`
	ExtraExamples []string `json:"extra_examples,omitempty"`
}

// systemJSON is one system's scores.
type systemJSON struct {
	Posts          int            `json:"posts"`
	Article        articleJSON    `json:"article"`
	Title          fieldJSON      `json:"title"`
	Author         fieldJSON      `json:"author"`
	Date           fieldJSON      `json:"date"`
	Comments       *commentsJSON  `json:"comments,omitempty"`
	MSPerPost      float64        `json:"ms_per_post"`
	MSPer100KB     float64        `json:"ms_per_100kb,omitempty"` // extraction time per 100 KB of page
	LearnMS        *float64       `json:"learn_ms,omitempty"`
	LearnMSPerPage *float64       `json:"learn_ms_per_page,omitempty"`
	Errors         int            `json:"errors"`
	Methods        map[string]int `json:"methods,omitempty"`
	Discovery      *discoveryJSON `json:"discovery,omitempty"`
	Archive        *archiveJSON   `json:"archive,omitempty"`
	CrawlWallMS    *float64       `json:"wall_ms,omitempty"`
	PagesFetched   *int           `json:"pages,omitempty"`
	PeakRSSKB      *int64         `json:"peak_rss_kb,omitempty"`
	Warnings       *int           `json:"warnings,omitempty"`
}

// field converts a tally.
func field(t tally) fieldJSON { return fieldJSON{N: t.n, OK: t.ok, Success: round(t.rate())} }

// onPage converts a tally with its on-page counts.
func onPage(t tally) fieldJSON {
	f := field(t)
	on, ok := t.onPage, t.okOnPage
	f.OnPage, f.OKOnPage = &on, &ok
	return f
}

// json converts a score.
func (s *score) json() systemJSON {
	out := systemJSON{
		Posts: s.posts,
		Article: articleJSON{N: s.art8.n, OK: s.art8.ok, Success: round(s.art8.rate()), OK05: s.art5.ok,
			Success05: round(s.art5.rate())},
		Title: field(s.title), Author: onPage(s.author), Date: onPage(s.date), Errors: s.errors,
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

// buildReport assembles the JSON report of an evaluation.
func buildReport(ev *evaluation, corpus string) *report {
	r := &report{Mode: ev.mode, Corpus: corpus, Started: ev.started.UTC().Truncate(time.Second),
		WallMS: round(ms(ev.wall)), Versions: versions(), Systems: map[string]systemJSON{}, LoadAvg: loadAvg()}
	for name, sc := range ev.totals() {
		r.Systems[name] = sc.json()
	}
	if ev.mode == modeCrawl {
		r.Systems[systemOurs] = crawlTotals(ev, r.Systems[systemOurs])
	}
	for _, b := range ev.blogs {
		bj := blogJSON{Name: b.name, Skipped: b.skip, Systems: map[string]systemJSON{}}
		for name, sc := range b.scores {
			bj.Systems[name] = sc.json()
		}
		if b.crawl != nil {
			bj.Systems[systemOurs] = b.crawl.fill(bj.Systems[systemOurs])
		}
		r.Blogs = append(r.Blogs, bj)
	}
	if ev.mode == modeExtract {
		r.Curves = ev.timeline.curve
	}
	return r
}

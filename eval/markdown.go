package main

import (
	"fmt"
	"io"
	"strings"
)

// writeMarkdown writes the report as Markdown tables: the systems over
// the real corpus and over the fixture blogs apart (with, in extract
// mode, the speed with and without learning), then every blog with a row
// per system.
func writeMarkdown(w io.Writer, r *report, systems []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# blogharvest evaluation, mode %s\n\n", r.Mode)
	if r.Command != "" {
		fmt.Fprintf(&b, "Command (in eval/): `%s`\n\n", r.Command)
	}
	if r.Corpus != "" {
		fmt.Fprintf(&b, "Corpus `%s`, ", r.Corpus)
	}
	fmt.Fprintf(&b, "started %s, wall time %.1f s, load average %s.", r.Started.Format("2006-01-02 15:04 MST"),
		r.WallMS/1000, r.LoadAvg)
	if r.Reps > 0 {
		fmt.Fprintf(&b, " Each timed call ran %d× and the fastest run counts.", r.Reps)
	}
	b.WriteString("\n\n")
	crawl := r.Mode == modeCrawl
	writeLegend(&b, crawl)
	for _, g := range []string{groupCorpus, groupFixtures} {
		gj, ok := r.Groups[g]
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "\n## %s (%s%s)\n\n", groupTitles[g], plural(gj.Blogs, "blog"), groupNotes[g])
		header(&b, "system", crawl)
		for _, s := range systems {
			if sj, ok := gj.Systems[s]; ok {
				row(&b, s, sj, crawl)
			}
		}
		if !crawl {
			speed(&b, gj.Systems, systems)
		}
	}
	b.WriteString("\n## Per blog\n\n")
	header(&b, "blog / system", crawl)
	for _, bl := range r.Blogs {
		if bl.Skipped != "" && bl.Systems[systemOurs].Posts == 0 {
			fmt.Fprintf(&b, "| %s | skipped: %s |\n", bl.Name, bl.Skipped)
			continue
		}
		for _, s := range systems {
			if sj, ok := bl.Systems[s]; ok {
				row(&b, bl.Name+" / "+s, sj, crawl)
			}
		}
	}
	writeFigures(&b, r)
	writeVersions(&b, r)
	_, err := io.WriteString(w, b.String())
	return err
}

// groupTitles and groupNotes make the headings of the groups' tables.
var (
	groupTitles = map[string]string{groupCorpus: "Real corpus", groupFixtures: "Fixture blogs"}
	groupNotes  = map[string]string{groupFixtures: ": the project's own test blogs, not real ones"}
)

// writeLegend explains the tables' cells.
func writeLegend(b *strings.Builder, crawl bool) {
	b.WriteString(`Success rates with counts (ok/n). The real corpus and the fixture blogs are summed apart, never together.

- **author shown on page**: scored only on posts whose page shows the truth author's name in its visible text (the
  name's words, consecutive, in the text outside scripts and styles; metadata does not count); "(k from feed)": k of
  those right values were inferred from the feed, not read from the page.
- **author, all**: every post with a truth author; "[m from feed, k right]": blogharvest gave m pages that name nobody
  the feed's sole author (learn.Rules.SoleAuthor, method heuristic), k of them right.
- **date** "[k/m shown]": the page's HTML holds only m of the n truth dates (one of learn.DateRenderings), and k of
  those were found.
`)
	if crawl {
		b.WriteString(`- **held-out found**: the older feed entries cut from the served feed (fixtures: the posts beyond the feed's first
  page) that the crawl emitted, over all of them with a page ("/ all"), then over those reachable by links from the
  home page and the kept entries' pages ("/ reachable").
- **capture posts found**: every post page of the capture (the feed's permalink pattern), the same two ways.
`)
	} else {
		fmt.Fprintf(b, `- **speed**: extraction alone (parse + apply, per post); learning per training page; amortised: a %d-item feed
  learned once plus %d posts extracted, per post; with learning (this run): all learning plus all extraction over the
  posts, each post learned on once and extracted once (a blog of a handful of posts). "× blogharvest": each system's
  ms/post over blogharvest's figure, measured post by post in the same run.
`, amortFeed, amortPosts)
	}
}

// columns of the tables.
var (
	extractCols = []string{"posts", "article ≥0.8", "article ≥0.5", "token F1", "title ≥0.9", "author shown on page",
		"author, all", "date", "comments P / R (n)", "ms/post", "learn ms (per page)"}
	crawlCols = []string{"held-out found / all", "held-out found / reachable", "capture posts found / all",
		"capture posts found / reachable", "wall s", "pages", "peak RSS MB"}
)

// header writes a table header.
func header(b *strings.Builder, first string, crawl bool) {
	cols := append([]string{first}, extractCols...)
	if crawl {
		cols = append(cols, crawlCols...)
	}
	fmt.Fprintf(b, "| %s |\n|%s\n", strings.Join(cols, " | "), strings.Repeat("---|", len(cols)))
}

// row writes one system's row.
func row(b *strings.Builder, name string, s systemJSON, crawl bool) {
	cells := []string{name, fmt.Sprint(s.Posts),
		pct(s.Article.OK, s.Article.N), pct(s.Article.OK05, s.Article.N), f1(s.Article),
		pct(s.Title.OK, s.Title.N), authorShown(s.Author), authorAll(s.Author), withOnPage(s.Date),
		comments(s.Comments), fmt.Sprintf("%.2f", s.MSPerPost), learnCell(s)}
	if crawl {
		cells = append(cells, crawlCells(s)...)
	}
	fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
}

// authorShown formats the author's success on pages that show it.
func authorShown(f fieldJSON) string {
	if f.OnPage == nil {
		return "–"
	}
	out := pct(*f.OKOnPage, *f.OnPage)
	if f.OKOnPageInferred != nil && *f.OKOnPageInferred > 0 {
		out += fmt.Sprintf(" (%d from feed)", *f.OKOnPageInferred)
	}
	return out
}

// authorAll formats the author's success over every truth author, with
// the inferred ones.
func authorAll(f fieldJSON) string {
	out := pct(f.OK, f.N)
	if f.Inferred != nil && *f.Inferred > 0 {
		out += fmt.Sprintf(" [%d from feed, %d right]", *f.Inferred, *f.InferredOK)
	}
	return out
}

// pct formats a success rate with its counts.
func pct(ok, n int) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f %% (%d/%d)", 100*float64(ok)/float64(n), ok, n)
}

// withOnPage formats a field's success with, when the page did not show
// every truth value, the count of those it did show.
func withOnPage(f fieldJSON) string {
	out := pct(f.OK, f.N)
	if f.OnPage != nil && *f.OnPage < f.N {
		out += fmt.Sprintf(" [%d/%d shown]", *f.OKOnPage, *f.OnPage)
	}
	return out
}

// f1 formats the mean token F1.
func f1(a articleJSON) string {
	if a.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.3f", a.TokenF1)
}

// comments formats comment precision and recall.
func comments(c *commentsJSON) string {
	if c == nil || c.Posts == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f / %.2f (%d)", c.Precision, c.Recall, c.N)
}

// learnCell formats blogharvest's learning time.
func learnCell(s systemJSON) string {
	if s.LearnMS == nil {
		return "–"
	}
	if s.LearnMSPerPage == nil {
		return fmt.Sprintf("%.1f", *s.LearnMS)
	}
	return fmt.Sprintf("%.1f (%.2f)", *s.LearnMS, *s.LearnMSPerPage)
}

// crawlCells formats the crawl columns.
func crawlCells(s systemJSON) []string {
	out := []string{"–", "–", "–", "–", "–", "–", "–"}
	if d := s.Discovery; d != nil {
		out[0], out[1] = pct(d.FoundAll, d.HeldOut), pct(d.Found, d.N)
	}
	if a := s.Archive; a != nil {
		out[2], out[3] = pct(a.FoundAll, a.Matched), pct(a.Found, a.N)
	}
	if s.CrawlWallMS != nil {
		out[4] = fmt.Sprintf("%.2f", *s.CrawlWallMS/1000)
	}
	if s.PagesFetched != nil {
		out[5] = fmt.Sprint(*s.PagesFetched)
	}
	if s.PeakRSSKB != nil {
		out[6] = fmt.Sprintf("%.0f", float64(*s.PeakRSSKB)/1024)
	}
	return out
}

// writeVersions lists the module versions the run was built with.
func writeVersions(b *strings.Builder, r *report) {
	if len(r.Versions) == 0 {
		return
	}
	b.WriteString("\nVersions: ")
	var parts []string
	for _, k := range sortedStrings(r.Versions) {
		parts = append(parts, fmt.Sprintf("%s %s", k, r.Versions[k]))
	}
	b.WriteString(strings.Join(parts, ", ") + ".\n")
}

// speed writes each system's time per post, blogharvest's with and
// without learning, and every ratio to blogharvest's figures.
func speed(b *strings.Builder, sys map[string]systemJSON, systems []string) {
	ours, ok := sys[systemOurs]
	if !ok || ours.MSPerPost == 0 {
		return
	}
	am, wl := orZero(ours.MSPerPostAmortised), orZero(ours.MSPerPostWithLearning)
	fmt.Fprintf(b, "\n| speed | extraction ms/post | ms per 100 KB | learn ms per training page | amortised ms/post (%d-item feed + %d posts) | "+
		"ms/post with learning (this run) | × blogharvest, extraction | × blogharvest, amortised | × blogharvest, with learning |\n"+
		"|---|---|---|---|---|---|---|---|---|\n", amortFeed, amortPosts)
	for _, s := range systems {
		o, ok := sys[s]
		if !ok {
			continue
		}
		cells := []string{"–", "–", "–", times(o.MSPerPost, ours.MSPerPost), times(o.MSPerPost, am), times(o.MSPerPost, wl)}
		if s == systemOurs {
			cells = []string{fmt.Sprintf("%.2f", orZero(ours.LearnMSPerPage)), fmt.Sprintf("%.2f", am),
				fmt.Sprintf("%.2f", wl), "–", "–", "–"}
		}
		fmt.Fprintf(b, "| %s | %.2f | %.2f | %s |\n", s, o.MSPerPost, o.MSPer100KB, strings.Join(cells, " | "))
	}
	for _, s := range systems[1:] {
		if o, ok := sys[s]; ok {
			fmt.Fprintf(b, "\nblogharvest against %s: %s faster on extraction alone, %s with a %d-item feed learned once and %d posts "+
				"extracted, %s with learning counted as in this run.", s, times(o.MSPerPost, ours.MSPerPost),
				times(o.MSPerPost, am), amortFeed, amortPosts, times(o.MSPerPost, wl))
		}
	}
	b.WriteString("\n")
}

// times formats a/b as a speed ratio ("17.6×"), "–" when b is 0.
func times(a, b float64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f×", a/b)
}

// plural formats a count of things.
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// orZero dereferences a float, 0 for nil.
func orZero(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

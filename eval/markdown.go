package main

import (
	"fmt"
	"io"
	"strings"
)

// writeMarkdown writes the report as Markdown tables: the systems overall,
// then every blog with a row per system.
func writeMarkdown(w io.Writer, r *report, systems []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# blogharvest evaluation, mode %s\n\n", r.Mode)
	b.WriteString("Success rates with counts (ok/n). For author and date, [k/m shown]: the page shows only m of the n truth values, and k of those were found.\n\n")
	if r.Corpus != "" {
		fmt.Fprintf(&b, "Corpus `%s`, started %s, wall time %.1f s, load average %s.", r.Corpus,
			r.Started.Format("2006-01-02 15:04 MST"), r.WallMS/1000, r.LoadAvg)
		if r.Reps > 0 {
			fmt.Fprintf(&b, " Each timed call ran %d× and the fastest run counts.", r.Reps)
		}
		b.WriteString("\n\n")
	}
	crawl := r.Mode == modeCrawl
	b.WriteString("## All blogs\n\n")
	header(&b, "system", crawl)
	for _, s := range systems {
		if sj, ok := r.Systems[s]; ok {
			row(&b, s, sj, crawl)
		}
	}
	speed(&b, r, systems)
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
	writeVersions(&b, r)
	_, err := io.WriteString(w, b.String())
	return err
}

// columns of the tables.
var (
	extractCols = []string{"posts", "article ≥0.8", "article ≥0.5", "token F1", "title ≥0.9", "author", "date",
		"comments P / R (n)", "ms/post", "learn ms (per page)"}
	crawlCols = []string{"discovery (held-out)", "all posts found", "wall s", "pages", "peak RSS MB"}
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
		pct(s.Title.OK, s.Title.N), withOnPage(s.Author), withOnPage(s.Date),
		comments(s.Comments), fmt.Sprintf("%.2f", s.MSPerPost), learnCell(s)}
	if crawl {
		cells = append(cells, crawlCells(s)...)
	}
	fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
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
	out := []string{"–", "–", "–", "–", "–"}
	if d := s.Discovery; d != nil {
		out[0] = pct(d.Found, d.N)
	}
	if a := s.Archive; a != nil {
		out[1] = pct(a.Found, a.N)
	}
	if s.CrawlWallMS != nil {
		out[2] = fmt.Sprintf("%.2f", *s.CrawlWallMS/1000)
	}
	if s.PagesFetched != nil {
		out[3] = fmt.Sprint(*s.PagesFetched)
	}
	if s.PeakRSSKB != nil {
		out[4] = fmt.Sprintf("%.0f", float64(*s.PeakRSSKB)/1024)
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

// speed writes blogharvest's extraction time per 100 KB and how many times
// faster than each baseline it is, in the same run.
func speed(b *strings.Builder, r *report, systems []string) {
	ours, ok := r.Systems[systemOurs]
	if !ok || ours.MSPerPost == 0 || r.Mode != modeExtract {
		return
	}
	fmt.Fprintf(b, "\nblogharvest: %.2f ms per post, %.2f ms per 100 KB of page (parse + apply).", ours.MSPerPost, ours.MSPer100KB)
	for _, s := range systems[1:] {
		if o, ok := r.Systems[s]; ok {
			fmt.Fprintf(b, " %s: %.2f ms per post (%.1f× blogharvest's time).", s, o.MSPerPost, o.MSPerPost/ours.MSPerPost)
		}
	}
	b.WriteString("\n")
}

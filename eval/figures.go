package main

import (
	"fmt"
	"math"
	"strings"
)

// Per-blog figures: the counts of blogharvest's results on one blog that
// the floors (floors.go) watch, each a success count over a case count.
const (
	figFoundReachable    = "found_reachable"    // crawl: held-out posts found, of those reachable by links
	figFoundAll          = "found_all"          // crawl: held-out posts found, of all with a page
	figCaptureReachable  = "capture_reachable"  // crawl: capture posts found, of those reachable by links
	figCaptureAll        = "capture_all"        // crawl: capture posts found, of all
	figArticle           = "article"            // article Dice ≥ 0.8
	figTitle             = "title"              // title Dice ≥ 0.9
	figAuthor            = "author"             // author, every post with a truth author
	figDate              = "date"               // date, same day
	figCommentsRecall    = "comments_recall"    // truth comments matched
	figCommentsPrecision = "comments_precision" // extracted comments matched
)

// figureOrder is the order of the figures in tables and messages.
var figureOrder = []string{figFoundReachable, figFoundAll, figCaptureReachable, figCaptureAll, figArticle, figTitle,
	figAuthor, figDate, figCommentsRecall, figCommentsPrecision}

// figureTitles head the per-blog figures table.
var figureTitles = map[string]string{
	figFoundReachable: "held-out found / reachable", figFoundAll: "held-out found / all",
	figCaptureReachable: "capture posts / reachable", figCaptureAll: "capture posts / all",
	figArticle: "article ≥0.8", figTitle: "title ≥0.9", figAuthor: "author", figDate: "date",
	figCommentsRecall: "comments recall", figCommentsPrecision: "comments precision",
}

// figure is one per-blog figure: OK successes of N cases, Value = OK/N
// (four decimals).
type figure struct {
	OK    int     `json:"ok"`
	N     int     `json:"n"`
	Value float64 `json:"value"`
}

// newFigure makes a figure of ok/n.
func newFigure(ok, n int) figure { return figure{OK: ok, N: n, Value: ratio(ok, n)} }

// String formats a figure as "95.8 % (23/24)".
func (f figure) String() string { return pct(f.OK, f.N) }

// figuresOf returns blogharvest's figures of one blog: only those with
// cases (no article figure for a summary feed, no comment figures
// without comment truth, no discovery figures in extract mode).
func figuresOf(s systemJSON) map[string]figure {
	out := map[string]figure{}
	put := func(name string, ok, n int) {
		if n > 0 {
			out[name] = newFigure(ok, n)
		}
	}
	if d := s.Discovery; d != nil {
		put(figFoundReachable, d.Found, d.N)
		put(figFoundAll, d.FoundAll, d.HeldOut)
	}
	if a := s.Archive; a != nil {
		put(figCaptureReachable, a.Found, a.N)
		put(figCaptureAll, a.FoundAll, a.Matched)
	}
	put(figArticle, s.Article.OK, s.Article.N)
	put(figTitle, s.Title.OK, s.Title.N)
	put(figAuthor, s.Author.OK, s.Author.N)
	put(figDate, s.Date.OK, s.Date.N)
	if c := s.Comments; c != nil && c.Posts > 0 {
		put(figCommentsRecall, c.Matched, c.N)
		put(figCommentsPrecision, c.Matched, c.Extracted)
	}
	return out
}

// floorOf is the floor a figure sets: its value cut (not rounded) to
// four decimals, so that the same counts always meet it.
func floorOf(f figure) float64 {
	if f.N == 0 {
		return 0
	}
	return math.Floor(float64(f.OK)/float64(f.N)*1e4+1e-6) / 1e4
}

// writeFigures writes the per-blog figures table: one row per blog, one
// column per figure any blog has; a figure below its floor is marked.
func writeFigures(b *strings.Builder, r *report) {
	used := map[string]bool{}
	for _, bl := range r.Blogs {
		for name := range bl.Figures {
			used[name] = true
		}
	}
	var cols []string
	for _, name := range figureOrder {
		if used[name] {
			cols = append(cols, name)
		}
	}
	if len(cols) == 0 {
		return
	}
	below := map[string]violation{}
	if r.Gate != nil {
		for _, v := range r.Gate.Violations {
			below[v.Blog+"\x00"+v.Figure] = v
		}
	}
	b.WriteString("\n## Per-blog figures (blogharvest)\n\n")
	if r.Gate != nil {
		fmt.Fprintf(b, "Floors `%s`: %d figures checked, %d below their floor (marked **below floor**).\n\n",
			r.Gate.Floors, r.Gate.Checked, len(r.Gate.Violations))
	}
	head := []string{"blog"}
	for _, c := range cols {
		head = append(head, figureTitles[c])
	}
	fmt.Fprintf(b, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, bl := range r.Blogs {
		cells := []string{bl.Name}
		if len(bl.Figures) == 0 && bl.Skipped != "" {
			cells = append(cells, "skipped: "+bl.Skipped)
			fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
			continue
		}
		for _, c := range cols {
			cell := "–"
			if f, ok := bl.Figures[c]; ok {
				cell = f.String()
			}
			if v, ok := below[bl.Name+"\x00"+c]; ok {
				cell += fmt.Sprintf(" **below floor %.4f**", v.Floor)
			}
			cells = append(cells, cell)
		}
		fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
	}
}

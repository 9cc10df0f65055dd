package daemon

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/report"
)

// A capture of a post already archived is compared with the entry's
// newest version before it is written (archiver.emit), because the
// learned rules and the page's markup can break while the post did not
// change (a redesign, doc/lifecycle.md):
//
//   - the same terms, split otherwise between categories and tags (the
//     split is read from the theme's markup: rel="tag", the links' paths),
//     keep the archived split: a redesign alone then writes no version;
//   - a capture whose fields got worse (the title, the date or the author
//     lost, terms lost, or the text down to less than half its words) is
//     not written: the newest version stands, and the run's log and
//     warnings say why (keptReason). A capture at another URL than the
//     archived version's (a move, moves.go in harvest) is written: its
//     version carries the move. So is a capture whose post says it was
//     modified after the archived version (its modified date later): the
//     author's edit, not a broken rule, emptied it.

// minWordsKept is the share of the archived text's words a capture must
// keep to be written: below it the text was lost, not edited.
const minWordsKept = 0.5

// keepArchivedSplit gives e the archived version's split of its terms
// between categories and tags when e names the same terms (case aside)
// split otherwise.
func keepArchivedSplit(e *blogharvest.Entry, old *report.Post) {
	if termSet(e.Categories, e.Tags) != termSet(old.Categories, old.Tags) {
		return
	}
	if slices.Equal(e.Categories, old.Categories) && slices.Equal(e.Tags, old.Tags) {
		return
	}
	e.Categories, e.Tags = slices.Clone(old.Categories), slices.Clone(old.Tags)
}

// keptReason returns why e, a new capture of the entry whose newest
// archived version is old, is worse than it and must not be written; ""
// when it is not worse.
func keptReason(e *blogharvest.Entry, old *report.Post) string {
	if editedSince(e, old) {
		return ""
	}
	var why []string
	if old.Title != "" && strings.TrimSpace(e.Title) == "" {
		why = append(why, "the title is lost")
	}
	if old.Created != "" && e.Created.IsZero() {
		why = append(why, "the date is lost")
	}
	if old.Author != "" && strings.TrimSpace(e.Author) == "" {
		why = append(why, "the author is lost")
	}
	now := termList(e.Categories, e.Tags)
	for _, t := range termList(old.Categories, old.Tags) {
		if !slices.Contains(now, t) {
			why = append(why, fmt.Sprintf("the term %q is lost", t))
			break
		}
	}
	oldWords := len(strings.Fields(old.Text))
	if newWords := htmlWords(e.Content); oldWords >= 50 && float64(newWords) < minWordsKept*float64(oldWords) {
		why = append(why, "the text is down to "+strconv.Itoa(newWords)+" words from "+strconv.Itoa(oldWords))
	}
	return strings.Join(why, ", ")
}

// editedSince reports whether e's post states a modification later than
// the archived version's modified (or, without one, created) date, at
// the precision the archived date has.
func editedSince(e *blogharvest.Entry, old *report.Post) bool {
	if e.Modified.IsZero() {
		return false
	}
	was := old.Modified
	if was == "" {
		was = old.Created
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04", "2006-01-02", "2006-01", "2006"} {
		if t, err := time.Parse(layout, was); err == nil {
			if layout == "2006-01-02" || layout == "2006-01" || layout == "2006" {
				return e.Modified.UTC().Format(layout) > was
			}
			return e.Modified.After(t)
		}
	}
	return false
}

// archivedVersion reads the newest archived version of e's entry from s;
// nil when there is none (or it cannot be read: the writer decides then).
// The entry's folder is the one w, the writer of the archive s reads,
// will write e into (aip.Writer.EntryDir, which keeps an index of the
// blog's entry folders: a new entry costs no scan of every year folder);
// with no w, aip.EntryDirIn finds it in s.
func archivedVersion(s aip.Store, w *aip.Writer, e *blogharvest.Entry) *report.Post {
	if s == nil {
		return nil
	}
	var dir string
	var err error
	if w != nil {
		dir, err = w.EntryDir(e)
	} else {
		dir, err = aip.EntryDirIn(s, e)
	}
	if err != nil {
		return nil
	}
	n, err := aip.LatestVersionOf(s, dir)
	if err != nil || n == 0 {
		return nil
	}
	p, err := report.ReadPost(s, path.Join(dir, "v"+strconv.Itoa(n)))
	if err != nil {
		return nil
	}
	return p
}

// termList returns the terms of both lists, lower-cased, sorted, once
// each.
func termList(a, b []string) []string {
	var out []string
	for _, t := range append(slices.Clone(a), b...) {
		if t = strings.ToLower(strings.TrimSpace(t)); t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

// termSet is termList as one string, for comparing.
func termSet(a, b []string) string { return strings.Join(termList(a, b), "\x00") }

// htmlWords counts the words of the text of an HTML fragment.
func htmlWords(s string) int {
	z := html.NewTokenizer(strings.NewReader(s))
	n := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return n
		case html.TextToken:
			n += len(strings.Fields(string(z.Text())))
		}
	}
}

package learn

import (
	"bytes"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
)

// readRecordNaive is readRecord as first written, the definition the one
// walk of readRecord keeps to: in document order, the author is replaced
// by each better-ranked hint holding a name, and the date by each date-like
// element inside the date found so far.
func readRecordNaive(el *html.Node, nested map[*html.Node]bool) record {
	r := record{elem: el, nested: func(n *html.Node) bool { return n != el && nested[n] }}
	authorRank := len(authorHints) + 1
	var bodies, heads []*html.Node
	walkElements(el, func(n *html.Node) bool {
		if r.nested(n) || skipped(n) {
			return false
		}
		if n == el {
			return true
		}
		switch n.Data {
		case "form", "textarea":
			r.heavy = true
		case "h1", "h2", "h3":
			heads = append(heads, n)
		}
		if k := authorRankOf(n); k < authorRank {
			if a := nameIn(n); a != nil {
				r.author, authorRank = a, k
			}
		}
		if (r.date == nil || isInside(n, r.date)) && isDateLike(n) {
			r.date = n
		}
		if isBodyLike(n) {
			bodies = append(bodies, n)
		}
		return true
	})
	best := 3
	for _, b := range bodies {
		if k := bodyRank(b); k < best && (r.author == nil || !isInside(r.author, b)) && nodeText(b) != "" {
			r.body, best = b, k
		}
	}
	for _, h := range heads {
		if r.body == nil || !isInside(h, r.body) {
			r.heavy = true
		}
	}
	return r
}

// recordMismatch returns how readRecord's record of el differs from
// readRecordNaive's, or "".
func recordMismatch(el *html.Node, nested map[*html.Node]bool) string {
	got, want := readRecord(el, nested), readRecordNaive(el, nested)
	var diffs []string
	for _, d := range []struct {
		name      string
		got, want *html.Node
	}{{"author", got.author, want.author}, {"date", got.date, want.date}, {"body", got.body, want.body}} {
		if d.got != d.want {
			diffs = append(diffs, d.name+": "+describe(d.got)+", want "+describe(d.want))
		}
	}
	if got.heavy != want.heavy {
		diffs = append(diffs, "heavy differs")
	}
	return strings.Join(diffs, "; ")
}

// describe names a node for a failure message.
func describe(n *html.Node) string {
	if n == nil {
		return "none"
	}
	return "<" + n.Data + " class=" + htmlnode.Attr(n, "class") + "> " + nodeText(n)
}

// recordPieces are pieces of comment markup: authors, dates of every
// kind, meta lines around them, bodies, headings, forms and nested
// comments.
var recordPieces = []string{
	`<li id="comment-1" class="comment">`, `</li>`, `<article id="div-comment-2" class="comment-body">`, `</article>`,
	`<footer class="comment-meta">`, `</footer>`, `<div class="comment-author vcard">`, `<div class="comment-metadata">`, `</div>`,
	`<b class="fn">Ann Walker</b>`, `<cite>Bob</cite>`, `<span class="says">says:</span>`, `<a href="/u" class="url">Carl</a>`,
	`<span class="user-name">`, `</span>`, `<div class="author-box">`, `<a href="/p">Dee Long Name</a>`,
	`<time datetime="2020-01-02T10:00:00Z">`, `</time>`, `<time>`, `<span class="date">`, `<span class="posted-on">`,
	`3 May 2020`, `January 2, 2021 at 3:04 pm`, `2 hours ago`, `<abbr class="published" title="2019-05-06">May 6</abbr>`,
	`<meta itemprop="datePublished" content="2018-02-03">`, `<span class="meta">12/03/2020</span>`,
	`<div class="comment-content">`, `<div class="comment-text">`, `<div itemprop="text">`, `<div class="e-content">`,
	`<p>`, `</p>`, `Thanks for the post, it helped a lot.`, ` `, `<h2>Reply</h2>`, `<h3 class="x">`, `</h3>`,
	`<form>`, `</form>`, `<textarea>`, `<script>var d = "2020-01-02"</script>`, `<img class="avatar">`,
	`<div class="reply"><a class="comment-reply-link">Reply</a></div>`, `<ol class="children">`, `</ol>`,
	"<!-- note -->", "\u00a0", "<span>\u2003</span>", "<br>", "<noscript>hidden</noscript>", "<p>\t\n</p>", "\xff",
}

// TestReadRecordMatchesNaive compares readRecord with readRecordNaive on
// every element of random comment markup, with the comment markers as
// the nested comments; and hasText and textWithout with the texts they
// stand for.
func TestReadRecordMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	dated, authored := 0, 0
	for range 3000 {
		b := randomMix(rng, recordPieces, 24)
		root, err := html.Parse(strings.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		marked := markedElements(root)
		walkElements(root, func(n *html.Node) bool {
			if msg := recordMismatch(n, marked); msg != "" {
				t.Fatalf("%q: <%s>: %s", b, n.Data, msg)
			}
			if got, want := hasText(n), nodeText(n) != ""; got != want {
				t.Fatalf("%q: <%s>: hasText = %v, want %v", b, n.Data, got, want)
			}
			skip := func(c *html.Node) bool { return marked[c] }
			if got, want := textWithout(n, skip), nodeText(cloneTree(n, skip)); got != want {
				t.Fatalf("%q: <%s>: textWithout = %q, want %q", b, n.Data, got, want)
			}
			if r := readRecord(n, marked); n.Data == "body" {
				dated, authored = dated+btoi(r.date != nil), authored+btoi(r.author != nil)
			}
			return true
		})
	}
	if dated < 100 || authored < 100 {
		t.Fatalf("too few records with a date (%d) or an author (%d)", dated, authored)
	}
}

// btoi is 1 for true.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestReadRecordMatchesNaiveOnCorpus compares readRecord with
// readRecordNaive on the comment markers and the smaller elements of
// corpus pages with comment markup.
func TestReadRecordMatchesNaiveOnCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus")
	}
	var files []string
	filepath.WalkDir("../../../shared/corpus", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".html") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Skip("corpus not found")
	}
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		root, err := html.Parse(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		marked := markedElements(root)
		walkElements(root, func(n *html.Node) bool {
			if marked[n] || subtreeSize(n, 40) <= 40 {
				checked++
				if msg := recordMismatch(n, marked); msg != "" {
					t.Errorf("%s: <%s id=%s class=%s>: %s", f, n.Data, htmlnode.Attr(n, "id"), htmlnode.Attr(n, "class"), msg)
				}
			}
			return true
		})
	}
	t.Logf("%d elements checked", checked)
}

// subtreeSize counts the elements under n, n included, stopping past
// limit.
func subtreeSize(n *html.Node, limit int) int {
	count := 0
	walkElements(n, func(*html.Node) bool {
		count++
		return count <= limit
	})
	return count
}

// markedElements tells, for every element under root, whether it is a
// comment marker.
func markedElements(root *html.Node) map[*html.Node]bool {
	marked := map[*html.Node]bool{}
	walkElements(root, func(n *html.Node) bool {
		marked[n] = isCommentMarker(n)
		return true
	})
	return marked
}

// TestReadRecordOfTemplate: a <template> holds markup no reader sees (here
// a comment form and a heading, as a client-side app keeps them); read as
// a record it has no parts, as readRecordNaive, which skips it whole, says.
func TestReadRecordOfTemplate(t *testing.T) {
	root, err := html.Parse(strings.NewReader(`<html><body><template><h2>Reply</h2><div class="comment-author">Ann</div>
<form><textarea></textarea></form></template></body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	var tmpl *html.Node
	walkElements(root, func(n *html.Node) bool {
		if n.Data == "template" {
			tmpl = n
		}
		return tmpl == nil
	})
	if msg := recordMismatch(tmpl, nil); msg != "" {
		t.Errorf("readRecord differs from readRecordNaive on a <template>: %s", msg)
	}
	if r := readRecord(tmpl, nil); r.heavy || r.author != nil || r.body != nil || r.date != nil {
		t.Errorf("record of a <template>: %+v, want no parts", r)
	}
}

package learn_test

import (
	"bytes"
	"reflect"
	"regexp"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/learn"
)

// compareFastSlow fails when the fast path answers differently from the
// whole-page path on page; it reports whether the fast path answered.
func compareFastSlow(t *testing.T, r *learn.Rules, page learn.Page) bool {
	t.Helper()
	fast, ok := r.FastExtract(page)
	if !ok {
		return false
	}
	slow, _ := r.SlowExtract(page)
	if fast.Title != slow.Title || fast.Author != slow.Author || !fast.Date.Equal(slow.Date) || fast.ContentText != slow.ContentText || fast.Score != slow.Score {
		t.Errorf("%s: fast path\n%q %q %v %.2f %.80q\nslow path\n%q %q %v %.2f %.80q", page.URL,
			fast.Title, fast.Author, fast.Date, fast.Score, fast.ContentText, slow.Title, slow.Author, slow.Date, slow.Score, slow.ContentText)
	}
	if fast.ContentHTML != slow.ContentHTML {
		t.Errorf("%s: fast path content HTML differs from the slow path's", page.URL)
	}
	delete(slow.Methods, learn.FieldModified) // the fast path does not look for the last edit's date
	if !reflect.DeepEqual(fast.Methods, slow.Methods) {
		t.Errorf("%s: fast path methods %v, slow path %v", page.URL, fast.Methods, slow.Methods)
	}
	if len(fast.Comments) != len(slow.Comments) {
		t.Errorf("%s: fast path found %d comments, slow path %d", page.URL, len(fast.Comments), len(slow.Comments))
		return true
	}
	for k := range fast.Comments {
		if f, s := fast.Comments[k], slow.Comments[k]; !reflect.DeepEqual(f, s) {
			t.Errorf("%s: comment %d: fast path\n%+v\nslow path\n%+v", page.URL, k, f, s)
		}
	}
	return true
}

func TestFastPathMatchesSlowPath(t *testing.T) {
	pairs, page := casePairs(t, "wordpress")
	r, err := learn.Learn(pairs, learn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !compareFastSlow(t, r, page) {
		t.Error("fast path did not answer on a page with comments")
	}
	page.HTML = commentSection.ReplaceAll(page.HTML, nil)
	if !compareFastSlow(t, r, page) {
		t.Error("fast path did not answer on a page with one-step rules and no comments")
	}
}

// TestFastPathUpperCase checks that the fast path reads tag names,
// attribute keys and raw-text end tags whatever their case: the wordpress
// case with its markup upper- and mixed-cased parses to the same tree, so
// both paths must give what the fast path gives on the original page.
func TestFastPathUpperCase(t *testing.T) {
	pairs, page := casePairs(t, "wordpress")
	r, err := learn.Learn(pairs, learn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, ok := r.FastExtract(page)
	if !ok {
		t.Fatal("fast path did not answer on the original page")
	}
	upper := page
	upper.HTML = upperTag.ReplaceAllFunc(page.HTML, bytes.ToUpper)
	upper.HTML = bytes.ReplaceAll(upper.HTML, []byte(" class="), []byte(" Class="))
	upper.HTML = bytes.ReplaceAll(upper.HTML, []byte(" id="), []byte(" ID="))
	upper.HTML = bytes.ReplaceAll(upper.HTML, []byte("</script>"), []byte("</ScRiPt>"))
	if bytes.Equal(upper.HTML, page.HTML) || !bytes.Contains(upper.HTML, []byte("<LI ID=")) {
		t.Fatal("the page was not changed as expected")
	}
	if !compareFastSlow(t, r, upper) {
		t.Fatal("fast path did not answer on the upper-cased page")
	}
	got, _ := r.FastExtract(upper)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("upper-cased page: fast path\n%+v\nwant\n%+v", got, want)
	}
}

// upperTag matches the start and end of tags, names included, of some
// elements of the wordpress case.
var upperTag = regexp.MustCompile(`</?(div|p|li|ol|h2|time|span|a|cite|script|style)\b`)

// commentSection matches the comment list of the wordpress case.
var commentSection = regexp.MustCompile(`(?s)<div id="comments">.*?</ol></div>`)

// TestFastPathOnCorpus compares both paths on every corpus page.
func TestFastPathOnCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus")
	}
	answered, total := 0, 0
	for _, b := range corpusBlogs(t) {
		pairs := b.pairs(t)
		if len(pairs) < 2 {
			continue
		}
		old, recent := split(pairs)
		r, err := learn.Learn(old, learn.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range recent {
			total++
			if compareFastSlow(t, r, p.Page) {
				answered++
			}
		}
	}
	t.Logf("fast path answered %d of %d pages", answered, total)
}

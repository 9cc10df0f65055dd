package harvest_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// TestMoveThresholdFigures gives the figures harvest.MoveThreshold was
// chosen from (doc/lifecycle.md): the word-token F1 of the texts of every
// two different posts of each blog of ../shared/corpus, as its feeds
// give them (items of at least 200 characters of text). It is slow (a
// minute): it runs with BLOGHARVEST_MOVE_FIGURES=1 only.
func TestMoveThresholdFigures(t *testing.T) {
	if os.Getenv("BLOGHARVEST_MOVE_FIGURES") == "" {
		t.Skip("figures for doc/lifecycle.md: set BLOGHARVEST_MOVE_FIGURES=1")
	}
	root := "../../shared/corpus"
	blogs, err := os.ReadDir(root)
	if err != nil {
		t.Skip(err)
	}
	var all []float64
	over := 0
	for _, b := range blogs {
		if !b.IsDir() {
			continue
		}
		texts := map[string]string{}
		filepath.WalkDir(filepath.Join(root, b.Name(), "site"), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			data, _ := os.ReadFile(p)
			if !feed.Sniff(data) {
				return nil
			}
			f, err := feed.Parse(data, "http://corpus.invalid/")
			if err != nil {
				return nil
			}
			for _, it := range f.Items {
				if txt := textsim.HTMLText(it.Content); len(txt) >= 200 && it.Link != "" {
					texts[it.Link] = txt
				}
			}
			return nil
		})
		links := slices.Sorted(func(yield func(string) bool) {
			for k := range texts {
				if !yield(k) {
					return
				}
			}
		})
		most := 0.0
		for i := range links {
			for j := i + 1; j < len(links); j++ {
				s := textsim.TokenF1(texts[links[i]], texts[links[j]])
				all = append(all, s)
				most = max(most, s)
				if s >= harvest.MoveThreshold {
					over++
				}
			}
		}
		if len(links) > 1 {
			t.Logf("%s: %d posts, highest TokenF1 of two different posts %.3f", b.Name(), len(links), most)
		}
	}
	slices.Sort(all)
	if len(all) == 0 {
		t.Skip("no feed texts in the corpus")
	}
	t.Logf("%d pairs of different posts: median %.3f, 99th percentile %.3f, 99.9th %.3f, highest %.3f; %d at or over MoveThreshold %.2f",
		len(all), all[len(all)/2], all[len(all)*99/100], all[len(all)*999/1000], all[len(all)-1], over, harvest.MoveThreshold)
}

// TestStrangerThresholdFigures gives the figures harvest.StrangerThreshold
// was chosen from (doc/lifecycle.md): for every two blogs A and B of
// ../shared/corpus, the highest word-token F1 of the text of one of B's
// first 20 feed items (a stranger's feed) with the text of one of A's
// items (at most 100: what the archive holds of A), the figure the
// identity check compares with the threshold. It is slow: it runs with
// BLOGHARVEST_MOVE_FIGURES=1 only.
func TestStrangerThresholdFigures(t *testing.T) {
	if os.Getenv("BLOGHARVEST_MOVE_FIGURES") == "" {
		t.Skip("figures for doc/lifecycle.md: set BLOGHARVEST_MOVE_FIGURES=1")
	}
	root := "../../shared/corpus"
	blogs, err := os.ReadDir(root)
	if err != nil {
		t.Skip(err)
	}
	texts := map[string][]string{}
	var names []string
	for _, b := range blogs {
		if !b.IsDir() {
			continue
		}
		seen := map[string]bool{}
		filepath.WalkDir(filepath.Join(root, b.Name(), "site"), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			data, _ := os.ReadFile(p)
			if !feed.Sniff(data) {
				return nil
			}
			f, err := feed.Parse(data, "http://corpus.invalid/")
			if err != nil {
				return nil
			}
			for _, it := range f.Items {
				if txt := textsim.HTMLText(it.Content + " " + it.Summary); len(txt) >= 200 && it.Link != "" && !seen[it.Link] && len(texts[b.Name()]) < 100 {
					seen[it.Link] = true
					texts[b.Name()] = append(texts[b.Name()], txt)
				}
			}
			return nil
		})
		if len(texts[b.Name()]) > 0 {
			names = append(names, b.Name())
		}
	}
	var maxima []float64
	over := 0
	for _, a := range names {
		for _, b := range names {
			if a == b {
				continue
			}
			most := 0.0
			for _, s := range texts[b][:min(20, len(texts[b]))] {
				for _, o := range texts[a] {
					most = max(most, textsim.TokenF1(s, o))
				}
			}
			maxima = append(maxima, most)
			if most >= harvest.StrangerThreshold {
				over++
				t.Logf("%s as a stranger at %s's address: highest similarity %.3f", b, a, most)
			}
		}
	}
	slices.Sort(maxima)
	if len(maxima) == 0 {
		t.Skip("no feed texts in the corpus")
	}
	t.Logf("%d blogs, %d ordered pairs: the highest similarity of a stranger's item to an archived post: median %.3f, 90th percentile %.3f, highest %.3f; %d pairs at or over StrangerThreshold %.2f",
		len(names), len(maxima), maxima[len(maxima)/2], maxima[len(maxima)*9/10], maxima[len(maxima)-1], over, harvest.StrangerThreshold)
}

package harvest

import (
	"log/slog"
	"net/url"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/discover"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

// TestReadingHandover: the page worker's reading is built by begin from
// its copy of the site (the feed's language, the full-text feed, the home
// page), reads with the fallbacks alone until useRules hands it the rules
// and the content test's signs (and the worker the rules' file): what the
// coordinator learned (its learned value) is not read by the worker
// before it is handed over, nor after it changes.
func TestReadingHandover(t *testing.T) {
	t.Parallel()
	home, err := url.Parse("http://blog.example/")
	if err != nil {
		t.Fatal(err)
	}
	c := newCrawl(Options{Logger: slog.New(slog.DiscardHandler)}, newCrawlPolicy(), time.Now(), nil)
	c.site.home, c.site.feed, c.site.full = home, &feed.Feed{Language: "de"}, true
	c.site.scope, c.site.pattern = newScope(home, nil, nil), discover.LearnPattern(nil)
	c.learned.rules = &learn.Rules{Article: &learn.Rule{Trusted: true}} // the coordinator's: not the worker's until handed over
	c.w.begin(*c.site, nil, nil)
	r := c.w.read
	if r == nil {
		t.Fatal("begin built no reading")
	}
	if got := r.lang(nil); got != "de" {
		t.Errorf("language of a page naming none: %q, want the feed's de", got)
	}
	if !r.cfg.full || r.cfg.home != "http://blog.example/" {
		t.Errorf("config %+v, want the full-text feed and the home page", r.cfg)
	}
	if r.rules != nil || r.articleRuleTrusted() || c.w.rulesF != nil {
		t.Error("rules before useRules")
	}

	rules := &learn.Rules{Article: &learn.Rule{Trusted: true}, SoleAuthor: "Ann"}
	file := rulesFile([]byte(`{}`), time.Now())
	c.learned = learned{rules: rules, file: file, signs: postSigns{posts: 4, titleAway: 1}}
	if c.w.read.articleRuleTrusted() {
		t.Error("the coordinator's rules reached the reading without useRules")
	}
	c.w.useRules(c.learned)
	if !r.articleRuleTrusted() || r.rules != rules {
		t.Fatal("useRules did not hand the rules to the reading")
	}
	if r.signs.posts != 4 || !r.signs.evidence(0) {
		t.Errorf("signs %+v, want those handed over", r.signs)
	}
	if c.w.rulesF != file {
		t.Error("useRules did not hand the worker the rules' file")
	}
	c.learned = learned{} // the coordinator's: the worker keeps its copy
	if r.rules != rules || r.signs.posts != 4 || c.w.rulesF != file {
		t.Error("the coordinator's learned value changed what the worker was handed")
	}
	ex := learn.Extraction{Author: "Ann", Methods: blogharvest.Provenance{"author": blogharvest.MethodHeuristic}}
	if !r.inferredAuthor(ex) {
		t.Error("the sole author of the rules handed over is not taken as inferred")
	}

	// takeExtraction reuses the extraction learnSigns made with the rules
	// handed over, of the same page, once.
	p := &fetchedPage{}
	j := &pageJob{page: p, learned: &learnedExtraction{rules: rules, page: p, ex: learn.Extraction{Title: "learned"}}}
	if got, _ := r.takeExtraction(j); got.Title != "learned" || j.learned != nil {
		t.Errorf("takeExtraction: title %q, learned left %v; want the learned extraction, taken once", got.Title, j.learned != nil)
	}
}

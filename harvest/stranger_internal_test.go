package harvest

import (
	"errors"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

// TestIdentityErrorIs: the crawl's IdentityError is permanent and
// ErrIdentityChanged (errors.Is, errors.As); whether the address
// answered is discover.Answered's (TestAnswered there).
func TestIdentityErrorIs(t *testing.T) {
	var err error = blogharvest.Permanent(&IdentityError{Blog: "http://b.test/", Evidence: []string{"x"}})
	var ie *IdentityError
	if !errors.Is(err, ErrIdentityChanged) || !errors.As(err, &ie) || blogharvest.IsTransient(err) {
		t.Errorf("%v: not a permanent IdentityError", err)
	}
}

// TestRulesMisfit: rules fit an extraction whose article rule scores at
// least their MinConfidence and whose title and text are the feed item's;
// an article rule under it, a title rule that found nothing, or a title or
// text unlike the item's is a misfit.
func TestRulesMisfit(t *testing.T) {
	rules := &learn.Rules{MinConfidence: 0.5, Article: &learn.Rule{Trusted: true}, Title: &learn.Rule{Trusted: true}}
	text := "The lock keeper walked the towpath at dawn and counted the barges waiting by the weir."
	good := learn.Extraction{Title: "The lock keeper", ContentText: text, Score: 0.9,
		Methods: blogharvest.Provenance{"title": blogharvest.MethodRule}}
	if why := misfit(rules, good, nil, "The lock keeper", "<p>"+text+"</p>", true); why != "" {
		t.Errorf("a fitting extraction: %q", why)
	}
	for name, ex := range map[string]learn.Extraction{
		"article under": {Title: good.Title, ContentText: text, Score: 0.1, Methods: good.Methods},
		"no title rule": {Title: good.Title, ContentText: text, Score: 0.9, Methods: blogharvest.Provenance{"title": blogharvest.MethodHeuristic}},
		"other title":   {Title: "Towpath notes", ContentText: text, Score: 0.9, Methods: good.Methods},
		"other text":    {Title: good.Title, ContentText: "Archives Categories Tags Feeds", Score: 0.9, Methods: good.Methods},
	} {
		if why := misfit(rules, ex, nil, "The lock keeper", "<p>"+text+"</p>", true); why == "" {
			t.Errorf("%s: taken for a fit", name)
		}
	}
}

package learn_test

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// casePairs returns the training pairs and the test page of a txtar case.
func casePairs(t testing.TB, name string) ([]learn.Pair, learn.Page) {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name + ".txtar")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string][]byte{}
	for _, f := range parseTxtar(data) {
		byName[f.name] = f.data
	}
	var pairs []learn.Pair
	for i := 1; byName[pageName(i)] != nil; i++ {
		var ct caseTarget
		if err := json.Unmarshal(byName["page"+string(rune('0'+i))+".json"], &ct); err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, learn.Pair{Page: learn.Page{URL: "https://blog.example/p/", HTML: byName[pageName(i)]}, Target: ct.target(t)})
	}
	return pairs, learn.Page{URL: "https://blog.example/posts/test/", HTML: byName["test.html"]}
}

func TestRulesJSONRoundTrip(t *testing.T) {
	pairs, page := casePairs(t, "wordpress")
	rules, err := learn.Learn(pairs, learn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(rules)
	if err != nil {
		t.Fatal(err)
	}
	var back learn.Rules
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	want, err1 := rules.Extract(page)
	got, err2 := back.Extract(page)
	if err1 != nil || err2 != nil {
		t.Fatalf("extract: %v, %v", err1, err2)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("restored rules extract\n%+v\nwant\n%+v", got, want)
	}
	if len(back.Article.PageScores) != len(pairs) || back.Article.XPath == "" || !back.Article.Trusted {
		t.Errorf("article rule lost its fields: %+v", back.Article)
	}
}

func TestLearnNoPairs(t *testing.T) {
	if _, err := learn.Learn(nil, learn.Options{}); !errors.Is(err, learn.ErrNoPairs) {
		t.Fatalf("Learn(nil) error = %v, want ErrNoPairs", err)
	}
}

func TestExtractNoArticle(t *testing.T) {
	x, err := learn.ExtractWithoutRules(learn.Page{URL: "https://b.example/", HTML: []byte("<html><head><title>Hello there</title></head><body></body></html>")})
	if !errors.Is(err, blogharvest.ErrNoArticle) {
		t.Fatalf("error = %v, want ErrNoArticle", err)
	}
	if x.Title != "Hello there" {
		t.Errorf("title = %q: what was found must come back with the error", x.Title)
	}
}

func TestHighThresholdFallsBack(t *testing.T) {
	pairs, page := casePairs(t, "wordpress")
	rules, err := learn.Learn(pairs, learn.Options{MinConfidence: 1.01})
	if err != nil {
		t.Fatal(err)
	}
	x, err := rules.Extract(page)
	if err != nil {
		t.Fatal(err)
	}
	if x.Methods[learn.FieldContent] == blogharvest.MethodRule || x.Score != 0 {
		t.Errorf("untrusted rule used: methods %v, score %v", x.Methods, x.Score)
	}
	if textsim.Dice(x.ContentText, "My sourdough starter is named after a cat") < 0.3 {
		t.Errorf("fallback content %q", x.ContentText)
	}
}

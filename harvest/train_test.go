package harvest_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// deepen serves path with 600 nested divs before </body>: deeper than the
// HTML parser's 512 open elements.
func deepen(path string) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != path {
				h.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			deep := strings.Repeat("<div>", 600) + "x" + strings.Repeat("</div>", 600) + "</body>"
			body := strings.Replace(rec.Body.String(), "</body>", deep, 1)
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.Header().Del("Content-Length")
			w.WriteHeader(rec.Code)
			w.Write([]byte(body))
		})
	}
}

// TestNewCrawlLearnsDespiteOneDeepPage checks that one training page nested
// deeper than the parser allows is skipped with a warning while the rules
// are learned from the others and used on them.
func TestNewCrawlLearnsDespiteOneDeepPage(t *testing.T) {
	site, err := fixture.New("wordpress")
	if err != nil {
		t.Skip(err)
	}
	path := site.Posts()[0].Path // the newest post: a training page
	_, srv := serve(t, "wordpress", deepen(path))
	res, out := crawl(t, options("wp", srv.URL))
	deepURL := srv.URL + path
	var rules struct {
		Article *json.RawMessage       `json:"article"`
		Pages   []string               `json:"pages"`
		Skipped []struct{ URL string } `json:"skipped"`
	}
	if len(res.Rules) == 0 {
		t.Fatalf("no rules learned; warnings: %q", res.Warnings)
	}
	if err := json.Unmarshal(res.Rules, &rules); err != nil {
		t.Fatal(err)
	}
	if rules.Article == nil || len(rules.Pages) < 2 || len(rules.Skipped) != 1 || rules.Skipped[0].URL != deepURL {
		t.Errorf("rules: article %v, %d pages, skipped %v; want an article rule, the deep page %s skipped", rules.Article != nil, len(rules.Pages), rules.Skipped, deepURL)
	}
	warned := false
	for _, w := range res.Warnings {
		warned = warned || strings.Contains(w, deepURL) && strings.Contains(w, "skipped")
	}
	if !warned {
		t.Errorf("no warning names the skipped page %s: %q", deepURL, res.Warnings)
	}
	byRule := 0
	for _, e := range out.Entries {
		for _, m := range e.Provenance {
			if m == blogharvest.MethodRule && e.URL != deepURL {
				byRule++
				break
			}
		}
	}
	if byRule < 5 {
		t.Errorf("%d entries have a field extracted by a learned rule, want most of them", byRule)
	}
	t.Logf("%d of %d entries use learned rules", byRule, len(out.Entries))
}

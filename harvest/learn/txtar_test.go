package learn_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

// txtarFile is one file of a txtar archive.
type txtarFile struct {
	name string
	data []byte
}

// parseTxtar splits a txtar archive into its files ("-- name --" lines).
func parseTxtar(data []byte) []txtarFile {
	var files []txtarFile
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			files = append(files, txtarFile{name: strings.TrimSpace(t[3 : len(t)-3])})
			continue
		}
		if len(files) > 0 {
			files[len(files)-1].data = append(files[len(files)-1].data, line...)
		}
	}
	return files
}

// caseTarget is a training target as written in a txtar case.
type caseTarget struct {
	Title    string `json:"title"`
	Author   string `json:"author"`
	Date     string `json:"date"`
	Content  string `json:"content"`
	FullText *bool  `json:"full_text"`
}

// caseWant is what a txtar case expects Extract to find in test.html.
type caseWant struct {
	Title    string            `json:"title"`
	Author   string            `json:"author"` // "-": none
	Date     string            `json:"date"`   // yyyy-mm-dd
	Contains []string          `json:"contains"`
	Excludes []string          `json:"excludes"`
	Methods  map[string]string `json:"methods"`
	Images   []string          `json:"images"`
	NoError  bool              `json:"no_error"`

	// DateISO and ModifiedISO are the dates as the record writes them, to
	// the precision the page gave (blogharvest.FormatDate); "-" for none.
	DateISO     string `json:"date_iso"`
	ModifiedISO string `json:"modified_iso"`
}

// TestTxtar runs the extractor cases in testdata/*.txtar: Learn on every
// pageN.html with its pageN.json target (no pages: fallbacks only), Extract
// test.html (fetched from test.url, when given), and compare with
// want.json.
func TestTxtar(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no testdata/*.txtar cases")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			runCase(t, parseTxtar(data))
		})
	}
}

// runCase runs one txtar case.
func runCase(t *testing.T, files []txtarFile) {
	byName := map[string][]byte{}
	for _, f := range files {
		byName[f.name] = f.data
	}
	var pairs []learn.Pair
	for i := 1; byName[pageName(i)] != nil; i++ {
		var ct caseTarget
		if err := json.Unmarshal(byName[strings.TrimSuffix(pageName(i), ".html")+".json"], &ct); err != nil {
			t.Fatalf("page%d.json: %v", i, err)
		}
		pairs = append(pairs, learn.Pair{Page: learn.Page{URL: "https://blog.example/p" + string(rune('0'+i)) + "/", HTML: byName[pageName(i)]}, Target: ct.target(t)})
	}
	var rules *learn.Rules
	if len(pairs) > 0 {
		var err error
		if rules, err = learn.Learn(pairs, learn.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	testURL := "https://blog.example/posts/test/"
	if u := strings.TrimSpace(string(byName["test.url"])); u != "" {
		testURL = u
	}
	x, err := rules.Extract(learn.Page{URL: testURL, HTML: byName["test.html"]})
	var want caseWant
	if err := json.Unmarshal(byName["want.json"], &want); err != nil {
		t.Fatalf("want.json: %v", err)
	}
	if want.NoError && err != nil {
		t.Errorf("Extract: %v", err)
	}
	checkWant(t, x, want)
	if t.Failed() {
		js, _ := json.MarshalIndent(rules, "", "  ")
		t.Logf("rules: %s", js)
	}
}

func pageName(i int) string { return "page" + string(rune('0'+i)) + ".html" }

// target converts a case target.
func (ct caseTarget) target(t testing.TB) learn.Target {
	tg := learn.Target{Title: ct.Title, Author: ct.Author, Content: ct.Content, FullText: ct.FullText == nil || *ct.FullText}
	if ct.Date != "" {
		d, err := time.Parse(time.RFC3339, ct.Date)
		if err != nil {
			t.Fatalf("date %q: %v", ct.Date, err)
		}
		tg.Date = d
	}
	return tg
}

// checkWant compares an extraction with a case's expectations.
func checkWant(t *testing.T, x learn.Extraction, want caseWant) {
	t.Helper()
	if want.Title != "" && x.Title != want.Title {
		t.Errorf("title = %q, want %q", x.Title, want.Title)
	}
	if want.Author == "-" && x.Author != "" {
		t.Errorf("author = %q (%s), want none", x.Author, x.Methods[learn.FieldAuthor])
	} else if want.Author != "" && want.Author != "-" && x.Author != want.Author {
		t.Errorf("author = %q, want %q", x.Author, want.Author)
	}
	if want.Date != "" && x.Date.Format("2006-01-02") != want.Date {
		t.Errorf("date = %v, want %s", x.Date, want.Date)
	}
	checkISO(t, "date", x.Date, x.DatePrecision, want.DateISO)
	checkISO(t, "modified", x.Modified, x.ModifiedPrecision, want.ModifiedISO)
	for _, s := range want.Contains {
		if !strings.Contains(x.ContentHTML, s) {
			t.Errorf("content lacks %q:\n%s", s, x.ContentHTML)
		}
	}
	for _, s := range want.Excludes {
		if strings.Contains(x.ContentHTML, s) {
			t.Errorf("content holds %q:\n%s", s, x.ContentHTML)
		}
	}
	for k, m := range want.Methods {
		if got := x.Methods[k]; got != blogharvest.Method(m) {
			t.Errorf("method of %s = %q, want %q", k, got, m)
		}
	}
	if want.Images != nil {
		got := imageURLs(x.ContentHTML, "https://blog.example/posts/test/")
		if strings.Join(got, " ") != strings.Join(want.Images, " ") {
			t.Errorf("images = %q, want %q", got, want.Images)
		}
	}
}

// checkISO compares a date written to its precision with want ("" skips,
// "-" wants none).
func checkISO(t *testing.T, field string, d time.Time, p blogharvest.Precision, want string) {
	t.Helper()
	got := blogharvest.FormatDate(d, p)
	if want == "-" {
		want = ""
	} else if want == "" {
		return
	}
	if got != want {
		t.Errorf("%s = %q (%v, precision %q), want %q", field, got, d, p, want)
	}
}

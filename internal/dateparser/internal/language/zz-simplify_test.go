package language

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/blogharvest/blogharvest/internal/dateparser/internal/data"
)

// corpusDir is the shared test corpus, relative to this package.
const corpusDir = "../../../../../shared/corpus"

// upstreamSimplify is Simplify without the literal test, as upstream has it.
func upstreamSimplify(ld *data.LocaleData, str string) string {
	for _, d := range ld.Simplifications {
		if d.Rx.MatchString(str) {
			str = d.Rx.ReplaceAllString(str, d.Replacement)
		}
	}
	return str
}

// simplifyLocales are the locales whose simplifications the tests run:
// English, which every crawl's dates try, and the corpus's other languages.
var simplifyLocales = []string{"en", "de", "fr", "es", "it", "nl", "pt", "ru", "ja", "zh", "pl", "sv", "cs", "tr"}

// allLocales returns every locale's data (building all of them): the
// locales getLocaleData's switch names.
func allLocales(t testing.TB) []*data.LocaleData {
	src, err := os.ReadFile("../data/00-locale-data.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []*data.LocaleData
	for _, m := range regexp.MustCompile(`(?m)^\tcase "([^"]+)":$`).FindAllStringSubmatch(string(src), -1) {
		name := m[1]
		ld, ok := data.GetLocaleData(name)
		if !ok {
			t.Fatalf("locale %s listed but not found", name)
		}
		out = append(out, ld)
	}
	return out
}

// TestWordNeedIsTopLevelLiteral checks, for every simplification of every
// locale (blogharvest), that the literal MayMatch looks for is part of a
// literal of the whole expression's top-level concatenation, with the same
// case folding: every match of the expression holds it, so Simplify's skip
// of an expression whose literal the text lacks changes nothing.
func TestWordNeedIsTopLevelLiteral(t *testing.T) {
	exprs, withLit := 0, 0
	for _, ld := range allLocales(t) {
		for _, d := range ld.Simplifications {
			exprs++
			lit, fold := d.Rx.Required()
			if lit == "" {
				continue
			}
			withLit++
			re, err := syntax.Parse(d.Rx.String(), syntax.Perl)
			if err != nil {
				t.Fatalf("%s: %q: %v", ld.Name, d.Rx.String(), err)
			}
			ok := false
			if re.Op == syntax.OpConcat {
				for _, s := range re.Sub {
					if s.Op == syntax.OpLiteral && strings.Contains(string(s.Rune), lit) && (s.Flags&syntax.FoldCase != 0) == fold {
						ok = true
					}
				}
			}
			if !ok {
				t.Errorf("%s: %q: literal %q (fold %v) is not in a literal of its top-level concatenation", ld.Name, d.Rx.String(), lit, fold)
			}
		}
	}
	t.Logf("%d simplifications, %d with a literal", exprs, withLit)
	if exprs < 1000 {
		t.Errorf("only %d simplifications: the locales were not all found", exprs)
	}
	if withLit < 200 {
		t.Errorf("only %d simplifications with a literal: the test checks too little", withLit)
	}
}

// simplifyTexts returns texts to simplify: each English simplification's
// literal in contexts and case-folded forms (K: the Kelvin sign, S: the long
// s), dates as pages write them, and the short texts of the corpus's HTML
// pages (between tags, up to 80 bytes; skipped when the corpus is absent).
func simplifyTexts(t testing.TB) []string {
	strs := []string{"", "a", "an hour ago", "A year ago", "12 noon", "midnight", "10h30", "3 days later",
		"from now", "less than 1 minute ago", "one two three four five six seven eight nine ten eleven twelve",
		"March 5, 2019", "5 mars 2019", "vor 3 Tagen", "il y a une heure", "2019年3月5日", "Updated", "updated",
		"Updated management console in WildFly 9 →", "twelve\u017F", "\u212Aten", "ſix", "SIX", "ſeven", "tEn", "_ten", "ten_", "éten", "teń"}
	fold := strings.NewReplacer("K", "\u212a", "k", "\u212a", "S", "\u017f", "s", "\u017f")
	for _, name := range simplifyLocales {
		ld, _ := data.GetLocaleData(name)
		for _, d := range ld.Simplifications {
			lit, _ := d.Rx.Required()
			for _, s := range []string{lit, strings.ToUpper(lit), fold.Replace(lit)} {
				strs = append(strs, s, "1 "+s+" 2", "x"+s, s+"y", "("+s+")", "5"+s+"5")
			}
		}
	}
	if testing.Short() {
		// The corpus's texts take minutes under the race detector; the
		// run without -short checks them.
		t.Logf("-short: the corpus's texts left out")
		return strs
	}
	var files []string
	filepath.WalkDir(corpusDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".html") {
			files = append(files, p)
		}
		return nil
	})
	seen := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range strings.Split(string(b), "<") {
			if i := strings.IndexByte(part, '>'); i >= 0 {
				part = part[i+1:]
			}
			part = strings.TrimSpace(part)
			if part == "" || len(part) > 80 || seen[part] || !utf8.ValidString(part) {
				continue
			}
			seen[part] = true
		}
	}
	corpus := make([]string, 0, len(seen))
	for s := range seen {
		corpus = append(corpus, s)
	}
	sort.Strings(corpus)
	t.Logf("%d corpus HTML files, %d short texts", len(files), len(corpus))
	return append(strs, corpus...)
}

// TestSimplifyAsUpstream checks that Simplify, which skips an expression
// whose literal the text lacks (blogharvest), returns what upstream's loop
// returns, for the corpus's locales and texts; and that no expression
// MayMatch rules out matches.
func TestSimplifyAsUpstream(t *testing.T) {
	strs := simplifyTexts(t)
	changed := 0
	for _, name := range simplifyLocales {
		ld, _ := data.GetLocaleData(name)
		for _, s := range strs {
			got, want := Simplify(ld, s), upstreamSimplify(ld, s)
			if got != want {
				t.Fatalf("%s: Simplify(%q) = %q, upstream's loop %q", name, s, got, want)
			}
			if got != s {
				changed++
			}
			for _, d := range ld.Simplifications {
				if !d.Rx.MayMatch(s) && d.Rx.MatchString(s) {
					t.Fatalf("%s: %q matches %q, MayMatch says it cannot", name, d.Rx.String(), s)
				}
			}
		}
	}
	t.Logf("%d texts × %d locales, %d simplified", len(strs), len(simplifyLocales), changed)
	if changed < 100 {
		t.Errorf("only %d texts simplified: the test checks too little", changed)
	}
}

// FuzzSimplifyAsUpstream draws texts for TestSimplifyAsUpstream's check.
func FuzzSimplifyAsUpstream(f *testing.F) {
	for _, s := range []string{"an hour ago", "twelve\u017F", "\u212Aten", "12 noon", "10h30", "3 days later", "less than 1 minute ago", "vor 3 Tagen"} {
		f.Add(s)
	}
	var lds []*data.LocaleData
	for _, name := range simplifyLocales {
		ld, _ := data.GetLocaleData(name)
		lds = append(lds, ld)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, ld := range lds {
			if got, want := Simplify(ld, s), upstreamSimplify(ld, s); got != want {
				t.Fatalf("%s: Simplify(%q) = %q, upstream's loop %q", ld.Name, s, got, want)
			}
		}
	})
}

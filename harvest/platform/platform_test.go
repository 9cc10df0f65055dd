package platform

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// TestTableWellFormed checks what the matchers assume of the rows: unique
// ids, lower-case prefixes, itemtypes and markers where they are compared
// case-folded, boilerplate words of ASCII letters, - and _.
func TestTableWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range All() {
		if p.ID == "" || seen[p.ID] || p.ID != strings.ToLower(p.ID) {
			t.Errorf("row %q: id empty, repeated or not lower-case", p.ID)
		}
		seen[p.ID] = true
		for _, l := range [][]string{p.CommentIDPrefixes, p.CommentItemTypes, p.Generators} {
			for _, s := range l {
				if s == "" || s != strings.ToLower(s) {
					t.Errorf("row %s: %q must be lower-case and not empty", p.ID, s)
				}
			}
		}
		for _, w := range p.Boilerplate {
			if w == "" || w[0] < 'a' || w[0] > 'z' || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
				t.Errorf("row %s: boilerplate word %q: lower-case ASCII letters, digits, - and _, starting with a letter", p.ID, w)
			}
		}
	}
}

// TestIsCommentID compares IsCommentID, derived from the table, with the
// pattern it replaces.
func TestIsCommentID(t *testing.T) {
	re := regexp.MustCompile(`^(?:(?:div|li|article|dsq)-)?comment[-_]?\d+$`)
	parts := []string{"", "div-", "li-", "article-", "dsq-", "x-", "comment", "comments", "-", "_", "42", "7", "a", "\n", "٣"}
	var ids []string
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range parts {
				ids = append(ids, a+b+c)
				for _, d := range parts {
					ids = append(ids, a+b+c+d)
				}
			}
		}
	}
	for _, id := range ids {
		if got, want := IsCommentID(id), re.MatchString(id); got != want {
			t.Errorf("IsCommentID(%q) = %v, want %v", id, got, want)
		}
	}
}

// TestIsBoilerplateMatchesRegexp checks the hand-written matcher against
// the regexp of the same words on random ids and classes.
func TestIsBoilerplateMatchesRegexp(t *testing.T) {
	parts := []string{"share", "Sharing", "ads", "ad", "-", "_", " ", "\t", "x", "comments", "comment-form", "nav", "links",
		"BREADCRUMBS", "breadcrumb", "s", "jp-relatedposts", "disqus_thread", "ſhare", "é", "yarpp", "post", "1"}
	rng := rand.New(rand.NewSource(4))
	b := current().boilerplate
	for range 20000 {
		s := randomMix(rng, parts, 6)
		if got, want := IsBoilerplate(s), s != "" && b.re.MatchString(s); got != want {
			t.Fatalf("IsBoilerplate(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestAddDerivesEveryMatcher adds a made-up platform and checks that every
// matcher knows it, then that removing it forgets it.
func TestAddDerivesEveryMatcher(t *testing.T) {
	row := Platform{ID: "chatterbox", Name: "Chatterbox", CommentIDPrefixes: []string{"cbx-msg-"}, CommentClasses: []string{"cbx-msg"},
		CommentItemTypes: []string{"chatterbox.example/message"}, JSMarkers: []string{"cbx-thread"}, LoadMore: []string{".cbx-more"},
		Boilerplate: []string{"cbxpromo"}}
	check := func(want bool) {
		t.Helper()
		last := LoadMore()[len(LoadMore())-1]
		for what, got := range map[string]bool{
			"id":          IsCommentID("cbx-msg-12"),
			"class":       IsCommentClass("cbx-msg", false),
			"itemtype":    IsCommentItemType("https://chatterbox.example/Message"),
			"js":          JSSystem([]byte(`<div id="cbx-thread"></div>`)) == "chatterbox",
			"load more":   last.Platform == "Chatterbox" && last.Selectors[0] == ".cbx-more",
			"boilerplate": IsBoilerplate("box cbxpromo"),
		} {
			if got != want {
				t.Errorf("%s: %v, want %v", what, got, want)
			}
		}
	}
	check(false)
	remove := Add(row)
	check(true)
	remove()
	check(false)
}

// randomMix joins up to max-1 parts drawn at random.
func randomMix(rng *rand.Rand, parts []string, max int) string {
	var b strings.Builder
	for range rng.Intn(max) {
		b.WriteString(parts[rng.Intn(len(parts))])
	}
	return b.String()
}

// TestGenerator checks generator names, the most specific row first.
func TestGenerator(t *testing.T) {
	for in, want := range map[string]string{
		"https://wordpress.org/?v=6.4.2": "WordPress", "WordPress.com": "WordPress.com", "Blogger 7.00": "Blogger",
		"Hugo 0.121.0": "Hugo", "Write.as": "Write.as", "nothing known": "",
	} {
		if got, _ := Generator(in); got != want {
			t.Errorf("Generator(%q) = %q, want %q", in, got, want)
		}
	}
}

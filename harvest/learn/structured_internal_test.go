package learn

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestLDScriptsParsedWhenTheyMayHold checks that JSON-LD is read for the
// post and its comments whatever names the script spells with escapes,
// and that a script naming neither an article type nor a Comment is
// skipped unparsed.
func TestLDScriptsParsedWhenTheyMayHold(t *testing.T) {
	page := `<html><head>
<script type="application/ld+json">{"@graph":[{"@type":"WebPage","name":"Home"},{"@type":"WebSite","name":"Site"}]}</script>
<script type="application/ld+json">{"@type":"Blog\u0050osting","headline":"Escaped",
 "comment":[{"@type":"\u0043omment","text":"First!","author":{"name":"Ann"},"dateCreated":"2024-03-03"}]}</script>
</head><body></body></html>`
	root, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	s := readStructured(root)
	if s.title != "Escaped" {
		t.Errorf("title %q, want the escaped BlogPosting's headline", s.title)
	}
	if len(s.commentScripts) != 1 {
		t.Errorf("%d comment scripts parsed, want 1 (the WebPage graph skipped)", len(s.commentScripts))
	}
	if cs := ldComments(s.commentScripts, ""); len(cs) != 1 || cs[0].Author != "Ann" {
		t.Errorf("comments %+v, want Ann's", cs)
	}
	for _, c := range []struct {
		src                    string
		forArticle, forComment bool
		want                   bool
	}{
		{`{"@type":"WebPage"}`, true, true, false},
		{`{"@type":"NewsArticle"}`, true, false, true},
		{`{"@type":"NewsArticle"}`, false, true, false},
		{`{"@type":"Comment"}`, false, true, true},
		{`{"@type":"Comment"}`, true, false, false},
		{`{"name":"\u0041"}`, true, false, true},
	} {
		if got := ldMayHold(c.src, c.forArticle, c.forComment); got != c.want {
			t.Errorf("ldMayHold(%s, %v, %v) = %v", c.src, c.forArticle, c.forComment, got)
		}
	}
}

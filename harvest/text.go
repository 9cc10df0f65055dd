package harvest

import (
	"strings"

	"golang.org/x/net/html"
)

// htmlText returns the text of an HTML fragment (or of plain text), with
// whitespace collapsed.
func htmlText(fragment string) string {
	if !strings.ContainsAny(fragment, "<&") {
		return strings.Join(strings.Fields(fragment), " ")
	}
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(fragment))
	skip := 0
	for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
		switch tt {
		case html.StartTagToken:
			if tn, _ := z.TagName(); string(tn) == "script" || string(tn) == "style" {
				skip++
			}
		case html.EndTagToken:
			if tn, _ := z.TagName(); (string(tn) == "script" || string(tn) == "style") && skip > 0 {
				skip--
			}
		case html.TextToken:
			if skip == 0 {
				b.Write(z.Text())
				b.WriteByte(' ')
			}
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

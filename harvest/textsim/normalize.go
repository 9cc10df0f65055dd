package textsim

import (
	"strings"
	"unicode"
	"unicode/utf8"

	xnethtml "github.com/blogharvest/blogharvest/internal/xnet/html"
)

// NormalizeText returns s case-folded with white space collapsed and trimmed:
// the form texts are compared in.
func NormalizeText(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		r = fold(r)
		if r == ' ' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Collapse returns s with white space runs collapsed to one space and
// trimmed, case kept.
func Collapse(s string) string {
	if isCollapsed(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		r, w := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(s[i:])
		}
		if IsSpace(r) {
			i += w
			continue
		}
		j := i + w
		for j < len(s) {
			r, w = rune(s[j]), 1
			if r >= utf8.RuneSelf {
				r, w = utf8.DecodeRuneInString(s[j:])
			}
			if IsSpace(r) {
				break
			}
			j += w
		}
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = append(b, s[i:j]...)
		i = j
	}
	return string(b)
}

// isCollapsed reports whether s is ASCII-spaced text that collapse would
// return unchanged: no white space but single inner spaces.
func isCollapsed(s string) bool {
	prev := byte(' ')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			return false
		case c == ' ':
			if prev == ' ' {
				return false
			}
		case asciiSpace[c]:
			return false
		}
		prev = c
	}
	return prev != ' ' || s == ""
}

// asciiSpace are the ASCII bytes unicode.IsSpace reports as white space.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// IsSpace reports whether r is white space as strings.Fields sees it.
func IsSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiSpace[r]
	}
	return unicode.IsSpace(r)
}

// FragmentTexts returns the text nodes of an HTML fragment (or plain text),
// entities decoded, skipping scripts, styles and comments. It tokenizes
// rather than parses: a feed entry's content needs no tree.
func FragmentTexts(s string) []string {
	var out []string
	eachFragmentText(s, func(text []byte) { out = append(out, string(text)) })
	return out
}

// eachFragmentText calls f on each text node of FragmentTexts, as bytes
// valid only during the call.
func eachFragmentText(s string, f func(text []byte)) {
	z := xnethtml.NewTokenizer(strings.NewReader(s))
	skip := ""
	for {
		switch z.Next() {
		case xnethtml.ErrorToken:
			return
		case xnethtml.TextToken:
			if skip == "" {
				f(z.Text())
			}
		case xnethtml.StartTagToken:
			if name, _ := z.TagName(); skip == "" && rawTextTags[string(name)] {
				skip = string(name)
			}
		case xnethtml.EndTagToken:
			if name, _ := z.TagName(); string(name) == skip {
				skip = ""
			}
		}
	}
}

// rawTextTags are elements whose content is not text a reader sees.
var rawTextTags = map[string]bool{"script": true, "style": true, "noscript": true, "template": true, "iframe": true, "svg": true, "object": true}

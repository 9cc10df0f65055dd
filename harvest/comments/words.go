package comments

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// commentWords are fragments, lower-cased, that name comments or a
// discussion in ids, classes, labels and URLs, in the languages blogs are
// commonly written in.
var commentWords = []string{"comment", "discuss", "thread", "conversation",
	"kommentar", "commentaire", "comentario", "comentário", "commento", "reactie", "komentar", "kommentti",
	"hozzaszol", "yorum", "reacties", "diskussion", "discusión", "обсужд", "коммент", "コメント", "评论", "댓글"}

// Words returns the fragments, lower-cased, that name comments or a
// discussion (commentWords), for a page reader's own matcher.
func Words() []string { return slices.Clone(commentWords) }

// NamesComments reports whether v, lower-cased, holds a comment word.
func NamesComments(v string) bool {
	return NamesLowerComments(strings.ToLower(v))
}

// NamesLowerComments is NamesComments of a value already lower-cased
// (strings.ToLower is idempotent: TestToLowerIdempotent), without
// lower-casing it again: an inline script's code may be long.
func NamesLowerComments(v string) bool {
	return containsAny(v, commentWords)
}

// containsAny reports whether s holds one of words.
func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// LDCommentCount returns the largest commentCount of a JSON-LD block, or 0.
func LDCommentCount(js []byte) int {
	var v any
	if json.Unmarshal(bytes.TrimSpace(js), &v) != nil {
		return 0
	}
	best := 0
	var visit func(v any)
	visit = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			for k, x := range t {
				if strings.EqualFold(k, "commentCount") {
					best = max(best, countOf(x))
				}
				visit(x)
			}
		case []any:
			for _, x := range t {
				visit(x)
			}
		}
	}
	visit(v)
	return best
}

// countOf reads a JSON number or numeric string.
func countOf(x any) int {
	switch t := x.(type) {
	case float64:
		return int(t)
	case string:
		k := 0
		_, _ = fmt.Sscan(t, &k)
		return k
	}
	return 0
}

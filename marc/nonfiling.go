package marc

import (
	"strings"
	"sync"
)

// articles lists the initial articles by MARC language code, as 245's
// second indicator counts them. A record of another language, or of unknown
// language ("und"), uses English; English "the" counts in every language,
// since blogs of any language title posts in English and "the" is no word
// of another language.
var articles = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"eng": {"the", "a", "an"},
		"fre": {"le", "la", "les", "l", "un", "une"},
		"ger": {"der", "die", "das", "den", "dem", "des", "ein", "eine", "einem", "einen", "einer", "eines"},
		"spa": {"el", "la", "lo", "los", "las", "un", "una"},
		"ita": {"il", "lo", "la", "l", "i", "gli", "le", "un", "uno", "una"},
		"por": {"o", "a", "os", "as", "um", "uma"},
		"cat": {"el", "la", "l", "els", "les", "en", "un", "una"},
		"dut": {"de", "het", "een"},
		"glg": {"o", "a", "os", "as"},
		"dan": {"den", "det", "de", "en", "et"},
		"nor": {"den", "det", "de", "en", "et", "ei"},
		"swe": {"den", "det", "de", "en", "ett"},
		"hun": {"a", "az", "egy"},
		"mlt": {"il", "l"},
		"gre": {"o", "i", "to", "oi", "ta"},
	}
})

// articleExceptions are title openings that look like an article but are
// not one (MARC::Lint's list).
var articleExceptions = []string{
	"A & ", "A-", "A+", "A is ", "A isn't ", "A l'", "A la ", "A posteriori", "A priori", "A to ",
	"El Nino", "El Salvador", "L is ", "L-", "La Salle", "Las Vegas", "Lo cual", "Lo mein", "Lo que",
	"Los Alamos", "Los Angeles",
}

// separators end a title's first word, as MARC::Lint splits it.
const separators = " ()[]'\"-"

// nonFiling returns 245's second indicator for title in the language lang
// (a MARC code, see articles): the number of characters to skip for filing, counting an
// initial article of that language with the quotes or brackets before it
// and the blanks and quotes after it, or '0' when the title starts with no
// article. The count is in characters, at most 9.
func nonFiling(title, lang string) byte {
	list, ok := articles()[lang]
	if !ok {
		list = articles()["eng"]
	}
	rest := title
	lead := 0
	for rest != "" && strings.ContainsRune(`"'[(*`, rune(rest[0])) {
		rest, lead = rest[1:], lead+1
	}
	for _, e := range articleExceptions {
		if len(rest) >= len(e) && strings.EqualFold(rest[:len(e)], e) {
			return '0'
		}
	}
	end := strings.IndexAny(rest, separators)
	word := strings.ToLower(rest[:max(end, 0)])
	if end <= 0 || !contains(list, word) && word != "the" {
		return '0'
	}
	n := lead + end + 1
	for _, c := range rest[end+1:] {
		if !strings.ContainsRune(` "'[]()*`, c) {
			break
		}
		n++
	}
	if n > 9 {
		return '0'
	}
	return byte('0' + n)
}

package learn

import (
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

// monthIndex maps lower-cased month names and abbreviations of English and
// the localised languages to 1–12.
var monthIndex = sync.OnceValue(buildMonthIndex)

func buildMonthIndex() map[string]int {
	m := map[string]int{}
	en := []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}
	for i, name := range en {
		m[name] = i + 1
		m[name[:3]] = i + 1
	}
	m["sept"] = 9
	for _, names := range monthNames {
		for i, name := range names {
			name = strings.ToLower(name)
			m[name] = i + 1
			if r := []rune(name); len(r) > 4 {
				m[string(r[:4])] = i + 1
				m[string(r[:3])] = i + 1
			}
		}
	}
	return m
}

// dateToken is one word or number of a text that may hold a date.
type dateToken struct {
	word string
	num  int // -1 for words
	sep  byte
}

// quickDate finds a calendar date in s without go-dateparser: year-month-day
// with '-', '/' or '.', day/month/year (month/day/year for English and for
// lang "en-US"), and day, month name and year in any order. It returns the
// date at midnight UTC.
func quickDate(s, lang string) (time.Time, bool) {
	toks := dateTokens(s)
	for i := range toks {
		if t, ok := numericDate(toks[i:], lang); ok {
			return t, true
		}
	}
	for i, tk := range toks {
		if mon, ok := monthIndex()[tk.word]; ok && tk.num < 0 {
			if t, ok := namedDate(toks, i, mon); ok {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

// dateTokens splits s into words and numbers, remembering the separator
// after each.
func dateTokens(s string) []dateToken {
	toks := make([]dateToken, 0, 8)
	start := -1
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			toks = append(toks, newDateToken(s[start:i], r))
			start = -1
		}
	}
	if start >= 0 {
		toks = append(toks, newDateToken(s[start:], ' '))
	}
	return toks
}

// newDateToken makes the token of word w (letters and digits) followed
// by sep: a number ("28", "28th"), else a lower-cased word.
func newDateToken(w string, sep rune) dateToken {
	w = strings.ToLower(w)
	n, ok := atoiDigits(w)
	if !ok {
		n = -1
		t := strings.TrimRight(w, "0123456789")
		t = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(t, "st"), "nd"), "rd"), "th")
		if d, ok := atoiDigits(t); ok {
			n, w = d, t
		}
	}
	b := byte(' ')
	if sep < 128 {
		b = byte(sep)
	}
	return dateToken{word: w, num: n, sep: b}
}

// atoiDigits is strconv.Atoi of a word of letters and digits, which
// takes no sign: it reads only words of ASCII digits, sparing Atoi the
// error it would allocate for the others.
func atoiDigits(w string) (int, bool) {
	if w == "" {
		return 0, false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(w)
	return n, err == nil
}

// numericDate reads a date of three numbers joined by one separator at the
// start of toks.
func numericDate(toks []dateToken, lang string) (time.Time, bool) {
	if len(toks) < 3 || toks[0].num < 0 || toks[1].num < 0 || toks[2].num < 0 {
		return time.Time{}, false
	}
	sep := toks[0].sep
	if sep != '-' && sep != '/' && sep != '.' || toks[1].sep != sep {
		return time.Time{}, false
	}
	a, b, c := toks[0], toks[1], toks[2]
	if len(a.word) == 4 {
		return makeDate(a.num, b.num, c.num)
	}
	year := c.num
	if len(c.word) == 2 {
		year += 2000
	} else if len(c.word) != 4 {
		return time.Time{}, false
	}
	monthFirst := sep == '/' && (langBase(lang) == "en" || lang == "") && a.num <= 12
	if a.num > 12 {
		monthFirst = false
	} else if b.num > 12 {
		monthFirst = true
	}
	if monthFirst {
		return makeDate(year, a.num, b.num)
	}
	return makeDate(year, b.num, a.num)
}

// namedDate reads a date around a month name at toks[i]: "2 August 2013",
// "August 2nd, 2013", "2. August 2013", "2 de agosto de 2013".
func namedDate(toks []dateToken, i, mon int) (time.Time, bool) {
	day, year := -1, -1
	for j := i - 3; j <= i+3; j++ {
		if j < 0 || j >= len(toks) || j == i || toks[j].num < 0 {
			continue
		}
		n := toks[j].num
		switch {
		case len(toks[j].word) == 4 && n >= 1900 && n <= 2100 && year < 0:
			year = n
		case n >= 1 && n <= 31 && len(toks[j].word) <= 2 && (day < 0 || j > i && day < 0):
			day = n
		}
	}
	if day < 0 || year < 0 {
		return time.Time{}, false
	}
	return makeDate(year, mon, day)
}

// makeDate returns the date at midnight UTC, if valid.
func makeDate(y, m, d int) (time.Time, bool) {
	if y < 1900 || y > 2100 || m < 1 || m > 12 || d < 1 || d > 31 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return time.Time{}, false
	}
	return t, true
}

// cjkMonthDate reads "7月 8, 2022" (a month number, 月, a space, a day, a
// comma, a space and a year, in ASCII digits: one or two without a
// leading zero, which go-dateparser refuses, then four) for a page in Japanese or Chinese (lang ja or zh), as
// go-dateparser reads it then (midnight in its zone named UTC): such a page's dates were
// each a go-dateparser call (mitsuyoshi's crawl: 17, about 0.7 ms each,
// and 40–50 ms of CPU for the first of a process, which builds its
// tables and compiles its expressions). Only valid days of makeDate's
// years are read; any other text, an impossible day ("2月 30, 2022",
// which go-dateparser moves to another year) and other languages are left
// to go-dateparser. TestCJKMonthDate and FuzzCJKMonthDate check the
// answers against go-dateparser's.
func cjkMonthDate(s, lang string) (time.Time, bool) {
	if b := langBase(lang); b != "ja" && b != "zh" {
		return time.Time{}, false
	}
	m, rest, ok := leadingNumber(s, 1, 2)
	if !ok || s[0] == '0' || !strings.HasPrefix(rest, "月 ") {
		return time.Time{}, false
	}
	rest = rest[len("月 "):]
	d, after, ok := leadingNumber(rest, 1, 2)
	if !ok || rest[0] == '0' || !strings.HasPrefix(after, ", ") {
		return time.Time{}, false
	}
	y, rest, ok := leadingNumber(after[len(", "):], 4, 4)
	if !ok || rest != "" {
		return time.Time{}, false
	}
	if _, ok := makeDate(y, m, d); !ok {
		return time.Time{}, false
	}
	return time.Date(y, time.Month(m), d, 0, 0, 0, 0, dateparserUTC), true
}

// dateparserUTC is the zone go-dateparser gives a date without one when
// its default is UTC: a fixed zone named UTC, not time.UTC (which
// formats and compares alike, but is another Location).
var dateparserUTC = time.FixedZone("UTC", 0)

// leadingNumber reads the ASCII digits s starts with, min to max of them,
// and returns their value and what follows.
func leadingNumber(s string, min, max int) (int, string, bool) {
	n, i := 0, 0
	for ; i < len(s) && i < max && isDigit(s[i]); i++ {
		n = 10*n + int(s[i]-'0')
	}
	if i < min || i < len(s) && isDigit(s[i]) {
		return 0, s, false
	}
	return n, s[i:], true
}

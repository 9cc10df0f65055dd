package learn

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/textsim"
	dateparser "github.com/blogharvest/blogharvest/internal/dateparser"
	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
)

// dateAttrs are the attributes that hold a machine-readable date.
var dateAttrs = []string{"datetime", "content", "title"}

// monthNames and dayNames localise dates: month names January… and day
// names Sunday… for each language.
var monthNames = map[string][]string{
	"fr": {"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
	"de": {"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"},
	"es": {"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"},
	"it": {"gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"},
	"pt": {"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"},
	"nl": {"januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"},
}

var dayNames = map[string][]string{
	"fr": {"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"},
	"de": {"Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"},
	"es": {"domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"},
	"it": {"domenica", "lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato"},
	"pt": {"domingo", "segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado"},
	"nl": {"zondag", "maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag"},
}

// englishLayouts are the renderings of a date searched for on every page.
var englishLayouts = []string{
	"2006-01-02", time.RFC3339, "2006/01/02", time.RFC1123, time.RFC1123Z, "Mon, 2 Jan 2006",
	"January 2, 2006", "Jan 2, 2006", "2 January 2006", "2 Jan 2006", "January 2 2006",
	"02/01/2006", "01/02/2006", "2/1/2006", "1/2/2006", "02.01.2006", "2.1.2006", "02-01-2006",
	"Monday, January 2, 2006", "Monday, 2 January 2006", "Mon 2 Jan 2006",
	"2006-01-02 15:04", "January 2, 2006 at 3:04 pm", "January 2, 2006 at 15:04", "02 Jan 2006",
	"Jan 02, 2006", "2006.01.02", "01.02.06", "02/01/06", "01/02/06",
}

// DateRenderings returns the ways a page may write t: numeric and English
// layouts, English ordinals ("January 2nd, 2006"), and day–month–year with
// localised month and day names for lang (and for fr, de, es, it, pt and nl
// when lang is empty).
func DateRenderings(t time.Time, lang string) []string {
	var out []string
	for _, l := range englishLayouts {
		out = append(out, t.Format(l))
	}
	out = append(out, fmt.Sprintf("%s %d%s, %d", t.Month(), t.Day(), ordinal(t.Day()), t.Year()))
	base := langBase(lang)
	for l := range monthNames {
		if base == "" || base == l {
			out = append(out, localised(t, l)...)
		}
	}
	return out
}

// localised returns t written with language l's month and day names.
func localised(t time.Time, l string) []string {
	m, wd := monthNames[l][t.Month()-1], dayNames[l][t.Weekday()]
	d, y := t.Day(), t.Year()
	out := []string{
		fmt.Sprintf("%d %s %d", d, m, y), fmt.Sprintf("%d. %s %d", d, m, y),
		fmt.Sprintf("%d de %s de %d", d, m, y), fmt.Sprintf("%s %d %s %d", wd, d, m, y),
		fmt.Sprintf("%s, %d. %s %d", wd, d, m, y), fmt.Sprintf("%s, %d de %s de %d", wd, d, m, y),
		fmt.Sprintf("%s %d, %d", m, d, y),
	}
	if d == 1 && l == "fr" {
		out = append(out, fmt.Sprintf("1er %s %d", m, y))
	}
	return out
}

func ordinal(d int) string {
	switch {
	case d%10 == 1 && d != 11:
		return "st"
	case d%10 == 2 && d != 12:
		return "nd"
	case d%10 == 3 && d != 13:
		return "rd"
	}
	return "th"
}

// langBase returns the primary subtag of a BCP 47 tag, lower-cased.
func langBase(lang string) string {
	lang = strings.ToLower(lang)
	if i := strings.IndexAny(lang, "-_"); i >= 0 {
		lang = lang[:i]
	}
	return lang
}

// maxDateRange bounds the text, in bigrams, of an element considered as a
// date.
const maxDateRange = 64

// dateScores scores elements as the post's date: the best Dice of the
// element's bigram set against any rendering of target, or 1 when a date
// attribute of the element parses to the same day. The best element weighs
// the score by 1/(1 + 0.05 × tree distance to the article element).
// Elements in sidebars and widgets (widgetAreas) are not candidates. It
// also returns, per element, the attribute that matched.
func dateScores(d *bigramIndex, target time.Time, lang string, article int) (fieldScores, []string) {
	f := none(len(d.els))
	attrs := make([]string, len(d.els))
	if target.IsZero() {
		return f, attrs
	}
	rend := renderingSets(d, target, lang)
	union := unionSet(rend, d.coder.Size())
	bestVal, slow := 0.0, 0
	year := fmt.Sprint(target.Year())
	widget := widgetAreas(d, article)
	for i, n := range d.els {
		if widget != nil && widget[i] {
			continue
		}
		s := attrDateScore(n, target, &attrs[i])
		if s == 0 {
			s = textDateScore(d, i, rend, union, func() bool { return textIsDay(n, target, lang, &slow) })
		}
		if s < 0.5 {
			s = max(s, ownTextDateScore(n, target, year, lang))
		}
		if s < 0.5 {
			continue
		}
		f.score[i] = s
		v := s
		if article >= 0 {
			v = s / (1 + 0.05*float64(d.distance(i, article)))
		}
		if v > bestVal {
			f.best, bestVal = i, v
		}
	}
	return f, attrs
}

// maxSlowParses bounds the go-dateparser calls textIsDay makes per page.
const maxSlowParses = 8

// textIsDay reports whether element n's text parses to target's day: bigram
// similarity alone cannot tell "September 2013" from "September 2, 2013".
// slow counts the calls to go-dateparser, which are expensive.
func textIsDay(n *html.Node, target time.Time, lang string, slow *int) bool {
	text := nodeText(n)
	if t, ok := quickDate(text, lang); ok {
		return nearDay(t, target)
	}
	if *slow >= maxSlowParses || len(text) > 64 {
		return false
	}
	*slow++ // counted as a parse, so that the budget stays the same
	if isShortNumber(text) || isClockOnly(text) || isEnglishNumber(text, lang) {
		return false // a year, a day, a time or such a number alone: go-dateparser (strict) reads no date in it
	}
	t, ok := ParseDate(text, lang)
	return ok && nearDay(t, target)
}

// isShortNumber reports whether s is a number of one to four ASCII
// digits, in which go-dateparser, strict, finds no date (TestShortNumbers):
// "2013" beside a date is common, and such a number costs go-dateparser
// thousands of allocations to refuse.
func isShortNumber(s string) bool {
	_, ok := atoiDigits(s)
	return ok && len(s) <= 4
}

// isEnglishNumber reports whether s is, on a page that ParseDate reads in
// English only (lang "" or en, dateLanguages), a number of five ASCII
// digits ("12026") or one digit, a point and three or four digits
// ("3.064", "6.0002"), in which ParseDate finds no date: every such number
// was checked once (100 000 + 110 000 texts, lang en), TestShortNumbers
// keeps a sample and FuzzEnglishNumber draws from them all.
// go-dateparser takes 0.2–8 ms to refuse each (its no-spaces parser tries
// every split of the digits), and the first call of a process 40–50 ms
// more: thaumatorium's version numbers and counters were 14 calls a crawl.
func isEnglishNumber(s, lang string) bool {
	if b := langBase(lang); b != "" && b != "en" {
		return false
	}
	if _, ok := atoiDigits(s); ok {
		return len(s) == 5
	}
	if (len(s) == 5 || len(s) == 6) && isDigit(s[0]) && s[1] == '.' {
		_, ok := atoiDigits(s[2:])
		return ok
	}
	return false
}

// isClockOnly reports whether s is a time of day alone, as blogs write it
// beside their dates ("9:52 AM", "at 10:13 pm", "17:05"): an hour of 0–23
// in one or two digits, a colon, minutes in two digits, maybe "at " before
// and " AM" or " PM" (or " am", " pm") after. go-dateparser, strict,
// finds no date in it (TestShortNumbers), after trying for a millisecond.
func isClockOnly(s string) bool {
	s = strings.TrimPrefix(s, "at ")
	for _, suffix := range []string{" AM", " PM", " am", " pm"} {
		if strings.HasSuffix(s, suffix) {
			s = s[:len(s)-len(suffix)]
			break
		}
	}
	h, m, ok := strings.Cut(s, ":")
	if len(h) < 1 || len(h) > 2 || len(m) != 2 {
		return false
	}
	hour, hok := atoiDigits(h)
	minute, mok := atoiDigits(m)
	return ok && hok && mok && hour <= 23 && minute <= 59
}

// nearDay reports whether a date written without a zone (t, midnight UTC)
// can be target's day in some zone: within a day of it.
func nearDay(t, target time.Time) bool {
	d := t.Sub(target)
	return d > -36*time.Hour && d < 36*time.Hour
}

// renderingSets returns the sorted, distinct bigram ids of each rendering of
// t (in its own zone and in UTC).
func renderingSets(d *bigramIndex, t time.Time, lang string) [][]int32 {
	texts := DateRenderings(t, lang)
	if u := t.UTC(); u.Day() != t.Day() {
		texts = append(texts, DateRenderings(u, lang)...)
	}
	seen := make(map[string]bool, len(texts))
	sets := make([][]int32, 0, len(texts))
	for _, s := range texts {
		if k := textsim.NormalizeText(s); !seen[k] {
			seen[k] = true
			sets = append(sets, textsim.SortedSet(d.coder.AppendText(nil, s)))
		}
	}
	return sets
}

// unionSet returns the membership table of the union of sets.
func unionSet(sets [][]int32, n int) []bool {
	for _, s := range sets {
		for _, v := range s {
			if int(v) >= n {
				n = int(v) + 1
			}
		}
	}
	u := make([]bool, n)
	for _, s := range sets {
		for _, v := range s {
			u[v] = true
		}
	}
	return u
}

// textDateScore returns the best Dice of element i's text against the
// renderings, or 0 when the element is too long, mostly not date text, or
// scores 0.5 or more but fails verify (when not nil).
func textDateScore(d *bigramIndex, i int, rend [][]int32, union []bool, verify func() bool) float64 {
	s, e := d.start[i], d.end[i]
	if e-s < 3 || e-s > maxDateRange {
		return 0
	}
	in := 0
	for _, v := range d.vals[s:e] {
		if int(v) < len(union) && union[v] {
			in++
		}
	}
	if in < 6 && float64(in) < 0.4*float64(e-s) {
		return 0
	}
	// The element's whole text, spaces between its text nodes included:
	// dates are often split into spans (<span>02</span> <span>Sep</span>).
	set := textsim.SortedSet(d.coder.AppendText(nil, nodeText(d.els[i])))
	common := 0
	for _, v := range set {
		if int(v) < len(union) && union[v] {
			common++
		}
	}
	if 2*float64(common) < 0.5*float64(len(set)+minLen(rend)) {
		return 0 // no rendering can reach a Dice of 0.5
	}
	best := 0.0
	for _, r := range rend {
		if x := textsim.SortedDice(set, r); x > best {
			best = x
		}
	}
	if best >= 0.5 && verify != nil && !verify() {
		return 0
	}
	return best
}

// minLen returns the length of the shortest set.
func minLen(sets [][]int32) int {
	m := 0
	for i, s := range sets {
		if i == 0 || len(s) < m {
			m = len(s)
		}
	}
	return m
}

// attrDateScore returns 1 when one of n's date attributes parses to the day
// of target, recording the attribute's name in which.
func attrDateScore(n *html.Node, target time.Time, which *string) float64 {
	for _, a := range dateAttrs {
		v := htmlnode.Attr(n, a)
		if len(v) < 8 || len(v) > 40 {
			continue
		}
		if t, ok := parseMachineDate(v); ok && textsim.SameCalendarDay(t, target) {
			*which = a
			return 1
		}
	}
	return 0
}

// machineLayouts are the layouts of machine-readable dates in attributes.
var machineLayouts = []string{
	time.RFC3339, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05", "2006-01-02T15:04Z07:00",
	"2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02", time.RFC1123, time.RFC1123Z,
}

// parseMachineDate parses an ISO 8601 or RFC 1123 date.
func parseMachineDate(s string) (time.Time, bool) {
	t, _, ok := parseMachineDatePrec(s)
	return t, ok
}

// parseMachineDatePrec parses an ISO 8601 or RFC 1123 date and says how
// precise it is.
func parseMachineDatePrec(s string) (time.Time, blogharvest.Precision, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 8 || !(s[0] >= '0' && s[0] <= '9' || strings.Contains(s, ", ")) || !machineShape(s) {
		return time.Time{}, "", false
	}
	for _, l := range machineLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, machinePrecision(l), true
		}
	}
	return time.Time{}, "", false
}

// machineShape reports whether s may have a layout of machineLayouts:
// "2006-01-…" or "Mon, …". It spares time.Parse the strings no layout
// takes, whose errors it would allocate.
func machineShape(s string) bool {
	if s[0] >= '0' && s[0] <= '9' {
		return len(s) >= 10 && s[4] == '-' && s[7] == '-'
	}
	return len(s) >= 5 && s[3] == ',' && s[4] == ' '
}

// learnOffset estimates the UTC offset, in seconds, of the blog's zone from
// the training pages whose date (as rule r reads it) has no zone of its
// own: a page that writes day D (or a wall-clock time on day D) for an
// instant T says the offset lies in [D − T, D + 24h − T). The estimate is
// the offset of the region the pages' language names (regionOffset) when
// it lies in the intersection over the pages, else 0 when 0 does (no
// evidence for another zone: a plain UTC blog stays UTC) or the pages
// disagree, else its middle rounded to the hour.
//
// The offset never reaches a record as a claim: a date without a zone
// keeps its precision (blogharvest.PrecisionDay, PrecisionLocalMinute),
// and blogharvest.FormatDate writes only its day or wall clock. It places
// the date in time, for ordering and for comparing with feed dates.
func learnOffset(pages []*trainPage, r *Rule) int {
	lo, hi := int64(-14*3600), int64(14*3600)
	seen, lang := false, ""
	for _, p := range pages {
		n := r.firstIn(p.d.root, p.d.ix)
		if n == nil || p.pair.Target.Date.IsZero() {
			continue
		}
		t, prec, ok := nodeDatePrec(n, r.Attr, p.pair.Page.Lang)
		if !ok || prec.HasZone() {
			continue
		}
		if lang == "" {
			lang = p.pair.Page.Lang
		}
		y, m, dd := t.Date()
		d := time.Date(y, m, dd, 0, 0, 0, 0, time.UTC).Unix() - p.pair.Target.Date.Unix()
		lo, hi = max(lo, d), min(hi, d+24*3600)
		seen = true
	}
	if !seen || lo >= hi {
		return 0
	}
	if off, ok := regionOffset(lang); ok && lo <= off && off < hi {
		return int(off)
	}
	if lo <= 0 && 0 < hi {
		return 0
	}
	mid := (lo + hi) / 2
	return int((mid + 1800*sign(mid)) / 3600 * 3600)
}

// learnFeedZone learns the blog's zone from the offsets the feed states
// (Target.DateOffset), which learnOffset can only bound: on every training
// page where the date rule r reads has no zone and the feed an instant, the
// page's day must be the day of that instant in the offset the feed stated,
// and one offset at least must not be 0 (a feed that writes every date in
// UTC says nothing of the blog's zone). It returns that offset when the
// feed states one, else the offset most pages had and the Rule.FeedZone
// pairs; ok is false when the feed is no evidence.
func learnFeedZone(pages []*trainPage, r *Rule) (offset int, zone [][2]int, ok bool) {
	count := map[int]int{}
	for _, p := range pages {
		n := r.firstIn(p.d.root, p.d.ix)
		target := p.pair.Target
		if n == nil || target.Date.IsZero() {
			continue
		}
		t, prec, ok := nodeDatePrec(n, r.Attr, p.pair.Page.Lang)
		if !ok || prec.HasZone() {
			continue
		}
		local := target.Date.In(time.FixedZone("", target.DateOffset))
		if y, m, d := t.Date(); local.Year() != y || local.Month() != m || local.Day() != d {
			return 0, nil, false // the page's day is not the feed's in the zone it stated
		}
		count[target.DateOffset]++
		zone = append(zone, [2]int{local.YearDay(), target.DateOffset})
	}
	if len(count) == 0 || len(count) == 1 && count[0] > 0 {
		return 0, nil, false
	}
	for o, c := range count {
		if c > count[offset] || c == count[offset] && o < offset {
			offset = o
		}
	}
	if len(count) == 1 {
		return offset, nil, true
	}
	slices.SortFunc(zone, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	return offset, zone, true
}

// regionOffsets are the UTC offsets, in seconds east, of regions (ISO
// 3166 codes) with one zone and no summer time in the last decades.
var regionOffsets = map[string]int64{
	"JP": 9 * 3600, "KR": 9 * 3600, "TW": 8 * 3600, "CN": 8 * 3600, "HK": 8 * 3600, "SG": 8 * 3600,
	"PH": 8 * 3600, "TH": 7 * 3600, "VN": 7 * 3600, "IN": 5*3600 + 1800, "ZA": 2 * 3600, "KE": 3 * 3600,
	"CO": -5 * 3600, "PE": -5 * 3600,
}

// regionOffset returns the UTC offset of the region a BCP 47 tag names
// ("zh-TW": 8 h), when that region has one (regionOffsets): evidence of
// a blog's zone among the offsets its pages allow.
func regionOffset(lang string) (int64, bool) {
	parts := strings.FieldsFunc(lang, func(r rune) bool { return r == '-' || r == '_' })
	for i := 1; i < len(parts); i++ {
		if len(parts[i]) == 2 { // the region; a script ("Hant") has four letters
			off, ok := regionOffsets[strings.ToUpper(parts[i])]
			return off, ok
		}
	}
	return 0, false
}

// minLocalAttrPages is how many training pages must show a mislabelled
// zone, and none a right one, for Rule.LocalAttr.
const minLocalAttrPages = 2

// learnLocalAttr reports whether the machine-readable dates rule r reads
// state the blog's local time under a wrong zone label, and the offset
// of the blog's zone: on every training page where the rule's date has a
// zone and the feed an instant, the stated instant is off the feed's by
// one same whole number of quarter hours (not zero), its wall clock being
// the feed's instant in that zone to the minute; at least
// minLocalAttrPages such pages, none that agrees with the feed.
func learnLocalAttr(pages []*trainPage, r *Rule) (int, bool) {
	off, seen, label := int64(0), 0, 0
	for _, p := range pages {
		n := r.firstIn(p.d.root, p.d.ix)
		target := p.pair.Target.Date
		if n == nil || target.IsZero() {
			continue
		}
		t, prec, ok := nodeDatePrec(n, r.Attr, p.pair.Page.Lang)
		if !ok || !prec.HasZone() {
			continue
		}
		d := t.Unix() - target.Unix()
		if d == 0 || d%900 != 0 || d < -14*3600 || d > 14*3600 || seen > 0 && d != off {
			return 0, false // agrees with the feed, or no one zone explains it
		}
		_, stated := t.Zone()
		off = d
		if z := d + int64(stated); z == 0 || z < -14*3600 || z > 14*3600 {
			return 0, false // no zone of a blog would write that wall clock
		}
		seen++
		if seen == 1 {
			label = stated
		} else if stated != label {
			return 0, false
		}
	}
	if seen < minLocalAttrPages {
		return 0, false
	}
	return int(off) + label, true
}

// localWallClock returns a date with a zone as its wall clock without one
// (the zone label being no zone of the blog's: Rule.LocalAttr), with the
// matching local precision.
func localWallClock(t time.Time, p blogharvest.Precision) (time.Time, blogharvest.Precision) {
	if !p.HasZone() {
		return t, p
	}
	y, m, d := t.Date()
	local := blogharvest.PrecisionLocalSecond
	if p == blogharvest.PrecisionMinute {
		local = blogharvest.PrecisionLocalMinute
	}
	return time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), 0, time.UTC), local
}

func sign(x int64) int64 {
	if x < 0 {
		return -1
	}
	return 1
}

// inOffset returns a date without a zone of its own (precision p: a day,
// or a wall-clock time) as the same wall clock in the zone date rule r
// (nil: UTC) places it in (Rule.offsetAt). Dates with a zone are kept.
func inOffset(t time.Time, p blogharvest.Precision, r *Rule) (time.Time, blogharvest.Precision) {
	if p.HasZone() {
		return t, p
	}
	offset := r.offsetAt(t)
	if offset == 0 {
		return t, p
	}
	y, m, d := t.Date()
	return time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), 0, time.FixedZone("", offset)), p
}

// offsetAt returns the UTC offset, in seconds east, of the blog's zone on
// the day of t (a wall clock without zone): that of Rule.FeedZone's nearest
// day of the year, else Rule.UTCOffset; 0 for a nil rule.
func (r *Rule) offsetAt(t time.Time) int {
	if r == nil {
		return 0
	}
	if len(r.FeedZone) == 0 {
		return r.UTCOffset
	}
	day, best, off := t.YearDay(), 400, r.UTCOffset
	for _, z := range r.FeedZone {
		d := day - z[0]
		if d < 0 {
			d = -d
		}
		if d = min(d, 366-d); d < best {
			best, off = d, z[1]
		}
	}
	return off
}

// ParseDate parses a date as pages write it, in language lang (a BCP 47 tag;
// English is tried too): ISO 8601 and RFC 1123 directly, anything else with
// quickDate (and the time of day after the date, see clockDate), then (for
// short texts) go-dateparser, which knows relative dates and 200 locales but
// is slow. Text around the date ("Posted on …") is tolerated. A date without
// a time is midnight UTC; one with a time but no zone is its wall clock in
// UTC.
func ParseDate(s, lang string) (time.Time, bool) {
	t, _, ok := parseDatePrec(s, lang)
	return t, ok
}

// parseDatePrec is ParseDate that also says how precise the date is.
func parseDatePrec(s, lang string) (time.Time, blogharvest.Precision, bool) {
	s = textsim.Collapse(s)
	if s == "" || len(s) > 200 {
		return time.Time{}, "", false
	}
	if t, p, ok := parseMachineDatePrec(s); ok {
		return t, p, true
	}
	if t, p, ok := clockDate(s, lang); ok {
		return t, p, true
	}
	if len(s) > 64 {
		return time.Time{}, "", false
	}
	if t, ok := cjkMonthDate(s, lang); ok {
		return t, textPrecision(s), true // go-dateparser's answer, without its cost (cjkMonthDate)
	}
	if t, ok := goDateparser(s, lang); ok {
		return t, textPrecision(s), true
	}
	return time.Time{}, "", false
}

// goDateparser is go-dateparser's strict reading of s in lang's languages,
// dates without a zone taken in UTC.
func goDateparser(s, lang string) (time.Time, bool) {
	cfg := &dateparser.Configuration{
		Languages:       dateLanguages(lang),
		DefaultTimezone: time.UTC,
		StrictParsing:   true,
	}
	if dt, err := dateparser.Parse(cfg, s); err == nil && !dt.IsZero() {
		return dt.Time, true
	}
	return time.Time{}, false
}

// dateLanguages returns the languages go-dateparser tries for lang.
func dateLanguages(lang string) []string {
	b := langBase(lang)
	if b == "" || b == "en" {
		return []string{"en"}
	}
	return []string{b, "en"}
}

// voteAttr returns the attribute most training pages read the date from
// with rule r ("" for the text).
func voteAttr(pages []*trainPage, r *Rule) string {
	count := map[string]int{}
	for _, p := range pages {
		if n := r.firstIn(p.d.root, p.d.ix); n != nil {
			if j, ok := p.d.idx[n]; ok && p.date.score[j] > 0 {
				count[p.dateAttr[j]]++
			}
		}
	}
	best, max := "", 0
	for a, c := range count {
		if c > max || c == max && a < best {
			best, max = a, c
		}
	}
	return best
}

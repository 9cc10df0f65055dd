package marc

import "time"

// The leaders of DESIGN §6. Record length (00-04) and base address of data
// (12-16) stay zero: they are computed only for ISO 2709, and MARCXML keeps
// them as given. 05 n = new, 06 a = language material, 07 i = integrating
// resource (the blog) or a = monographic component part (an entry or a
// comment), 09 a = UCS/Unicode, 17 7 = minimal level, 18 n = non-ISBD.
const (
	LeaderBlog      = "00000nai a22000007n 4500"
	LeaderComponent = "00000naa a22000007n 4500"
)

// fixed008Blog returns the 008 of a blog, coded for a continuing resource
// (leader/07 i uses the Continuing Resources 008):
//
//	00-05 date entered (yymmdd) from entered
//	06    u = continuing resource, status unknown; 07-10 uuuu; 11-14 uuuu
//	15-17 "xx " no place, unknown
//	18 ' ' no determinable frequency; 19 x = completely irregular
//	21 w = updating web site; 22 ' '; 23 o = online
//	24-28 blanks, 29 0 = not a conference publication, 30-33 blanks
//	34 2 = integrated entry
//	35-37 MARC language code of lang, or und; 38 ' ' not modified; 39 d = other source
func fixed008Blog(entered time.Time, lang string) string {
	const material = " x w o" + "     " + "0" + "    " + "2" // 18-34
	return yymmdd(entered) + "uuuuuuuuu" + "xx " + material + LanguageCode(lang) + " d"
}

// fixed008Part returns the 008 of an entry or comment, coded as a component
// part of language material (leader/06-07 aa uses the Books 008):
//
//	00-05 date entered (yymmdd) from entered
//	06    s = single known date, 07-10 the year of created, 11-14 blanks;
//	      n = dates unknown with 07-10 uuuu when created is zero
//	15-17 "xx " no place, unknown
//	18-21 |||| illustrations not coded; 22 ' ' audience unknown; 23 o = online
//	24-27 blanks, 28 ' ', 29 0 not a conference, 30 0 not a festschrift,
//	31 0 no index, 32 ' ', 33 | literary form not coded, 34 | biography not coded
//	35-37 MARC language code of lang, or und; 38 ' ' not modified; 39 d = other source
func fixed008Part(entered, created time.Time, lang string) string {
	dates := "nuuuu    "
	if !created.IsZero() {
		dates = "s" + created.Format("2006") + "    "
	}
	const material = "||||" + " o" + "     " + "000" + " " + "||" // 18-34
	return yymmdd(entered) + dates + "xx " + material + LanguageCode(lang) + " d"
}

// yymmdd formats t for 008/00-05, or six blanks (which Lint reports) when t
// is zero.
func yymmdd(t time.Time) string {
	if t.IsZero() {
		return "      "
	}
	return t.UTC().Format("060102")
}

// firstTime returns the first non-zero time of ts, or the zero time.
func firstTime(ts ...time.Time) time.Time {
	for _, t := range ts {
		if !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}

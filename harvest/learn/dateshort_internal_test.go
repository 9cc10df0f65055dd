package learn

import (
	"fmt"
	"testing"
)

// TestShortNumbers checks that go-dateparser reads no date in the texts
// textIsDay spares it: numbers isShortNumber takes (days and months alone,
// years, four digits that could be a day and a month) and times of day
// isClockOnly takes, in English, French and German. (Every number of up
// to four digits was checked once in five languages, and every time of
// day isClockOnly takes in these three; this test keeps a sample.)
func TestShortNumbers(t *testing.T) {
	var nums []string
	for v := range 32 {
		nums = append(nums, fmt.Sprint(v), fmt.Sprintf("%02d", v))
	}
	for v := 100; v < 1000; v += 97 {
		nums = append(nums, fmt.Sprint(v))
	}
	for y := 2000; y <= 2030; y += 3 {
		nums = append(nums, fmt.Sprint(y))
	}
	nums = append(nums, "0000", "0101", "1231", "3112", "1302", "0913", "9999")
	var clocks []string
	for _, h := range []string{"0", "09", "12", "23"} {
		for _, m := range []string{"00", "59"} {
			for _, pre := range []string{"", "at "} {
				for _, suf := range []string{"", " AM", " PM", " am", " pm"} {
					clocks = append(clocks, pre+h+":"+m+suf)
				}
			}
		}
	}
	for _, s := range append(nums, clocks...) {
		if !isShortNumber(s) && !isClockOnly(s) {
			t.Fatalf("%q is neither a short number nor a clock", s)
		}
		for _, lang := range []string{"en", "fr", "de"} {
			if d, ok := ParseDate(s, lang); ok {
				t.Errorf("ParseDate(%q, %q) = %v: textIsDay must parse it", s, lang, d)
			}
		}
	}
	for _, s := range []string{"", "12345", "2013-", " 2013", "２０１３", "2e3"} {
		if isShortNumber(s) {
			t.Errorf("isShortNumber(%q) = true", s)
		}
	}
	for _, s := range []string{"24:00", "9:60", "9:5", "123:00", "at 9:52AM", "At 9:52 AM", "9:52 a.m.", "9:52 AM CET",
		"Sept 2, 9:52 AM", ":52", "9:", "at at 9:52", "9.52"} {
		if isClockOnly(s) {
			t.Errorf("isClockOnly(%q) = true", s)
		}
	}
}

// englishNumberLangs are the page languages isEnglishNumber answers for,
// each read by ParseDate in English only.
var englishNumberLangs = []string{"en", "en-GB", "en-US", ""}

// TestEnglishNumbers checks that ParseDate reads no date in a sample of
// the numbers isEnglishNumber takes, in the languages it takes them for
// (every one was checked once in English: TestShortNumbers' comment), and
// that it takes no other text.
func TestEnglishNumbers(t *testing.T) {
	nums := []string{"00000", "12026", "10101", "31122", "12312", "20130", "20231", "99999",
		"0.000", "1.020", "3.064", "6.006", "1.231", "3.112", "9.999", "0.0000", "6.0002", "1.2024", "3.1213", "9.9999"}
	for _, s := range nums {
		if !isEnglishNumber(s, "en") {
			t.Fatalf("isEnglishNumber(%q, en) = false", s)
		}
		for _, lang := range englishNumberLangs {
			if d, ok := ParseDate(s, lang); ok {
				t.Errorf("ParseDate(%q, %q) = %v: textIsDay must parse it", s, lang, d)
			}
		}
	}
	for _, s := range []string{"", "1234", "123456", "12.026", "3.06", "3.00002", "3,064", ".3064", "3064.", "3.0a4",
		"1 2026", "１２０２６", "+1202", "3..64", "a.064"} {
		if isEnglishNumber(s, "en") {
			t.Errorf("isEnglishNumber(%q, en) = true", s)
		}
	}
	for _, lang := range []string{"fr", "de", "ja", "zh-TW", "eng", "es-US"} {
		if isEnglishNumber("12026", lang) {
			t.Errorf("isEnglishNumber(_, %q) = true: only English is checked", lang)
		}
	}
}

// FuzzEnglishNumber checks that ParseDate reads no date in any of the
// numbers isEnglishNumber takes (five digits, or one digit, a point and
// three or four digits), in any language it takes them for.
func FuzzEnglishNumber(f *testing.F) {
	f.Add(uint32(12026), uint8(0), uint8(0))
	f.Add(uint32(3064), uint8(1), uint8(1))
	f.Add(uint32(60002), uint8(2), uint8(3))
	f.Fuzz(func(t *testing.T, n uint32, form, langIdx uint8) {
		var s string
		switch form % 3 {
		case 0:
			s = fmt.Sprintf("%05d", n%100000)
		case 1:
			s = fmt.Sprintf("%d.%03d", n/1000%10, n%1000)
		default:
			s = fmt.Sprintf("%d.%04d", n/10000%10, n%10000)
		}
		lang := englishNumberLangs[int(langIdx)%len(englishNumberLangs)]
		if !isEnglishNumber(s, lang) {
			t.Fatalf("isEnglishNumber(%q, %q) = false", s, lang)
		}
		if d, ok := ParseDate(s, lang); ok {
			t.Fatalf("ParseDate(%q, %q) = %v: isEnglishNumber must not spare it", s, lang, d)
		}
	})
}

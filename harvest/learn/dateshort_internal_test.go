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

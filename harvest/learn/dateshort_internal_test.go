package learn

import (
	"fmt"
	"testing"
)

// TestShortNumbers checks that go-dateparser reads no date in the numbers
// isShortNumber spares it: days and months alone, years, and four digits
// that could be a day and a month, in English, French and German. (Every
// number of up to four digits was checked once, in five languages; this
// test keeps a sample.)
func TestShortNumbers(t *testing.T) {
	var nums []string
	for v := range 100 {
		nums = append(nums, fmt.Sprint(v), fmt.Sprintf("%02d", v))
	}
	for v := 100; v < 1000; v += 37 {
		nums = append(nums, fmt.Sprint(v))
	}
	for y := 1990; y <= 2030; y++ {
		nums = append(nums, fmt.Sprint(y))
	}
	nums = append(nums, "0000", "0101", "1231", "3112", "1302", "0913", "9999")
	for _, s := range nums {
		if !isShortNumber(s) {
			t.Fatalf("isShortNumber(%q) = false", s)
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
}

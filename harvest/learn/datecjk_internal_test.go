package learn

import (
	"fmt"
	"testing"
	"time"
)

// cjkLangs are the page languages the CJK tests read dates in: those
// cjkMonthDate answers for and some it leaves to go-dateparser.
var cjkLangs = []string{"ja", "ja-JP", "zh", "zh-TW", "zh-Hans-CN", "ko", "en", ""}

// sameAsDateparser fails t when cjkMonthDate answers for s in lang and
// go-dateparser (the parse it spares) does not give the same time.
func sameAsDateparser(t *testing.T, s, lang string) bool {
	t.Helper()
	got, ok := cjkMonthDate(s, lang)
	if !ok {
		return false
	}
	want, wok := goDateparser(s, lang)
	if !wok || !sameTime(got, want) {
		t.Fatalf("cjkMonthDate(%q, %q) = %v; go-dateparser: %v, %v", s, lang, got, want, wok)
	}
	return true
}

// TestCJKMonthDate checks cjkMonthDate's answers against go-dateparser's:
// every month and day (with and without a leading zero, which
// go-dateparser refuses) of a common and of a leap year in Japanese, the ends of makeDate's years and the day
// after each month's last in every language of cjkLangs, and that texts of
// other forms are left to go-dateparser. It fails without the check of a
// valid day in cjkMonthDate (go-dateparser reads "2月 29, 2023" as 29
// February 2024) or without the one of leading zeros.
func TestCJKMonthDate(t *testing.T) {
	answered := 0
	for _, y := range []int{2022, 2024} {
		for m := 1; m <= 12; m++ {
			for d := 1; d <= 32; d++ {
				if sameAsDateparser(t, fmt.Sprintf("%d月 %d, %d", m, d, y), "ja") {
					answered++
				}
				if m < 10 || d < 10 {
					sameAsDateparser(t, fmt.Sprintf("%02d月 %02d, %d", m, d, y), "ja")
				}
			}
		}
	}
	if answered != 365+366 {
		t.Errorf("cjkMonthDate answered %d texts, want %d", answered, 365+366)
	}
	for _, lang := range cjkLangs {
		for _, y := range []int{1899, 1900, 1970, 2023, 2100, 2101} {
			for m := 1; m <= 12; m++ {
				last := time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
				for _, d := range []int{1, last, last + 1} {
					sameAsDateparser(t, fmt.Sprintf("%d月 %d, %d", m, d, y), lang)
				}
			}
		}
	}
	for _, s := range []string{"7月8, 2022", "7月 8,2022", "7月 8 2022", "７月 8, 2022", "7月 8, 22", "7月 8, 20222",
		"107月 8, 2022", "7月 108, 2022", "7月 8, 2022 12:00", " 7月 8, 2022", "7 月 8, 2022", "7月 8日, 2022", "月 8, 2022",
		"07月 8, 2022", "7月 08, 2022", "00月 1, 2022"} {
		if _, ok := cjkMonthDate(s, "ja"); ok {
			t.Errorf("cjkMonthDate(%q, ja) answered: the form is go-dateparser's to read", s)
		}
	}
	for _, lang := range []string{"ko", "en", "", "fr", "jaa", "zhx-CN"} {
		if _, ok := cjkMonthDate("7月 8, 2022", lang); ok {
			t.Errorf("cjkMonthDate(_, %q) answered: only ja and zh are read", lang)
		}
	}
}

// FuzzCJKMonthDate checks that whatever cjkMonthDate answers for is what
// go-dateparser answers: any month, day and year numbers, written with or
// without leading zeros, in any language of cjkLangs, and any text.
func FuzzCJKMonthDate(f *testing.F) {
	f.Add(uint8(7), uint8(8), uint16(2022), uint8(0), "")
	f.Add(uint8(2), uint8(29), uint16(2023), uint8(3), "")
	f.Add(uint8(12), uint8(31), uint16(2100), uint8(1), "")
	f.Add(uint8(1), uint8(1), uint16(1900), uint8(2), "1月 01, 1999")
	f.Fuzz(func(t *testing.T, m, d uint8, y uint16, langIdx uint8, s string) {
		lang := cjkLangs[int(langIdx)%len(cjkLangs)]
		for _, form := range []string{"%d月 %d, %d", "%02d月 %02d, %04d", "%d月 %02d, %d"} {
			sameAsDateparser(t, fmt.Sprintf(form, m, d, y), lang)
		}
		if len(s) <= 64 {
			sameAsDateparser(t, s, lang)
		}
	})
}

// sameTime reports whether a and b are the same instant, wall clock and
// zone (name, offset, and whether it is time.UTC), their Location pointers
// aside: go-dateparser makes a fixed zone per date.
func sameTime(a, b time.Time) bool {
	an, ao := a.Zone()
	bn, bo := b.Zone()
	return a.Equal(b) && an == bn && ao == bo && a.Location().String() == b.Location().String() &&
		(a.Location() == time.UTC) == (b.Location() == time.UTC) && a.Format(time.RFC3339Nano) == b.Format(time.RFC3339Nano)
}

package learn

import "github.com/blogharvest/blogharvest"

// DatePrecisionOf returns the precision ParseDate finds in s, for the
// external tests.
func DatePrecisionOf(s, lang string) blogharvest.Precision {
	_, p, _ := parseDatePrec(s, lang)
	return p
}

package learn

import (
	"fmt"
	"github.com/blogharvest/blogharvest"
	"runtime"
)

// Hooks for the external tests.

// FastExtract runs only the fast path of Extract.
func (r *Rules) FastExtract(p Page) (Extraction, bool) { return r.fastExtract(p) }

// SlowExtract runs only the whole-page path of Extract.
func (r *Rules) SlowExtract(p Page) (Extraction, error) { return r.slowExtract(p) }
func MayHoldComments(b []byte) bool                     { return mayHoldComments(asciiLower(b)) }

// OutlineMismatch compares a page's outline with html.Parse.
var OutlineMismatch = outlineMismatch

// OutlineWhy returns where the outline of page gives up ("" if not).
func OutlineWhy(page []byte) string {
	why := ""
	outlineDebug = func(o *outline) {
		_, _, line, _ := runtime.Caller(2)
		why = fmt.Sprintf("line %d at %d: %.80q", line, o.pos, o.page[o.pos:])
	}
	defer func() { outlineDebug = nil }()
	newOutline(page, asciiLower(page))
	return why
}

// FastWhy says why the fast path gives up on p ("" when it does not).
func (r *Rules) FastWhy(p Page) string {
	_, why := r.fastTry(p)
	return why
}

// DatePrecisionOf returns the precision ParseDate finds in s.
func DatePrecisionOf(s, lang string) blogharvest.Precision {
	_, p, _ := parseDatePrec(s, lang)
	return p
}

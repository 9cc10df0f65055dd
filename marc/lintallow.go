package marc

import "github.com/blogharvest/blogharvest/internal/lazyregexp"

// ToolWarning is a MARC::Lint warning that follows from the BlogForever
// crosswalk itself (DESIGN §6) rather than from a fault of a record: the
// pattern it matches and why it is allowed.
type ToolWarning struct {
	Pattern *lazyregexp.Regexp // compiled at its first use
	Reason  string
}

// ToolWarnings is the allow-list of MARC::Lint (Debian libmarc-lint-perl)
// warnings that records of this package may carry, one reason each. Tests
// run MARC::Lint over every golden and demo record and fail on any warning
// not matched here. MARC::Lint has no rules for the local tags the
// crosswalk uses (269, 781, 788, 789, 9XX) and checks nothing in them, so
// they need no entry.
var ToolWarnings = []ToolWarning{
	{lazyregexp.New(`^245: Must end with \. \(period\)\.$`),
		"leader/18 n: punctuation omitted; 245 holds the title as the blog gives it"},
	{lazyregexp.New(`^245: MARC21 allows \? or ! as final punctuation`),
		"leader/18 n: punctuation omitted; a title ending in ? or ! is kept as the blog gives it"},
	{lazyregexp.New(`^245: Subfield _b should be preceded by space-colon, space-semicolon, or space-equals sign\.$`),
		"leader/18 n: punctuation omitted; 245 $a and $b are title and subtitle as harvested"},
	{lazyregexp.New(`^260: Subfield _m is not allowed\.$`),
		"DESIGN §6 puts an entry's date_modified in 260 $m, a subfield MARC 21 does not define"},
}

// AllowedToolWarning returns the reason a MARC::Lint warning is allowed
// (see ToolWarnings), or false when it is not.
func AllowedToolWarning(text string) (reason string, ok bool) {
	for _, w := range ToolWarnings {
		if w.Pattern.MatchString(text) {
			return w.Reason, true
		}
	}
	return "", false
}

package harvest

import (
	"strconv"
	"strings"
)

// segments splits a URL path into its non-empty segments.
func segments(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
}

// isDigits reports whether s is digits only (and not empty).
func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// itoa is strconv.Itoa.
func itoa(n int) string { return strconv.Itoa(n) }

package comments

import (
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

// isDigits reports whether s is digits only.
func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// firstNonEmpty returns the first of vals that is not blank, or "".
func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// methodOf returns the method the extraction used for field, defaulting
// to MethodRule.
func methodOf(ex learn.Extraction, field string) blogharvest.Method {
	if m, ok := ex.Methods[field]; ok {
		return m
	}
	return blogharvest.MethodRule
}

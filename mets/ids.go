package mets

import (
	"fmt"
	"strings"
)

// ID joins parts with '-' and turns the result into an XML ID (an NCName
// that never starts with a digit): characters other than ASCII letters,
// digits, '-', '_' and '.' become '-', and "id-" is prepended when the
// result would not start with a letter or '_'.
func ID(parts ...string) string {
	var b strings.Builder
	for _, r := range strings.Join(parts, "-") {
		if isNameChar(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	s := b.String()
	if s == "" || !isNameStart(rune(s[0])) {
		s = "id-" + s
	}
	return s
}

// checkID reports why id cannot be an XML ID in this document, or nil.
func checkID(id string) error {
	if id == "" {
		return fmt.Errorf("empty ID")
	}
	if !isNameStart(rune(id[0])) {
		return fmt.Errorf("ID %q must start with a letter or '_'", id)
	}
	for _, r := range id {
		if !isNameChar(r) {
			return fmt.Errorf("ID %q holds %q", id, r)
		}
	}
	return nil
}

func isNameStart(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_' }

func isNameChar(r rune) bool {
	return isNameStart(r) || r >= '0' && r <= '9' || r == '-' || r == '.'
}

// idSet collects the IDs of a document and reports duplicates and bad ones.
type idSet struct {
	seen map[string]bool
	errs []error
}

// add records id, noting an error if it is malformed or already used.
func (s *idSet) add(what, id string) {
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	if err := checkID(id); err != nil {
		s.errs = append(s.errs, fmt.Errorf("%s: %w", what, err))
		return
	}
	if s.seen[id] {
		s.errs = append(s.errs, fmt.Errorf("%s: duplicate ID %q", what, id))
	}
	s.seen[id] = true
}

// ref notes an error if id is not among the IDs added so far; the
// referrer is what followed by name, joined only for the message (a
// concatenation per reference was most of Check's allocations).
func (s *idSet) ref(what, name, id string) {
	if !s.seen[id] {
		s.errs = append(s.errs, fmt.Errorf("%s%s: reference to unknown ID %q", what, name, id))
	}
}

package blogharvest

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// FieldError reports an invalid field of a record. Record names the record
// (such as `entry "https://…"`), Field the attribute name of DESIGN §6.
type FieldError struct {
	Record string
	Field  string
	Reason string
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.Record, e.Field, e.Reason)
}

// Validate reports every problem of b, joined; nil if b can be archived.
func (b *Blog) Validate() error {
	rec := fmt.Sprintf("blog %q", b.ID)
	var errs []error
	if err := ValidID(b.ID); err != nil {
		errs = append(errs, &FieldError{rec, "id", err.Error()})
	}
	errs = append(errs, checkURL(rec, "uri", b.URL, true))
	for i, a := range b.Aliases {
		errs = append(errs, checkURL(rec, fmt.Sprintf("aliases[%d]", i), a, true))
	}
	errs = append(errs, checkText(rec, "title", b.Title), checkText(rec, "subtitle", b.Subtitle))
	errs = append(errs, checkFiles(rec, b.Files)...)
	return errors.Join(errs...)
}

// Validate reports every problem of e and its comments, joined; nil if e can
// be archived.
func (e *Entry) Validate() error {
	rec := fmt.Sprintf("entry %q", e.URL)
	var errs []error
	if err := ValidID(e.BlogID); err != nil {
		errs = append(errs, &FieldError{rec, "blog_id", err.Error()})
	}
	if e.Kind != KindPost && e.Kind != KindPage {
		errs = append(errs, &FieldError{rec, "kind", fmt.Sprintf("%q is neither post nor page", e.Kind)})
	}
	errs = append(errs, checkURL(rec, "uri", e.URL, true))
	for i, a := range e.Aliases {
		errs = append(errs, checkURL(rec, fmt.Sprintf("aliases[%d]", i), a, true))
	}
	errs = append(errs, checkText(rec, "title", e.Title), checkText(rec, "author", e.Author),
		checkText(rec, "full_content", e.Content))
	if e.Content != "" && e.ContentFormat == "" {
		errs = append(errs, &FieldError{rec, "full_content_format", "missing for non-empty full_content"})
	}
	if e.NumReplies < 0 {
		errs = append(errs, &FieldError{rec, "num_of_replies", "negative"})
	}
	if e.Geo != nil {
		errs = append(errs, checkGeo(rec, *e.Geo))
	}
	errs = append(errs, checkComments(rec, e.Comments)...)
	errs = append(errs, checkFiles(rec, e.Files)...)
	return errors.Join(errs...)
}

// Validate reports every problem of c alone, joined. Parent links are checked
// by Entry.Validate, which sees the siblings.
func (c *Comment) Validate() error {
	rec := fmt.Sprintf("comment %q", c.ID)
	var errs []error
	if c.ID == "" {
		errs = append(errs, &FieldError{rec, "id", "empty"})
	}
	if c.URL != "" {
		errs = append(errs, checkURL(rec, "uri", c.URL, false))
	}
	errs = append(errs, checkText(rec, "author", c.Author), checkText(rec, "full_content", c.Content),
		checkText(rec, "subject", c.Subject))
	if c.ParentID == c.ID && c.ID != "" {
		errs = append(errs, &FieldError{rec, "is_child_of_comment", "a comment cannot answer itself"})
	}
	if c.Geo != nil {
		errs = append(errs, checkGeo(rec, *c.Geo))
	}
	return errors.Join(errs...)
}

// Validate reports every problem of f, joined.
func (f *File) Validate() error {
	rec := fmt.Sprintf("file %q", f.URL)
	var errs []error
	if f.Role == "" {
		errs = append(errs, &FieldError{rec, "role", "empty"})
	}
	if f.Body != nil && f.Path != "" {
		errs = append(errs, &FieldError{rec, "body", "both Body and Path are set"})
	}
	if f.Body != nil && int64(len(f.Body)) != f.Size {
		errs = append(errs, &FieldError{rec, "size", fmt.Sprintf("%d, but body has %d bytes", f.Size, len(f.Body))})
	}
	if f.SHA256 != "" && (len(f.SHA256) != 64 || strings.Trim(f.SHA256, "0123456789abcdef") != "") {
		errs = append(errs, &FieldError{rec, "sha256", "not 64 lowercase hex digits"})
	}
	return errors.Join(errs...)
}

func checkComments(rec string, cs []Comment) []error {
	var errs []error
	ids := make(map[string]bool, len(cs))
	for i := range cs {
		c := &cs[i]
		if ids[c.ID] {
			errs = append(errs, &FieldError{rec, fmt.Sprintf("comments[%d].id", i), fmt.Sprintf("duplicate %q", c.ID)})
		}
		ids[c.ID] = true
		errs = append(errs, c.Validate())
	}
	for i := range cs {
		if p := cs[i].ParentID; p != "" && !ids[p] {
			errs = append(errs, &FieldError{rec, fmt.Sprintf("comments[%d].is_child_of_comment", i),
				fmt.Sprintf("parent %q is not among the entry's comments", p)})
		}
	}
	if cyc := parentCycle(cs); cyc != "" {
		errs = append(errs, &FieldError{rec, "comments", "parent links form a cycle through " + cyc})
	}
	return errs
}

// parentCycle returns the id of a comment on a cycle of parent links, or "".
func parentCycle(cs []Comment) string {
	parent := make(map[string]string, len(cs))
	for _, c := range cs {
		parent[c.ID] = c.ParentID
	}
	for _, c := range cs {
		slow, fast := c.ID, c.ID
		for fast != "" && parent[fast] != "" {
			slow, fast = parent[slow], parent[parent[fast]]
			if slow == fast && fast != "" {
				return fast
			}
		}
	}
	return ""
}

func checkFiles(rec string, fs []File) []error {
	var errs []error
	for i := range fs {
		if err := fs[i].Validate(); err != nil {
			errs = append(errs, fmt.Errorf("%s: files[%d]: %w", rec, i, err))
		}
	}
	return errs
}

func checkURL(rec, field, raw string, required bool) error {
	if raw == "" {
		if required {
			return &FieldError{rec, field, "empty"}
		}
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return &FieldError{rec, field, err.Error()}
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return &FieldError{rec, field, fmt.Sprintf("%q is not an http(s) URL", raw)}
	}
	if u.Host == "" {
		return &FieldError{rec, field, fmt.Sprintf("%q has no host", raw)}
	}
	return nil
}

func checkText(rec, field, s string) error {
	if !utf8.ValidString(s) {
		return &FieldError{rec, field, "not valid UTF-8"}
	}
	for _, r := range s {
		if !IsXMLChar(r) {
			return &FieldError{rec, field, fmt.Sprintf("holds control character %U, not allowed in XML", r)}
		}
	}
	return nil
}

func checkGeo(rec string, g Geo) error {
	if g.Latitude < -90 || g.Latitude > 90 || g.Longitude < -180 || g.Longitude > 180 {
		return &FieldError{rec, "geo", fmt.Sprintf("(%g, %g) is off the globe", g.Latitude, g.Longitude)}
	}
	return nil
}

package blogharvest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// MaxIDLen is the longest blog id ValidID accepts.
const MaxIDLen = 64

// ValidID reports why id is not a blog id every backend can use, or nil.
// A valid id is 1–64 characters of lowercase ASCII letters, digits, '-',
// '_' and '.', starting with a letter or digit, with no '.' at its end or
// beside another: it names the blog's folder in the archive and its keys in
// a cluster's NATS key-value buckets ("blog.<id>", "run.<id>"), whose
// '.'-separated tokens must not be empty.
func ValidID(id string) error {
	switch {
	case id == "":
		return errors.New("empty id")
	case len(id) > MaxIDLen:
		return fmt.Errorf("id %q is longer than %d characters", id, MaxIDLen)
	case !isLowerAlnum(rune(id[0])):
		return fmt.Errorf("id %q must start with a lowercase letter or digit", id)
	case strings.HasSuffix(id, "."):
		return fmt.Errorf("id %q must not end with '.' (a cluster's NATS keys are blog.<id>: no empty token)", id)
	case strings.Contains(id, ".."):
		return fmt.Errorf("id %q must not hold \"..\" (a cluster's NATS keys are blog.<id>: no empty token)", id)
	}
	for _, r := range id {
		if !isLowerAlnum(r) && r != '-' && r != '_' && r != '.' {
			return fmt.Errorf("id %q holds %q: only a-z, 0-9, '-', '_' and '.' are allowed", id, r)
		}
	}
	return nil
}

func isLowerAlnum(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }

// MaxSlugLen is the longest slug Slug returns.
const MaxSlugLen = 60

// Slug turns any text (a title, a URL path) into at most 60 characters of
// [a-z0-9-]: accents are dropped, other characters become '-', runs of '-'
// collapse and none leads or trails. It may return "".
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFKD.String(strings.ToLower(s)) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
		if b.Len() >= MaxSlugLen {
			break
		}
	}
	out := b.String()
	if len(out) > MaxSlugLen {
		out = out[:MaxSlugLen]
	}
	return strings.Trim(out, "-")
}

// URLHash returns the first 8 hex digits of sha256(u).
func URLHash(u string) string {
	sum := sha256.Sum256([]byte(u))
	return hex.EncodeToString(sum[:4])
}

// EntryKey names an entry's folder in the archive: a slug of the last
// meaningful segment of its canonical URL (or of title when the URL has
// none), a '-', and URLHash(canonicalURL). The result matches
// [a-z0-9-]{1,69} and never depends on anything but its arguments.
func EntryKey(canonicalURL, title string) string {
	slug := ""
	if u, err := url.Parse(canonicalURL); err == nil {
		segs := strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' })
		for i := len(segs) - 1; i >= 0 && slug == ""; i-- {
			seg, _ := url.PathUnescape(segs[i])
			seg = strings.TrimSuffix(strings.TrimSuffix(seg, ".html"), ".htm")
			if !isAllDigits(seg) || i == 0 {
				slug = Slug(seg)
			}
		}
		if slug == "" && u.RawQuery != "" {
			slug = Slug(u.RawQuery)
		}
	}
	if slug == "" {
		slug = Slug(title)
	}
	if slug == "" {
		slug = "entry"
	}
	return slug + "-" + URLHash(canonicalURL)
}

func isAllDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// Sum fills f.SHA256 and f.Size from f.Body. It does nothing when Body is nil.
func (f *File) Sum() {
	if f.Body == nil {
		return
	}
	sum := sha256.Sum256(f.Body)
	f.SHA256 = hex.EncodeToString(sum[:])
	f.Size = int64(len(f.Body))
}

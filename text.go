package blogharvest

import (
	"strings"
	"unicode/utf8"
)

// IsXMLChar reports whether r may appear in XML 1.0 text: tab, newline,
// carriage return and every character from U+0020 on, except the
// surrogates and U+FFFE and U+FFFF. C1 controls (U+0080–U+009F) are legal.
func IsXMLChar(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return true
	case r < 0x20, r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF, r > utf8.MaxRune:
		return false
	}
	return true
}

// cp1252 maps the bytes 0x80–0x9F to the characters windows-1252 gives
// them; the five bytes it leaves undefined map to the C1 control of the
// same value, as browsers do. Bytes 0xA0–0xFF are Latin-1.
var cp1252 = [32]rune{
	'€', 0x81, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', 0x8D, 'Ž', 0x8F,
	0x90, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 0x9D, 'ž', 'Ÿ',
}

// Windows1252 returns the character windows-1252 gives byte c.
func Windows1252(c byte) rune {
	if c >= 0x80 && c < 0xA0 {
		return cp1252[c-0x80]
	}
	return rune(c)
}

// RepairUTF8 returns b with every byte that is not part of a valid UTF-8
// sequence read as windows-1252 (the usual cause: Latin-1 text pasted into
// a UTF-8 page), and the number of bytes so repaired. Valid sequences are
// kept as they are; b itself is returned when nothing needs repair.
func RepairUTF8(b []byte) ([]byte, int) {
	if utf8.Valid(b) {
		return b, 0
	}
	out := make([]byte, 0, len(b)+16)
	n := 0
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			out = utf8.AppendRune(out, Windows1252(b[i]))
			n++
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out, n
}

// XMLText returns s as valid UTF-8 (invalid bytes read as windows-1252)
// without the characters XML 1.0 does not allow, and whether anything was
// changed.
func XMLText(s string) (string, bool) {
	if isXMLText(s) {
		return s, false
	}
	fixed, _ := RepairUTF8([]byte(s))
	var b strings.Builder
	b.Grow(len(fixed))
	for _, r := range string(fixed) {
		if IsXMLChar(r) {
			b.WriteRune(r)
		}
	}
	return b.String(), true
}

func isXMLText(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || !IsXMLChar(r) {
			return false
		}
		i += size
	}
	return true
}

// textCleaner applies XMLText to fields and remembers the names of those it
// changed.
type textCleaner struct{ changed []string }

func (c *textCleaner) str(field string, p *string) {
	if s, ok := XMLText(*p); ok {
		*p = s
		c.note(field)
	}
}

func (c *textCleaner) list(field string, l []string) {
	for i := range l {
		c.str(field, &l[i])
	}
}

func (c *textCleaner) note(field string) {
	for _, f := range c.changed {
		if f == field {
			return
		}
	}
	c.changed = append(c.changed, field)
}

// CleanText makes every text field of e (and of its comments and files)
// fit for XML with XMLText, and returns the names of the fields it changed
// (comment fields as "comments.author" and so on), in order, each once. The
// captured bytes of e.Files are never touched.
func (e *Entry) CleanText() []string {
	var c textCleaner
	for _, f := range []struct {
		name string
		p    *string
	}{
		{"blog_id", &e.BlogID}, {"uri", &e.URL}, {"title", &e.Title}, {"subtitle", &e.Subtitle},
		{"full_content", &e.Content}, {"full_content_format", &e.ContentFormat}, {"author", &e.Author},
		{"alt_identifier", &e.AltIdentifier}, {"version", &e.Version}, {"response_code", &e.ResponseCode},
		{"access_restriction", &e.AccessRestriction}, {"is_child_of_blog", &e.ChildOf},
	} {
		c.str(f.name, f.p)
	}
	c.list("aliases", e.Aliases)
	c.list("categories", e.Categories)
	c.list("tags", e.Tags)
	c.list("problems", e.Problems)
	for i := range e.Comments {
		e.Comments[i].cleanText(&c)
	}
	cleanFiles(&c, e.Files)
	return c.changed
}

func (cm *Comment) cleanText(c *textCleaner) {
	for _, f := range []struct {
		name string
		p    *string
	}{
		{"comments.id", &cm.ID}, {"comments.uri", &cm.URL}, {"comments.subject", &cm.Subject},
		{"comments.author", &cm.Author}, {"comments.full_content", &cm.Content},
		{"comments.full_content_format", &cm.ContentFormat}, {"comments.status", &cm.Status},
		{"comments.addressed_to_uri", &cm.AddressedTo}, {"comments.is_child_of_post", &cm.PostURL},
		{"comments.parent_id", &cm.ParentID}, {"comments.is_child_of_comment", &cm.ParentURL},
	} {
		c.str(f.name, f.p)
	}
}

// CleanText makes every text field of b (and the URLs and media types of
// its files) fit for XML with XMLText, and returns the names of the fields
// it changed, in order, each once. Captured bytes are never touched.
func (b *Blog) CleanText() []string {
	var c textCleaner
	for _, f := range []struct {
		name string
		p    *string
	}{
		{"id", &b.ID}, {"uri", &b.URL}, {"title", &b.Title}, {"subtitle", &b.Subtitle}, {"language", &b.Language},
		{"encoding", &b.Encoding}, {"sitemap_uri", &b.SitemapURL}, {"feed_uri", &b.FeedURL},
		{"platform", &b.Platform}, {"platform_version", &b.PlatformVersion}, {"webmaster", &b.Webmaster},
		{"hosting_ip", &b.HostingIP}, {"location_city", &b.LocationCity}, {"location_country", &b.LocationCountry},
		{"post_frequency", &b.PostFrequency}, {"update_frequency", &b.UpdateFrequency},
		{"copyright", &b.Copyright}, {"ownership_rights", &b.OwnershipRights},
		{"distribution_rights", &b.DistributionRights}, {"access_rights", &b.AccessRights}, {"license", &b.License},
	} {
		c.str(f.name, f.p)
	}
	c.list("aliases", b.Aliases)
	cleanFiles(&c, b.Files)
	return c.changed
}

func cleanFiles(c *textCleaner, fs []File) {
	for i := range fs {
		c.str("files.url", &fs[i].URL)
		c.str("files.media_type", &fs[i].MediaType)
	}
}

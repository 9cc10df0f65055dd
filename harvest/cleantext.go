package harvest

import (
	"strings"

	"github.com/blogharvest/blogharvest"
)

// cleanEntry removes the characters XML 1.0 does not allow from the text
// of e (its captured bytes are kept as served) and records that once, as a
// problem of the entry, so the AIP says what was changed.
func (c *crawl) cleanEntry(e *blogharvest.Entry) {
	fields := e.CleanText()
	if len(fields) == 0 {
		return
	}
	msg := "text: characters not allowed in XML removed from " + strings.Join(fields, ", ")
	e.Problems = append(e.Problems, msg)
	c.log.Warn(msg, "url", e.URL)
}

// cleanBlog removes the characters XML 1.0 does not allow from the text of
// b and records that as a warning of the run.
func (c *crawl) cleanBlog(b *blogharvest.Blog) {
	if fields := b.CleanText(); len(fields) > 0 {
		c.warn("blog %s: characters not allowed in XML removed from %s", b.URL, strings.Join(fields, ", "))
	}
}

package harvest

import (
	"fmt"
	"strings"

	"github.com/blogharvest/blogharvest"
)

// cleanEntry removes user-info from the URLs of e and the characters XML
// 1.0 does not allow from its text (its captured bytes are kept as served),
// and breaks the reply cycles of its comments (one parent link each,
// Entry.BreakParentCycles: the post and every comment are kept), and
// records each once, as a problem of the entry, so the AIP says what was
// changed; a broken link is a comment shortfall in the ledger too.
func (w *pageWorker) cleanEntry(e *blogharvest.Entry) {
	if broken := e.BreakParentCycles(); len(broken) > 0 {
		e.Problems = append(e.Problems, broken...)
		note := broken[0]
		if len(broken) > 1 {
			note = fmt.Sprintf("comments: %d reply cycles, one parent link of each removed (first: %s)", len(broken), broken[0])
		}
		w.ledger.addShortfall(e.URL, note)
		w.log.Warn("reply cycle in the comments: parent links removed", "url", e.URL, "links", len(broken), "first", broken[0])
	}
	if n := e.StripUserinfo(); n > 0 {
		e.Problems = append(e.Problems, fmt.Sprintf("urls: user-info (user:password@) removed from %d URLs", n))
	}
	fields := e.CleanText()
	if len(fields) == 0 {
		return
	}
	msg := "text: characters not allowed in XML removed from " + strings.Join(fields, ", ")
	e.Problems = append(e.Problems, msg)
	w.log.Warn(msg, "url", e.URL)
}

// cleanBlog removes user-info from the URLs of b and the characters XML
// 1.0 does not allow from its text, and records each as a warning of the
// run.
func (c *crawl) cleanBlog(b *blogharvest.Blog) {
	if n := b.StripUserinfo(); n > 0 {
		c.stats.warnf("blog %s: user-info (user:password@) removed from %d URLs", b.URL, n)
	}
	if fields := b.CleanText(); len(fields) > 0 {
		c.stats.warnf("blog %s: characters not allowed in XML removed from %s", b.URL, strings.Join(fields, ", "))
	}
}

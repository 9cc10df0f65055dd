package harvest

import (
	"context"
	"fmt"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/discover"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// An update reuses the rules of the last crawl (reuseRules). A redesign
// can break them while the feed and the URLs stay: rulesStillFit tries
// them on the page of the newest feed item the update reads anyway (one
// published, edited or changed since the last crawl: no request is
// added), against what the feed item says, with the learner's own
// measures (the article rule's score, TokenF1 of the title and, for a
// full-text item, of the text). When they no longer fit, learnRules
// learns them again from the feed's items before anything is archived,
// and the run's warnings say so. doc/lifecycle.md says why.

// rulesStillFit tries the reused rules on the page of the newest changed
// feed item. It returns that item's job, fetched (nil when no item
// changed or its page could not be read), and why the rules no longer
// fit ("" when they fit, or nothing could be judged).
func (c *crawl) rulesStillFit(ctx context.Context) (*pageJob, string) {
	if c.emit == nil || c.learned.rules == nil {
		return nil, ""
	}
	for _, u := range c.disc.feedURLs {
		it := c.claims.peek(u.String())
		if it == nil {
			continue
		}
		changed, _ := c.changes.signatureChanged(it)
		if !it.Published.After(c.changes.since) && !it.Updated.After(c.changes.since) && !changed {
			continue
		}
		j := &pageJob{t: task{url: u.String(), kind: "post"}, item: c.claims.take(u.String()), fromFeed: true}
		c.prefetch(ctx, j)
		if j.page == nil || j.page.stub != "" {
			return j, ""
		}
		ex, err := c.learned.rules.Extract(c.w.read.learnPage(j.page))
		return j, misfit(c.learned.rules, ex, err, it.Title, discover.ItemText(it), c.site.full && c.site.texts.full(it))
	}
	return nil, ""
}

// misfit says why the extraction ex (err) by rules of a page whose feed
// item gives title and text (whole when full) shows the rules no longer
// fit; "" when they fit.
func misfit(rules *learn.Rules, ex learn.Extraction, err error, title, text string, full bool) string {
	least := rules.MinConfidence
	if least == 0 {
		least = learn.DefaultMinConfidence
	}
	var why []string
	switch {
	case err != nil:
		why = append(why, "no article found: "+err.Error())
	case rules.Article != nil && rules.Article.Trusted && ex.Score < least:
		why = append(why, fmt.Sprintf("the article rule scores %.2f (under %.2f)", ex.Score, least))
	}
	if rules.Title != nil && rules.Title.Trusted && ex.Methods["title"] != blogharvest.MethodRule {
		why = append(why, "the title rule finds nothing")
	}
	if s := textsim.TokenF1(ex.Title, textsim.HTMLText(title)); title != "" && s < least {
		why = append(why, fmt.Sprintf("the title extracted is unlike the feed's (%.2f)", s))
	}
	if s := textsim.TokenF1(ex.ContentText, textsim.HTMLText(text)); full && err == nil && s < least {
		why = append(why, fmt.Sprintf("the text extracted is unlike the feed's (%.2f)", s))
	}
	return strings.Join(why, "; ")
}

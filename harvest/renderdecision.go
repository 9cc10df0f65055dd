package harvest

import (
	"fmt"
	"sync"
	"time"
)

// This file is the render decision's account: why each page was rendered
// (a named reason), which renders were refused, and the crawl's render
// budget. renderReason (browser.go) names the reason; allow decides.

// Render reasons: the keys of Result.Renders and of the log's
// msg=render reason=… (the detail follows the key).
const (
	ReasonAlways        = "always"         // Options.Render is RenderAlways
	ReasonNoArticle     = "no-article"     // the static page holds no article
	ReasonShortArticle  = "short-article"  // it holds less than half the feed's article
	ReasonLowScore      = "low-score"      // the trusted article rule scores low
	ReasonCommentSystem = "comment-system" // a JavaScript comment system of the platform table
	ReasonFeedComments  = "feed-comments"  // the comment feed has comments the static page lacks
	ReasonFeedCount     = "feed-count"     // the feed counts more comments than the page and comment feed hold
	ReasonStatedCount   = "stated-count"   // the blog states more comments than the page and every feed hold (harvest/comments: stated.go)
	ReasonCommentSignal = "comment-signal" // signs of a comment system in no table (commentsignals.go)
	ReasonAPIWidget     = "api-widget"     // a script widget drawn from an API into an empty element (widgetsignal.go)
	ReasonThreadChanged = "thread-changed" // UpdateCrawl: the API the post's comments were drawn from changed (comments/threads.go)
	ReasonScriptWidget  = "script-widget"  // a script creates an element and mounts a widget drawn from an API into it (scriptwidget.go)
	ReasonKnownWidget   = "known-widget"   // the page loads a script an earlier render of the blog drew comments with (scriptwidget.go)
)

// Why a page a reason asked to render was not: the keys of
// Result.NotRendered.
const (
	SkipBudget       = "budget"        // Options.MaxRenders renders were made
	SkipAddedNothing = "added-nothing" // the reason's first renders added nothing
)

// DefaultRenderTimeout is Options.RenderTimeout when zero: a page of a
// blog on a loaded machine draws its comments well within it.
const DefaultRenderTimeout = 30 * time.Second

// DefaultMaxRenders is Options.MaxRenders when zero: enough for every
// post of a blog of a few hundred posts with a scripted comment system,
// and a bound on a crawl's browser time on a larger one.
const DefaultMaxRenders = 500

// uselessAfter is how many renders of a guessed reason (a sign, not a
// count the feed gives) that added nothing stop further renders for it:
// a closed comment area or an analytics snippet on every page does not
// cost a render per page.
const uselessAfter = 6

// renderWhy is why a page is to be rendered: a reason key and what was
// seen.
type renderWhy struct {
	key, detail string
}

// String is the reason as logged and noted: "key: detail".
func (r renderWhy) String() string {
	if r.detail == "" {
		return r.key
	}
	return r.key + ": " + r.detail
}

// guessed reports whether the reason rests on a guess, not on the
// feed's count or a missing article: a sign in the page, or a comment
// feed holding more than the static page (whose comments the entry gets
// from the feed anyway: the render pays only when the page shows more).
// Renders for a guessed reason stop once they prove useless.
func (r renderWhy) guessed() bool {
	switch r.key {
	case ReasonCommentSignal, ReasonAPIWidget, ReasonScriptWidget, ReasonKnownWidget, ReasonFeedComments, ReasonThreadChanged:
		return true
	}
	return false
}

// forComments reports whether the page is rendered for its comments
// only: its static article is not in question.
func (r renderWhy) forComments() bool {
	switch r.key {
	case ReasonCommentSystem, ReasonFeedComments, ReasonFeedCount, ReasonCommentSignal, ReasonAPIWidget, ReasonScriptWidget, ReasonKnownWidget, ReasonThreadChanged:
		return true
	}
	return false
}

// renderAccount counts the crawl's renders by reason and enforces its
// budget. Safe for concurrent use.
type renderAccount struct {
	mu      sync.Mutex
	max     int
	made    int
	renders map[string]int // made, by reason
	added   map[string]int // renders that added comments or text, by reason
	skipped map[string]int // refused, by SkipBudget or SkipAddedNothing
}

// newRenderAccount returns an account allowing max renders.
func newRenderAccount(max int) *renderAccount {
	return &renderAccount{max: max, renders: map[string]int{}, added: map[string]int{}, skipped: map[string]int{}}
}

// allow reports whether a page may be rendered for why, counting it
// made if so; otherwise it returns the skip key and a note for the
// entry.
func (a *renderAccount) allow(why renderWhy) (ok bool, skip, note string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case a.made >= a.max:
		a.skipped[SkipBudget]++
		return false, SkipBudget, fmt.Sprintf("not rendered (%s): the crawl's render budget of %d pages is spent", why, a.max)
	case why.guessed() && a.renders[why.key] >= uselessAfter && a.added[why.key] == 0:
		a.skipped[SkipAddedNothing]++
		return false, SkipAddedNothing, fmt.Sprintf("not rendered (%s): the first %d renders for %s added nothing", why, a.renders[why.key], why.key)
	}
	a.made++
	a.renders[why.key]++
	return true, "", ""
}

// result records that a render for why added comments or text.
func (a *renderAccount) result(why renderWhy, added bool) {
	if !added {
		return
	}
	a.mu.Lock()
	a.added[why.key]++
	a.mu.Unlock()
}

// fill copies the counts into res.
func (a *renderAccount) fill(res *Result) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.renders) > 0 {
		res.Renders = make(map[string]int, len(a.renders))
		for k, n := range a.renders {
			res.Renders[k] = n
		}
	}
	if len(a.skipped) > 0 {
		res.NotRendered = make(map[string]int, len(a.skipped))
		for k, n := range a.skipped {
			res.NotRendered[k] = n
		}
	}
}

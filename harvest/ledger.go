package harvest

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/blogharvest/blogharvest/harvest/discover"
)

// Fate is what became of one URL a crawl met.
type Fate string

// Fates of the crawl ledger. Every URL a crawl meets (a feed item, a
// sitemap <loc>, a link on a fetched page, a redirect's target, a stub's
// target) ends with exactly one.
const (
	FateEntry      Fate = "entry"        // archived as an entry; detail: the entry key
	FateListing    Fate = "listing"      // fetched, a listing or navigation page: its links were followed
	FateRedirect   Fate = "redirect"     // answered by an HTTP redirect; detail: the final URL
	FateStub       Fate = "stub"         // a redirect stub page (meta refresh, JavaScript location, thin page with rel=canonical); detail: the target
	FateDuplicate  Fate = "duplicate"    // the same page as another URL; detail: that URL
	FateOutOfScope Fate = "out-of-scope" // outside the blog's scope (another site, an excluded path)
	FateRobots     Fate = "robots"       // disallowed by robots.txt
	FateOverBudget Fate = "over-budget"  // not fetched (max_pages reached, the crawl stopped) or cut short by max_duration
	FateFailed     Fate = "failed"       // could not be fetched or processed; detail: the error
	FateSkipped    Fate = "skipped"      // not fetched or not archived on purpose; detail: why
	// FateWithdrawn is an archived post that answered 404 or 410 on two
	// runs: withdrawn from the live blog; detail: the answers and their
	// dates. Its archived versions are kept as they are (gone.go).
	FateWithdrawn Fate = "withdrawn"
	// FateRestored is a post recorded withdrawn that answers again;
	// detail: since when it was withdrawn and when it came back.
	FateRestored Fate = "restored"
)

// fateRank orders fates for the ledger's precedence: a later fate
// replaces an earlier one only when it ranks higher. Entry ranks highest
// (a URL archived is archived, whatever else was said of it), then the
// fates that name another URL (stub, redirect, duplicate), then listing,
// then the fates of URLs that were not (or not usefully) fetched, and
// over-budget last: it is given at the end to what is still waiting.
var fateRank = map[Fate]int{
	FateOverBudget: 1,
	FateSkipped:    2, FateFailed: 2, FateRobots: 2, FateOutOfScope: 2,
	FateListing:   3,
	FateDuplicate: 4, FateRedirect: 4, FateStub: 4,
	FateEntry: 5, FateWithdrawn: 5, FateRestored: 5,
}

// LedgerRow is one URL of the crawl ledger.
type LedgerRow struct {
	URL    string // canonical
	Fate   Fate   // empty when the crawl gave it none (a bug)
	Detail string // entry key, target URL, error or reason
	Via    string // how the crawl met the URL first: feed, sitemap, link, home, redirect, canonical, stub, comments
	// Comments, for an entry whose archived comments fall short of the
	// number the blog states, says so: "stated 4 (JSON-LD commentCount),
	// archived 2: " and the sources tried; "" otherwise.
	Comments string
}

// ledger gives every URL a crawl meets exactly one fate. Safe for
// concurrent use; a nil ledger records nothing.
type ledger struct {
	mu   sync.Mutex
	rows map[string]*LedgerRow
}

func newLedger() *ledger { return &ledger{rows: map[string]*LedgerRow{}} }

// met records that the crawl met u via a source; a URL met before keeps
// its first source.
func (l *ledger) met(u, via string) {
	if l == nil || u == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.rows[u]; !ok {
		l.rows[u] = &LedgerRow{URL: u, Via: via}
	}
}

// set gives u a fate, unless it holds a fate of higher or equal rank
// already (first fate wins among equals). A URL not met before is met via
// via.
func (l *ledger) set(u string, f Fate, detail, via string) {
	if l == nil || u == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.row(u, via)
	if r.Fate != "" && fateRank[f] <= fateRank[r.Fate] {
		return
	}
	r.Fate, r.Detail = f, oneLine(detail)
}

// known reports whether u has a row.
func (l *ledger) known(u string) bool {
	if l == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.rows[u]
	return ok
}

// size returns the number of rows.
func (l *ledger) size() int {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.rows)
}

// force gives u a fate whatever it held (what a crawl's bounds left out,
// told at the end on the source's row).
func (l *ledger) force(u string, f Fate, detail, via string) {
	if l == nil || u == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.row(u, via)
	r.Fate, r.Detail = f, oneLine(detail)
}

// clear takes back the fate of u (a decision revised).
func (l *ledger) clear(u string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if r, ok := l.rows[u]; ok {
		r.Fate, r.Detail = "", ""
	}
}

// shortfall notes that the entry at u has fewer comments than the blog
// states (LedgerRow.Comments).
func (l *ledger) shortfall(u, note string) {
	if l == nil || u == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.row(u, "").Comments = oneLine(note)
}

// addShortfall adds note to the comment shortfall of the entry at u,
// after what is there already.
func (l *ledger) addShortfall(u, note string) {
	if l == nil || u == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.row(u, "")
	if r.Comments != "" && !strings.Contains(r.Comments, note) {
		note = r.Comments + "; " + note
	}
	r.Comments = oneLine(note)
}

// row returns the row of u, met via via if it is new; l.mu is held.
func (l *ledger) row(u, via string) *LedgerRow {
	r, ok := l.rows[u]
	if !ok {
		r = &LedgerRow{URL: u, Via: via}
		l.rows[u] = r
	}
	return r
}

// Shortfalls returns the rows of entries whose archived comments fall
// short of what the blog states (LedgerRow.Comments set).
func Shortfalls(rows []LedgerRow) []LedgerRow {
	var out []LedgerRow
	for _, r := range rows {
		if r.Comments != "" {
			out = append(out, r)
		}
	}
	return out
}

// fate returns the fate of u, "" when it has none or was not met.
func (l *ledger) fate(u string) Fate {
	if l == nil {
		return ""
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if r, ok := l.rows[u]; ok {
		return r.Fate
	}
	return ""
}

// rowsSorted returns the rows, sorted by URL.
func (l *ledger) rowsSorted() []LedgerRow {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]LedgerRow, 0, len(l.rows))
	for _, r := range l.rows {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b LedgerRow) int { return strings.Compare(a.URL, b.URL) })
	return out
}

// settleLedger ends the ledger of a crawl that ended with err (nil when it
// ran to its end): what the frontier still holds is over budget, and a URL
// left without a fate, which is a bug, is warned about.
func (c *crawl) settleLedger(err error) []LedgerRow {
	detail := fmt.Sprintf("max_pages %d reached", c.o.MaxPages)
	if err != nil {
		detail = fmt.Sprintf("crawl stopped: %v", err)
	}
	for {
		t, ok := c.front.pop()
		if !ok {
			break
		}
		c.ledger.set(t.url, FateOverBudget, detail, "")
	}
	c.settleLeftOut()
	rows := c.ledger.rowsSorted()
	if n := FateCounts(rows)["unaccounted"]; n > 0 {
		c.stats.warnf("crawl ledger: %d URLs met have no fate (a bug; they are listed as unaccounted)", n)
	}
	return rows
}

// LedgerHeader is the first line of a ledger file.
const LedgerHeader = "url\tfate\tdetail\tvia\tcomments"

// LedgerTSV renders ledger rows as the ledger file (data/logs/ledger.tsv
// of the Blog AIP): a header line (LedgerHeader), then one line per URL,
// sorted by URL, with the tab-separated columns url, fate, detail, via and
// comments (a comment shortfall, LedgerRow.Comments; mostly empty).
// A URL the crawl gave no fate is written with the fate "unaccounted".
// Tabs and line breaks inside a field are replaced by spaces.
func LedgerTSV(rows []LedgerRow) []byte {
	var b bytes.Buffer
	b.WriteString(LedgerHeader + "\n")
	for _, r := range rows {
		f := string(r.Fate)
		if f == "" {
			f = "unaccounted"
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\n", oneLine(r.URL), f, oneLine(r.Detail), oneLine(r.Via), oneLine(r.Comments))
	}
	return b.Bytes()
}

// FateCounts counts ledger rows per fate ("unaccounted" for rows without).
func FateCounts(rows []LedgerRow) map[string]int {
	m := map[string]int{}
	for _, r := range rows {
		f := string(r.Fate)
		if f == "" {
			f = "unaccounted"
		}
		m[f]++
	}
	return m
}

// fateOrder is the order of FateSummary.
var fateOrder = []Fate{FateEntry, FateListing, FateRedirect, FateStub, FateDuplicate, FateOutOfScope,
	FateRobots, FateOverBudget, FateFailed, FateSkipped, "unaccounted"}

// FateSummary sums ledger rows up per fate for a log line, e.g.
// "entry=41 listing=12 stub=2 out-of-scope=30"; fates without rows are
// left out.
func FateSummary(rows []LedgerRow) string {
	n := FateCounts(rows)
	var parts []string
	for _, f := range fateOrder {
		if n[string(f)] > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", f, n[string(f)]))
		}
	}
	return strings.Join(parts, " ")
}

// oneLine replaces tabs and line breaks by spaces and bounds the length.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
	if len(s) > 500 {
		s = strings.ToValidUTF8(s[:500], "")
	}
	return s
}

// apply writes the ledger lines a stage decided on (harvest/discover's
// LedgerLine), in order: a line without a fate notes its URL met, a
// forced one overrides the URL's fate (force), any other is set (set).
func (l *ledger) apply(lines []discover.LedgerLine) {
	for _, ln := range lines {
		switch {
		case ln.Fate == "":
			l.met(ln.URL, ln.Via)
		case ln.Force:
			l.force(ln.URL, Fate(ln.Fate), ln.Detail, ln.Via)
		default:
			l.set(ln.URL, Fate(ln.Fate), ln.Detail, ln.Via)
		}
	}
}

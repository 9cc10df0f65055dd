package discover

// LeftOut counts what one source (a sitemap, a page's links, a sitemap
// index) named that the crawl's bounds kept out of it.
type LeftOut struct {
	Source string // the sitemap's or the page's URL
	First  string // the first URL left out
	N      int
	What   string // LeftSitemapURLs, LeftChildren, LeftLinks or LeftUnread
	Why    string // the bound, with its value
}

// What a LeftOut counts.
const (
	LeftSitemapURLs = "URLs it lists"
	LeftChildren    = "sitemaps it indexes"
	LeftLinks       = "URLs it links to"
	LeftUnread      = "sitemap not read"
)

// LeftOuts are the LeftOut counts of a crawl, by source and what, in the
// order first met; the zero value is empty. It is the Left the stage
// counts into.
type LeftOuts struct {
	by    map[string]*LeftOut
	order []string
}

// Add counts u, named by source, as left out for why.
func (l *LeftOuts) Add(source, u, what, why string) {
	key := source + "\x00" + what
	lo := l.by[key]
	if lo == nil {
		if l.by == nil {
			l.by = map[string]*LeftOut{}
		}
		lo = &LeftOut{Source: source, First: u, What: what, Why: why}
		l.by[key] = lo
		l.order = append(l.order, key)
	}
	lo.N++
}

// All returns the counts in the order their sources were first met.
func (l *LeftOuts) All() []LeftOut {
	out := make([]LeftOut, 0, len(l.order))
	for _, key := range l.order {
		out = append(out, *l.by[key])
	}
	return out
}

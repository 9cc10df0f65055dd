package daemon

import (
	"bufio"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
)

// archivedFates are the crawl ledger's fates of URLs the archive accounts
// for: archived (entry), not posts by nature (listing, redirect, stub,
// duplicate), left out by the configuration (out-of-scope), or unchanged
// since the last crawl (skipped). Every other fate (failed, robots,
// over-budget, and any fate a newer crawl adds, such as a comment
// shortfall) is a shortfall: something known but not archived.
var archivedFates = map[string]bool{"entry": true, "listing": true, "redirect": true, "stub": true,
	"duplicate": true, "out-of-scope": true, "skipped": true}

// shortfallRows bounds the ledger rows a shortfall keeps for the page.
const shortfallRows = 20

// shortfall is what one Blog AIP's ledger knows but the archive lacks.
type shortfall struct {
	Ledger string         // the ledger read, relative to the archive; "" when none
	Counts map[string]int // by fate
	Rows   [][]string     // the first shortfallRows rows: url, fate, detail
	Total  int
}

// shortfallCache reads each blog's ledger once per Blog AIP version.
type shortfallCache struct {
	mu   sync.Mutex
	byID map[string]shortfall
}

// of returns the shortfalls of blog id in the archive s, from its latest
// Blog AIP's data/logs/ledger.tsv; empty when there is none (or no store).
func (c *shortfallCache) of(s aip.Store, id string) shortfall {
	if s == nil {
		return shortfall{}
	}
	v, _ := aip.LatestVersionOf(s, path.Join(id, "blog"))
	if v == 0 {
		return shortfall{}
	}
	rel := path.Join(id, "blog", "v"+strconv.Itoa(v), "data", "logs", "ledger.tsv")
	c.mu.Lock()
	defer c.mu.Unlock()
	if sf, ok := c.byID[id]; ok && sf.Ledger == rel {
		return sf
	}
	sf := readShortfalls(s, rel)
	sf.Ledger = rel
	if c.byID == nil {
		c.byID = map[string]shortfall{}
	}
	c.byID[id] = sf
	return sf
}

// readShortfalls reads the ledger.tsv name of the archive st (url, fate,
// detail, via) for the rows whose fate is a shortfall.
func readShortfalls(st aip.Store, name string) shortfall {
	s := shortfall{Counts: map[string]int{}}
	f, err := st.Open(name)
	if err != nil {
		return s
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 3 || cols[0] == "url" || archivedFates[cols[1]] {
			continue
		}
		s.Counts[cols[1]]++
		s.Total++
		if len(s.Rows) < shortfallRows {
			s.Rows = append(s.Rows, cols[:3])
		}
	}
	return s
}

// fateCounts lists counts by fate, most first, as "failed 3, robots 1".
func fateCounts(m map[string]int) string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		return m[names[i]] > m[names[j]] || m[names[i]] == m[names[j]] && names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + " " + strconv.Itoa(m[n])
	}
	return strings.Join(parts, ", ")
}

// ledgerContradicted reports whether the crawl ledger of blog b's newest
// Blog AIP in the archive s lists as a shortfall (over-budget, failed, …)
// a URL that the ledger of b, a new crawl's Blog record, accounts for
// (archivedFates). The Blog AIP's content digest leaves the ledger out, so
// without a new version the archive would keep saying, after an
// interrupted crawl was completed by the next, that posts it holds were
// never archived: the caller then writes the Blog AIP again
// (aip.Writer.WriteBlogAgain).
func ledgerContradicted(s aip.Store, b *blogharvest.Blog) bool {
	if s == nil {
		return false
	}
	v, _ := aip.LatestVersionOf(s, path.Join(b.ID, "blog"))
	if v == 0 {
		return false
	}
	f, err := s.Open(path.Join(b.ID, "blog", "v"+strconv.Itoa(v), "data", "logs", "ledger.tsv"))
	if err != nil {
		return false
	}
	short := map[string]bool{}
	eachLedgerRow(f, func(url, fate string) {
		if !archivedFates[fate] {
			short[url] = true
		}
	})
	f.Close()
	if len(short) == 0 {
		return false
	}
	for _, file := range b.Files {
		if file.Role != blogharvest.RoleLedger {
			continue
		}
		r, err := file.Open() // the crawl's own ledger: its Body
		if err != nil {
			return false
		}
		found := false
		eachLedgerRow(r, func(url, fate string) { found = found || short[url] && archivedFates[fate] })
		r.Close()
		return found
	}
	return false
}

// eachLedgerRow calls fn with the URL and fate of every row of the ledger
// r (ledger.tsv), its header left out.
func eachLedgerRow(r io.Reader, fn func(url, fate string)) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		url, rest, _ := strings.Cut(sc.Text(), "\t")
		fate, _, _ := strings.Cut(rest, "\t")
		if url != "url" && fate != "" {
			fn(url, fate)
		}
	}
}

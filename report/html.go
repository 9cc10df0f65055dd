package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest/aip"
)

//go:embed report.html
var reportHTML string

// reportTemplate is parsed at the first report written, not at init.
var reportTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"bytes": HumanBytes,
	}).Parse(reportHTML))
})

// topWords is how many rows the word-frequency table shows.
const topWords = 50

// zipfDense is how many of the most frequent words the Zipf plot shows
// one by one; beyond it, one word per step of 1/100 of a decade of rank.
const zipfDense = 1000

// WriteHTML writes the report of s as one self-contained HTML document:
// styles inline, charts as inline SVG, nothing fetched.
func (s *Stats) WriteHTML(w io.Writer, generated time.Time, version string) error {
	words := s.ranked()
	charts := map[string]string{}
	for name, draw := range map[string]func() (string, error){
		"time":   s.timeChart,
		"status": func() (string, error) { return countChart("Captured files by HTTP status", s.Status) },
		"fates":  func() (string, error) { return countChart("URLs of the crawl ledger by fate", s.Fates) },
		"zipf":   func() (string, error) { return zipfChart(sampleRanks(words)) },
	} {
		svg, err := draw()
		if err != nil {
			return fmt.Errorf("report: %s chart: %w", name, err)
		}
		charts[name] = svg
	}
	html := map[string]template.HTML{}
	for k, v := range charts {
		html[k] = template.HTML(v) // SVG written by gonum/plot from numbers and our own labels (escaped by vgsvg)
	}
	missing := make([]missingRow, 0, len(MissingFields))
	for _, f := range MissingFields {
		m := s.Missing[f]
		if m == nil {
			m = &Missing{}
		}
		missing = append(missing, missingRow{f, m})
	}
	return reportTemplate().Execute(w, map[string]any{
		"S": s, "Charts": html, "Words": words[:min(topWords, len(words))], "Vocabulary": len(words),
		"Missing": missing, "Methods": []methodTable{{"entries", "Entries", &s.Methods}, {"comments", "Comments", &s.CommentMethods}}, "Statuses": sortedCounts(s.Status), "Fates": sortedCounts(s.Fates),
		"Generated": generated.UTC().Format("2006-01-02 15:04:05 UTC"), "Version": version,
		"PayloadDefinition": aip.TallyDefinition,
	})
}

// methodTable is one table of fields by extraction method.
type methodTable struct {
	ID, Label string
	*Methods
}

type missingRow struct {
	Field string
	*Missing
}

type countRow struct {
	Key   string
	Count int
}

func sortedCounts[K int | string](m map[K]int) []countRow {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	out := make([]countRow, len(keys))
	for i, k := range keys {
		out[i] = countRow{fmt.Sprint(k), m[k]}
	}
	return out
}

// sampleRanks keeps the zipfDense most frequent words and, beyond, the
// first word of each 1/100 of a decade of rank, so the plot's size does
// not grow with the vocabulary.
func sampleRanks(words []WordCount) []WordCount {
	if len(words) <= zipfDense {
		return words
	}
	out := words[:zipfDense:zipfDense]
	last := -1
	for _, w := range words[zipfDense:] {
		if b := int(100 * math.Log10(float64(w.Rank))); b != last {
			out = append(out, w)
			last = b
		}
	}
	return out
}

// HumanBytes formats n in B, KiB, MiB or GiB.
func HumanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

package report

import (
	"path"
	"slices"

	"github.com/blogharvest/blogharvest"
)

// Methods counts, per field and method, the records whose field got its
// value by that method (data/logs/fields.tsv of the bags, aip/doc.go).
type Methods struct {
	Records int                       // records with at least one line in their bag's fields.tsv
	Counts  map[string]map[string]int // field → method → records
}

// add counts one record's field and method.
func (m *Methods) add(field, method string) {
	if m.Counts == nil {
		m.Counts = map[string]map[string]int{}
	}
	if m.Counts[field] == nil {
		m.Counts[field] = map[string]int{}
	}
	m.Counts[field][method]++
}

// methodOrder is the order of the report's columns: most to least
// trusted (records.go); methods it does not know come after, by name.
var methodOrder = []blogharvest.Method{blogharvest.MethodFeed, blogharvest.MethodRule, blogharvest.MethodStructured,
	blogharvest.MethodHeuristic, blogharvest.MethodDensity, blogharvest.MethodHTTP, blogharvest.MethodConfig,
	blogharvest.MethodComputed, blogharvest.MethodURL, blogharvest.MethodSitemap}

// Columns returns the methods that occur, in methodOrder, then the others
// by name.
func (m *Methods) Columns() []string {
	seen := map[string]bool{}
	for _, byMethod := range m.Counts {
		for k := range byMethod {
			seen[k] = true
		}
	}
	var cols, other []string
	for _, k := range methodOrder {
		if seen[string(k)] {
			cols = append(cols, string(k))
			delete(seen, string(k))
		}
	}
	for k := range seen {
		other = append(other, k)
	}
	slices.Sort(other)
	return append(cols, other...)
}

// MethodRow is one field of the methods table.
type MethodRow struct {
	Field  string
	Counts []int // per column of Columns
	None   int   // records of Methods.Records without the field: not harvested
}

// Rows returns one row per field, by name.
func (m *Methods) Rows() []MethodRow {
	cols := m.Columns()
	fields := make([]string, 0, len(m.Counts))
	for f := range m.Counts {
		fields = append(fields, f)
	}
	slices.Sort(fields)
	rows := make([]MethodRow, len(fields))
	for i, f := range fields {
		r := MethodRow{Field: f, Counts: make([]int, len(cols)), None: m.Records}
		for j, c := range cols {
			r.Counts[j] = m.Counts[f][c]
			r.None -= r.Counts[j]
		}
		rows[i] = r
	}
	return rows
}

// fieldsLog counts the field provenance of one bag's records: the entry's
// (or blog's) into s.Methods, its comments' into s.CommentMethods. A bag
// without data/logs/fields.tsv (written before it existed, or by a harvest
// that recorded none) counts in neither.
func (s *Stats) fieldsLog(bag string) error {
	records := map[string]bool{}
	err := eachLine(s.store, path.Join(bag, "data", "logs", "fields.tsv"), func(cols []string) {
		if len(cols) < 4 || cols[0] == "record" {
			return
		}
		m := &s.Methods
		if cols[1] == "comment" {
			m = &s.CommentMethods
		}
		if !records[cols[0]] {
			records[cols[0]] = true
			m.Records++
		}
		m.add(cols[2], cols[3])
	})
	return err
}

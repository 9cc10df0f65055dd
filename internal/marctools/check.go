package marctools

import (
	"fmt"
	"reflect"
	"sort"
	"testing"

	"github.com/blogharvest/blogharvest/marc"
)

// maxReported caps the findings Check reports one by one.
const maxReported = 40

// Check runs the yaz-marcdump round trip and MARC::Lint over recs and
// fails t on any yaz-marcdump error, any record that does not come back
// with every field and subfield as it was, and any MARC::Lint warning that
// allowed does not allow. It logs the warning counts. The caller skips
// first when Available reports an error.
func Check(t testing.TB, recs []*marc.Record, allowed func(string) (string, bool)) {
	t.Helper()
	dir := t.TempDir()
	iso, back, err := RoundTrip(dir, recs)
	if err != nil {
		t.Fatalf("yaz-marcdump: %v", err)
	}
	for _, d := range Compare(recs, back) {
		t.Errorf("round trip: %s", d)
	}
	ws, err := Lint(dir, iso)
	if err != nil {
		t.Fatal(err)
	}
	bad, byText := 0, map[string]int{}
	for _, w := range ws {
		if _, ok := allowed(w.Text); ok {
			continue
		}
		if bad++; bad <= maxReported {
			t.Errorf("MARC::Lint: record %s: %s", w.ID, w.Text)
		}
		byText[w.Text]++
	}
	t.Logf("%d records, %d bytes of ISO 2709: MARC::Lint %d warnings, %d not allowed", len(recs), len(iso), len(ws), bad)
	if bad > maxReported {
		texts := make([]string, 0, len(byText))
		for k := range byText {
			texts = append(texts, k)
		}
		sort.Strings(texts)
		for _, k := range texts {
			t.Logf("%5d × %s", byText[k], k)
		}
	}
}

// Compare returns the differences between records and the same records
// read back from ISO 2709: every control field, data field, indicator and
// subfield must be equal, and the leader too except the record length
// (00-04) and base address of data (12-16), which ISO 2709 computes.
func Compare(want, got []*marc.Record) []string {
	if len(want) != len(got) {
		return []string{fmt.Sprintf("%d records came back, want %d", len(got), len(want))}
	}
	var ds []string
	for i, w := range want {
		g := got[i]
		id, _ := w.ControlValue("001")
		if !sameLeader(w.Leader, g.Leader) {
			ds = append(ds, fmt.Sprintf("%s: leader %q, want %q", id, g.Leader, w.Leader))
		}
		if !reflect.DeepEqual(w.Control, g.Control) {
			ds = append(ds, fmt.Sprintf("%s: control fields %q, want %q", id, g.Control, w.Control))
		}
		if len(w.Data) != len(g.Data) {
			ds = append(ds, fmt.Sprintf("%s: %d data fields, want %d", id, len(g.Data), len(w.Data)))
			continue
		}
		for j := range w.Data {
			if !reflect.DeepEqual(w.Data[j], g.Data[j]) {
				ds = append(ds, fmt.Sprintf("%s: field %d %q, want %q", id, j, g.Data[j], w.Data[j]))
			}
		}
	}
	return ds
}

// sameLeader compares two leaders outside the positions ISO 2709 computes.
func sameLeader(a, b string) bool {
	if len(a) != 24 || len(b) != 24 {
		return a == b
	}
	return a[5:12] == b[5:12] && a[17:] == b[17:]
}

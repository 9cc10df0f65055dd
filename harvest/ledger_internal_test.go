package harvest

import (
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/discover"
)

func TestLedgerPrecedence(t *testing.T) {
	l := newLedger()
	l.met("u1", "feed")
	l.set("u1", FateFailed, "HTTP 503", "link")
	l.set("u1", FateEntry, "key-1", "") // an entry beats a failure (a feed-only entry, a retry)
	l.set("u1", FateDuplicate, "u9", "")
	l.set("u2", FateStub, "u1", "link")
	l.set("u2", FateRedirect, "u3", "") // equal rank: the first fate stays
	l.set("u3", FateOverBudget, "max_pages", "")
	l.set("u3", FateListing, "", "")
	l.met("u4", "sitemap")
	l.set("u5", FateSkipped, "a\tb\nc", "")
	rows := l.rowsSorted()
	want := []LedgerRow{{"u1", FateEntry, "key-1", "feed", ""}, {"u2", FateStub, "u1", "link", ""}, {"u3", FateListing, "", "", ""},
		{"u4", "", "", "sitemap", ""}, {"u5", FateSkipped, "a b c", "", ""}}
	if len(rows) != len(want) {
		t.Fatalf("rows %+v, want %+v", rows, want)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, rows[i], want[i])
		}
	}
	tsv := string(LedgerTSV(rows))
	if !strings.HasPrefix(tsv, LedgerHeader+"\n") || !strings.Contains(tsv, "u4\tunaccounted\t\tsitemap\t\n") || !strings.Contains(tsv, "u5\tskipped\ta b c\t\t\n") {
		t.Errorf("LedgerTSV:\n%s", tsv)
	}
	if got := FateSummary(rows); got != "entry=1 listing=1 stub=1 skipped=1 unaccounted=1" {
		t.Errorf("FateSummary = %q", got)
	}
	var nilLedger *ledger
	nilLedger.set("x", FateEntry, "", "")
	nilLedger.met("x", "")
	if nilLedger.rowsSorted() != nil {
		t.Error("a nil ledger holds rows")
	}
}

// TestDiscoverFates: the fates a stage's ledger lines name
// (harvest/discover's LedgerLine, written by ledger.apply) are the
// ledger's of the same names.
func TestDiscoverFates(t *testing.T) {
	for d, f := range map[string]Fate{discover.FateRedirect: FateRedirect, discover.FateFailed: FateFailed,
		discover.FateWithdrawn: FateWithdrawn, discover.FateRestored: FateRestored, discover.FateSkipped: FateSkipped} {
		if Fate(d) != f {
			t.Errorf("discover's fate %q, the ledger's %q", d, f)
		}
	}
}

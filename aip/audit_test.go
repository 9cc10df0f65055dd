package aip_test

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/schemas"
)

// TestCheckShareRotation publishes eight copies of the golden Entry AIP,
// flips a byte of one copy's payload, and audits the archive in three
// shares (aip.ShareOf): the three audits read every bag exactly once
// between them, each only the bags of its share, and the one audit whose
// share holds the flipped bag reports a checksum problem under that bag's
// name, the others none about any bag.
func TestCheckShareRotation(t *testing.T) {
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		var all []string
		for i := range 8 {
			final := fmt.Sprintf("garden/entries/2024/copy-%d/v1", i)
			a.importBag(t, goldenEntryBag(t), final)
			all = append(all, final)
		}
		bad := all[5]
		a.edit(t, a.loc(bad), func(folder string) {
			ps, _ := filepath.Glob(filepath.Join(folder, "data", "objects", "page", "*"))
			if len(ps) == 0 {
				t.Fatal("no page in the golden bag")
			}
			flipFile(t, ps[0])
		})
		const n = 3
		var read []string
		found := 0
		for share := range n {
			var got []string
			tally, _ := aip.CheckShare(a.ctx, a.St, ".", func(name string) bool { return aip.ShareOf(name, n) == share },
				func(b aip.BagCheck, _ aip.Tally) {
					got = append(got, b.Name)
					if aip.ShareOf(b.Name, n) != share {
						t.Errorf("share %d read %s, of share %d", share, b.Name, aip.ShareOf(b.Name, n))
					}
					for _, p := range b.Problems {
						var ce *aip.ChecksumError
						switch {
						case b.Name != bad:
							t.Errorf("share %d: %s: unexpected problem %v", share, b.Name, p)
						case errors.As(p, &ce):
							found++
						}
					}
				})
			if tally.Bags() != len(got) {
				t.Errorf("share %d: tally counts %d bags, %d were read", share, tally.Bags(), len(got))
			}
			read = append(read, got...)
		}
		slices.Sort(read)
		if !slices.Equal(read, all) {
			t.Errorf("the %d shares read %v, want every bag once: %v", n, read, all)
		}
		if found == 0 {
			t.Errorf("no share found the byte flipped in %s", bad)
		}
	})
}

// TestAuditRecord writes two audit records through the store and reads
// the newest back; its PREMIS document is valid PREMIS 3 and holds the
// fixity check event with its outcome, the problem and the bags read.
func TestAuditRecord(t *testing.T) {
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		st := a.St
		if a.backend == "local" { // writing into a folder takes its lock
			lock, err := aip.LockArchive(a.root)
			if err != nil {
				t.Fatal(err)
			}
			defer lock.Close()
			st = &aip.Local{Root: a.root, Lock: lock}
		}
		if r, err := aip.LatestAudit(a.St); err != nil || r != nil {
			t.Fatalf("an archive without audits: %v, %v", r, err)
		}
		start := time.Date(2026, 12, 6, 8, 0, 0, 0, time.UTC)
		for seq := 1; seq <= 2; seq++ {
			r := &aip.AuditRecord{Seq: seq, Share: seq - 1, Shares: 7, Start: start, End: start.Add(time.Minute),
				Bags: 2, Software: "blogharvest test", Read: []string{"garden/blog/v1", "garden/entries/2024/k/v1"}}
			if seq == 2 {
				r.Problems = []aip.AuditProblem{{Bag: "garden/blog/v1", Reason: "checksum mismatch"}}
			}
			name, err := aip.WriteAudit(a.ctx, st, r)
			if err != nil {
				t.Fatal(err)
			}
			data, err := fs.ReadFile(a.St, path.Join(name, "premis.xml"))
			if err != nil {
				t.Fatal(err)
			}
			if probs := schemas.Validate(data); len(probs) > 0 {
				t.Errorf("%s/premis.xml is not valid PREMIS 3: %v\n%s", name, probs, data)
			}
			doc := string(data)
			for _, want := range []string{"eventType/fix", "<premis:eventOutcome>" + r.Outcome() + "<", r.EventID} {
				if !strings.Contains(doc, want) {
					t.Errorf("%s/premis.xml lacks %q", name, want)
				}
			}
			if seq == 2 && (!strings.Contains(doc, "garden/blog/v1: checksum mismatch") ||
				!strings.Contains(doc, "<premis:objectIdentifierValue>garden/blog/v1<")) {
				t.Errorf("%s/premis.xml lacks the problem or its bag", name)
			}
			gz, err := a.St.Open(path.Join(name, "bags.txt.gz"))
			if err != nil {
				t.Fatal(err)
			}
			zr, err := gzip.NewReader(gz)
			if err != nil {
				t.Fatal(err)
			}
			list, _ := io.ReadAll(zr)
			gz.Close()
			if string(list) != strings.Join(r.Read, "\n")+"\n" {
				t.Errorf("%s/bags.txt.gz lists %q, want %q", name, list, r.Read)
			}
		}
		got, err := aip.LatestAudit(a.St)
		if err != nil || got == nil {
			t.Fatalf("LatestAudit: %v, %v", got, err)
		}
		if got.Seq != 2 || got.Share != 1 || len(got.Problems) != 1 || got.Problems[0].Bag != "garden/blog/v1" {
			t.Errorf("latest audit %+v, want the second", got)
		}
		if _, err := aip.WriteAudit(a.ctx, st, &aip.AuditRecord{Seq: 2, Shares: 1, Software: "x"}); err == nil {
			t.Error("a second record numbered 2 was published")
		}
		if errs := a.check(); len(errs) > 0 {
			t.Errorf("check of an archive holding audit records: %v", errs)
		}
	})
}

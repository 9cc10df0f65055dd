package aip_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/aip/s3store"
)

// TestStoreCheckTamper changes one byte of a published bag's capture log
// behind the Store's back (nothing else: no track covered): the check
// must report a checksum mismatch naming that file at its place in the
// archive.
func TestStoreCheckTamper(t *testing.T) {
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		r, err := a.W.WriteEntry(context.Background(), fixtureEntry())
		if err != nil {
			t.Fatal(err)
		}
		if errs := a.check(); len(errs) > 0 {
			t.Fatalf("before tampering: %v", errs)
		}
		a.edit(t, r.Dir, func(bag string) { flipFile(t, bag+"/data/logs/capture.log") })
		found := false
		errs := a.check()
		for _, err := range errs {
			var ce *aip.ChecksumError
			if errors.As(err, &ce) && ce.Path == a.loc(a.name(r.Dir)+"/data/logs/capture.log") {
				found = true
			}
		}
		if !found {
			t.Errorf("check after tampering with %s/data/logs/capture.log: %v; want a *ChecksumError naming it", r.Dir, errs)
		}
	})
}

// TestS3WritersRace has two writers, with their own Store on the same
// bucket and prefix (two machines sharing no file system), write the same
// new entry, many times, each held right before its marker write until
// the other is there too: each time exactly one version 1 is published,
// the other is refused by the server (If-None-Match: * on the marker) and
// fails transiently, and the check is clean. On a real server its own
// access log must show the refusals: 412 answers to marker writes.
func TestS3WritersRace(t *testing.T) {
	a := openArchive(t, "s3")
	other := openS3(t, a.srv, a.prefix)
	ws := []*aip.Writer{a.W, newWriter(t)}
	ws[1].Root, ws[1].Store = "", other
	const rounds = 6
	lost := 0
	for i := range rounds {
		var arrived sync.WaitGroup
		arrived.Add(2)
		aip.SetTestHook(func(final, event string) {
			if event == "publish" {
				arrived.Done()
				arrived.Wait() // both writers hold a whole staged bag: now both write their marker
			}
		})
		var wg sync.WaitGroup
		res := make([]aip.Result, 2)
		errs := make([]error, 2)
		for j, w := range ws {
			wg.Add(1)
			go func() {
				defer wg.Done()
				e := fixtureEntry()
				e.URL += "race-" + string(rune('a'+i)) + "/"
				res[j], errs[j] = w.WriteEntry(context.Background(), e)
			}()
		}
		wg.Wait()
		aip.SetTestHook(nil)
		written := 0
		for j := range ws {
			switch {
			case errs[j] == nil && res[j].Written && res[j].Version == 1:
				written++
			case errs[j] != nil && blogharvest.IsTransient(errs[j]) && strings.Contains(errs[j].Error(), "version exists"):
				lost++
			default:
				t.Errorf("round %d: writer %d: %+v, %v (want version 1 written, or a transient \"version exists\")", i, j, res[j], errs[j])
			}
		}
		if written != 1 {
			t.Errorf("round %d: %d writers published version 1, want exactly 1 (%v, %v)", i, written, errs[0], errs[1])
		}
	}
	if lost != rounds {
		t.Errorf("%d of %d rounds had a loser at the marker, want all", lost, rounds)
	}
	if errs := a.check(); len(errs) > 0 {
		t.Errorf("check: %v", errs)
	}
	if !a.srv.Real() {
		t.Logf("%s keeps no access log: the 412s are not counted at the server", a.srv.Kind)
		return
	}
	reqs, err := a.srv.Requests(a.prefix + "/")
	if err != nil {
		t.Fatal(err)
	}
	refused, created := 0, 0
	for _, r := range reqs {
		if r.Operation == "PutObject" && strings.HasSuffix(r.Key, "/"+s3store.Marker) {
			switch r.Status {
			case 412:
				refused++
			case 200:
				created++
			}
		}
	}
	t.Logf("%s logged %d marker writes created, %d refused with 412", a.srv.Kind, created, refused)
	if refused != rounds || created != rounds {
		t.Errorf("the server logged %d marker writes created and %d refused (412), want %d each", created, refused, rounds)
	}
}

package schedule_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/schedule"
	bolt "go.etcd.io/bbolt"
)

// fullState returns a State with every field set, times in a non-UTC zone
// and with nanoseconds.
func fullState() schedule.State {
	loc := time.FixedZone("X", 5*3600+1800)
	t0 := time.Date(2026, 4, 5, 6, 7, 8, 123456789, loc)
	return schedule.State{
		Spec: "CRON_TZ=Europe/Paris 0 3 * * *", LastStart: t0, LastEnd: t0.Add(90 * time.Second),
		Outcome: schedule.OutcomePartial, LastError: "fetch https://blog.example/p/3: 503 Service Unavailable",
		Watermark: t0.Add(-48 * time.Hour), NextDue: t0.Add(24 * time.Hour), Failures: 2,
		Entries: 1234, Runs: 77,
		CrawlState: blogharvest.CrawlState{
			Feed: blogharvest.Validators{URL: "https://blog.example/feed/", ETag: `W/"5e1-abc"`,
				LastModified: "Sun, 05 Apr 2026 06:07:08 GMT", Digest: "9f86d081884c7d65"},
			CommentFeed: blogharvest.Validators{URL: "https://blog.example/comments/feed/", ETag: `"c1"`,
				LastModified: "Sun, 05 Apr 2026 06:07:08 GMT", Digest: "60303ae22b998861"},
			Items: map[string]string{"https://blog.example/p/3": "2c26b46b68ffc68f"}, PostsChecked: t0.Add(-time.Hour),
			Pages: map[string]blogharvest.Validators{"https://blog.example/p/3": {ETag: `"p3"`}},
		},
	}
}

// sameState compares states with time.Time.Equal.
func sameState(a, b schedule.State) bool {
	for _, p := range [][2]*time.Time{{&a.LastStart, &b.LastStart}, {&a.LastEnd, &b.LastEnd}, {&a.Watermark, &b.Watermark}, {&a.NextDue, &b.NextDue}, {&a.PostsChecked, &b.PostsChecked}} {
		if !p[0].Equal(*p[1]) {
			return false
		}
		*p[0], *p[1] = time.Time{}, time.Time{}
	}
	return reflect.DeepEqual(a, b)
}

func TestStoreRoundTrip(t *testing.T) {
	s := MustOpenStore(t)
	want := fullState()
	if err := s.Put("quantum-diaries", want); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.Get("quantum-diaries")
	if err != nil || !ok {
		t.Fatalf("Get: %v, %v", ok, err)
	}
	if got.V != schedule.StateVersion {
		t.Errorf("V = %d, want %d", got.V, schedule.StateVersion)
	}
	want.V = schedule.StateVersion
	if !sameState(got, want) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
	}
	if got.NextDue.Location() != time.UTC {
		t.Errorf("stored times should come back in UTC, got %v", got.NextDue.Location())
	}
	if _, ok, err := s.Get("absent"); ok || err != nil {
		t.Errorf("Get(absent) = %v, %v; want false, nil", ok, err)
	}
}

func TestStorePersistsAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "deep", "dir", "schedule.db")
	s, err := schedule.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put("a", fullState()); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	s, err = schedule.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, ok, err := s.Get("a"); err != nil || !ok || !sameState(got, withV(fullState())) {
		t.Errorf("after reopen: %+v %v %v", got, ok, err)
	}
}

func withV(st schedule.State) schedule.State { st.V = schedule.StateVersion; return st }

func TestStoreUpdateDeleteAll(t *testing.T) {
	s := MustOpenStore(t)
	start := date(2026, 1, 1, 3, 0, nil)
	err := s.Update("b", func(st *schedule.State) error {
		if st.Runs != 0 || st.V != 0 {
			t.Errorf("Update of a new blog got %+v, want the zero State", *st)
		}
		st.Runs++
		st.Outcome, st.LastStart = schedule.OutcomeRunning, start
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := s.Update("b", func(st *schedule.State) error { st.Runs = 99; return boom }); !errors.Is(err, boom) {
		t.Errorf("Update's fn error: got %v", err)
	}
	if st, _, _ := s.Get("b"); st.Runs != 1 || st.Outcome != "running" || !st.LastStart.Equal(start) {
		t.Errorf("after a failed Update the old state must stay: %+v", st)
	}
	for _, id := range []string{"c", "a"} {
		if err := s.Put(id, schedule.State{Runs: len(id)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Delete("c"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("never-there"); err != nil {
		t.Errorf("Delete of an absent blog: %v", err)
	}
	all, err := s.All()
	if err != nil || len(all) != 2 || all["a"].Runs != 1 || all["b"].Runs != 1 {
		t.Errorf("All = %v, %v", all, err)
	}
	if ids, err := s.IDs(); err != nil || !reflect.DeepEqual(ids, []string{"a", "b"}) {
		t.Errorf("IDs = %v, %v", ids, err)
	}
}

func TestStoreRejectsInvalidIDs(t *testing.T) {
	s := MustOpenStore(t)
	for _, id := range []string{"", "../etc", "UPPER", "a/b", strings.Repeat("x", 65)} {
		if err := s.Put(id, schedule.State{}); err == nil {
			t.Errorf("Put(%q) accepted an invalid id", id)
		}
		if _, _, err := s.Get(id); err == nil {
			t.Errorf("Get(%q) accepted an invalid id", id)
		}
	}
}

func TestStoreConcurrentUpdates(t *testing.T) {
	s := MustOpenStore(t)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 25; j++ {
				if err := s.Update("shared", func(st *schedule.State) error { st.Runs++; return nil }); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if st, _, _ := s.Get("shared"); st.Runs != 200 {
		t.Errorf("Runs = %d after 200 concurrent increments", st.Runs)
	}
}

// rawPut writes value under blogs/id with plain bbolt, as a newer or broken
// blogharvest might have.
func rawPut(t *testing.T, path, bucket, key, value string) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte(bucket)).Put([]byte(key), []byte(value)) })
	if err != nil {
		t.Fatal(err)
	}
}

func TestStoreVersions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "schedule.db")
	s, err := schedule.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	rawPut(t, path, "blogs", "future", `{"V":3,"Spec":"@daily","Shiny":true}`)
	rawPut(t, path, "blogs", "ancient", `{"Spec":"@daily"}`)
	rawPut(t, path, "blogs", "reshaped", `{"V":3,"Runs":"many"}`) // a newer layout whose fields changed type
	rawPut(t, path, "blogs", "garbage", `not json`)
	s, err = schedule.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var ve *schedule.VersionError
	_, _, err = s.Get("future")
	if !errors.As(err, &ve) || ve.Got != 3 || ve.ID != "future" || !strings.Contains(err.Error(), "upgrade") {
		t.Errorf("Get(future) error = %v, want a *VersionError for version 3 saying to upgrade", err)
	}
	if _, _, err := s.Get("reshaped"); !errors.As(err, &ve) || ve.Got != 3 {
		t.Errorf("Get(reshaped) error = %v, want a *VersionError for version 3", err)
	}
	if _, _, err := s.Get("ancient"); !errors.As(err, &ve) || ve.Got != 0 {
		t.Errorf("Get(ancient) error = %v, want a *VersionError for version 0", err)
	}
	if _, _, err := s.Get("garbage"); err == nil || !strings.Contains(err.Error(), `"garbage"`) {
		t.Errorf("Get(garbage) error = %v, want one naming the blog", err)
	}
	if err := s.Update("future", func(*schedule.State) error { return nil }); !errors.As(err, &ve) {
		t.Errorf("Update must not overwrite a newer version: %v", err)
	}
	if _, err := s.All(); !errors.As(err, &ve) {
		t.Errorf("All with a future value: %v", err)
	}
}

func TestStoreSchemaVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "schedule.db")
	s, err := schedule.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	rawPut(t, path, "meta", "schema", "2")
	for name, open := range map[string]func(string) (*schedule.Store, error){"Open": schedule.Open, "OpenReadOnly": schedule.OpenReadOnly} {
		if s, err := open(path); err == nil || !strings.Contains(err.Error(), "schema version") || !strings.Contains(err.Error(), path) {
			t.Errorf("%s of a schema-2 file: %v", name, err)
			if s != nil {
				s.Close()
			}
		}
	}
}

// TestStoreHoldsOnlyScheduleMetadata lists every bucket and key in the file
// after a realistic use and checks nothing but schedule metadata is there.
func TestStoreHoldsOnlyScheduleMetadata(t *testing.T) {
	path := filepath.Join(t.TempDir(), "schedule.db")
	s, err := schedule.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		id := fmt.Sprintf("blog-%d", i)
		if err := s.Put(id, fullState()); err != nil {
			t.Fatal(err)
		}
		s.Update(id, func(st *schedule.State) error { st.Runs++; return nil })
	}
	s.Delete("blog-4")
	s.Close()

	got := listFile(t, path)
	want := []string{"blogs/blog-0", "blogs/blog-1", "blogs/blog-2", "blogs/blog-3", "meta/schema"}
	if !reflect.DeepEqual(got.keys, want) {
		t.Errorf("keys in the state file:\n got %v\nwant %v", got.keys, want)
	}
	fields := []string{"V", "Spec", "LastStart", "LastEnd", "Outcome", "LastError", "Watermark", "NextDue",
		"Failures", "Entries", "Runs",
		// UpdateCrawl's validators and digests: metadata too (harvest.State less robots.txt and rules)
		"Feed", "CommentFeed", "Items", "PostsChecked", "Pages"}
	sort.Strings(fields)
	for key, names := range got.fields {
		if !reflect.DeepEqual(names, fields) {
			t.Errorf("%s holds fields %v, want exactly %v", key, names, fields)
		}
	}
}

type fileListing struct {
	keys   []string            // bucket/key, nested buckets as bucket/sub/key
	fields map[string][]string // for blogs/*: the JSON field names, sorted
}

func listFile(t *testing.T, path string) fileListing {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := fileListing{fields: make(map[string][]string)}
	err = db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			return listBucket(string(name), b, &out)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out.keys)
	return out
}

func listBucket(prefix string, b *bolt.Bucket, out *fileListing) error {
	return b.ForEach(func(k, v []byte) error {
		key := prefix + "/" + string(k)
		if v == nil {
			return listBucket(key, b.Bucket(k), out)
		}
		out.keys = append(out.keys, key)
		if strings.HasPrefix(key, "blogs/") {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(v, &m); err != nil {
				return fmt.Errorf("%s: %w", key, err)
			}
			for f := range m {
				out.fields[key] = append(out.fields[key], f)
			}
			sort.Strings(out.fields[key])
		}
		return nil
	})
}

func TestOpenReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "schedule.db")
	if _, err := schedule.OpenReadOnly(path); err == nil {
		t.Error("OpenReadOnly of a missing file succeeded")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("OpenReadOnly created the file: %v", err)
	}
	w, err := schedule.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	w.Put("a", fullState())
	w.Close()

	r1, err := schedule.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	r2, err := schedule.OpenReadOnly(path) // readers share the file
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if all, err := r2.All(); err != nil || len(all) != 1 {
		t.Errorf("All via read-only: %v, %v", all, err)
	}
	if err := r1.Put("b", schedule.State{}); err == nil {
		t.Error("Put on a read-only store succeeded")
	}
	// While readers hold the file a daemon cannot start.
	if _, err := schedule.Open(path); !errors.Is(err, schedule.ErrInUse) {
		t.Errorf("Open while a reader holds the file: %v, want ErrInUse", err)
	}
}

func TestOpenReadOnlyRejectsForeignFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "other.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if s, err := schedule.OpenReadOnly(path); err == nil || !strings.Contains(err.Error(), "not a blogharvest state file") {
		t.Errorf("OpenReadOnly of an empty bbolt file: %v", err)
		if s != nil {
			s.Close()
		}
	}
}

// TestRunsKeptAcrossReopen: AddRun keeps the newest runs of a blog, in
// order, across a close and a reopen, and a blog without runs has none.
func TestRunsKeptAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := schedule.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if err := s.AddRun("a", []byte(fmt.Sprint(i)), 3); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s, err = schedule.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runs, err := s.Runs("a")
	if err != nil || len(runs) != 3 || string(runs[0]) != "2" || string(runs[2]) != "4" {
		t.Errorf("runs after reopening: %q, %v; want 2, 3, 4", runs, err)
	}
	if runs, err := s.Runs("b"); err != nil || len(runs) != 0 {
		t.Errorf("a blog without runs: %q, %v", runs, err)
	}
}

func TestStorePutAll(t *testing.T) {
	s := MustOpenStore(t)
	full := fullState()
	if err := s.PutAll(map[string]schedule.State{"a": full, "b": {Runs: 2}}); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := s.Get("a"); err != nil || !ok || !sameState(got, func() schedule.State { f := fullState(); f.V = schedule.StateVersion; return f }()) {
		t.Errorf("Get(a) after PutAll = %+v, %v, %v", got, ok, err)
	}
	if got, _, _ := s.Get("b"); got.Runs != 2 {
		t.Errorf("Get(b) after PutAll: Runs %d, want 2", got.Runs)
	}
	// One invalid id refuses the whole call: nothing of it is stored.
	if err := s.PutAll(map[string]schedule.State{"c": {Runs: 3}, "../x": {}}); err == nil {
		t.Error("PutAll accepted an invalid id")
	}
	if _, ok, _ := s.Get("c"); ok {
		t.Error("PutAll with an invalid id stored part of its states")
	}
}

package schedule_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/schedule"
)

// TestOpenVersion1StateFile opens testdata/state-v1.db, a state file the
// code of 4c2757d wrote (State version 1: the feeds' validators in flat
// fields, before State embedded blogharvest.CrawlState), and reads every
// field of both blogs back as they were stored; a blog stored again is
// written as version 2 and reads back the same. It fails when a field of
// version 1 is lost or misplaced in the new layout.
func TestOpenVersion1StateFile(t *testing.T) {
	old, err := os.ReadFile("testdata/state-v1.db")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "schedule.db")
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := schedule.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Recovered() != nil {
		t.Fatalf("the version 1 file was set aside as damaged: %v", s.Recovered())
	}
	all, err := s.All()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]schedule.State{"quantum-diaries": version1State(), "fresh-blog": {
		V: schedule.StateVersion, Spec: "@daily", Runs: 1, Outcome: schedule.OutcomeRunning}}
	for id, w := range want {
		if got := all[id]; !sameState(got, w) {
			t.Errorf("%s read from the version 1 file:\n got %+v\nwant %+v", id, all[id], w)
		}
	}
	if len(all) != len(want) {
		t.Errorf("%d blogs, want %d", len(all), len(want))
	}
	if err := s.Update("quantum-diaries", func(st *schedule.State) error { st.Runs++; return nil }); err != nil {
		t.Fatal(err)
	}
	got, _, err := s.Get("quantum-diaries")
	w := version1State()
	w.Runs++
	if err != nil || !sameState(got, w) {
		t.Errorf("stored again: %+v, %v; want %+v", got, err, w)
	}
}

// version1State is what testdata/state-v1.db holds for quantum-diaries,
// as the current State: every field the version 1 layout had.
func version1State() schedule.State {
	at := func(s string) time.Time {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			panic(err)
		}
		return t
	}
	return schedule.State{
		V: schedule.StateVersion, Spec: "CRON_TZ=Europe/Paris 0 3 * * *",
		LastStart: at("2026-04-05T00:37:08.123456789Z"), LastEnd: at("2026-04-05T00:38:38.123456789Z"),
		Outcome: schedule.OutcomePartial, LastError: "fetch https://blog.example/p/3: 503 Service Unavailable",
		Watermark: at("2026-04-03T00:37:08.123456789Z"), NextDue: at("2026-04-06T00:37:08.123456789Z"),
		Failures: 2, Entries: 1234, Runs: 77,
		CrawlState: blogharvest.CrawlState{
			Feed: blogharvest.Validators{URL: "https://blog.example/feed/", ETag: `W/"5e1-abc"`,
				LastModified: "Sun, 05 Apr 2026 06:07:08 GMT", Digest: "9f86d081884c7d65"},
			CommentFeed: blogharvest.Validators{URL: "https://blog.example/comments/feed/", ETag: `"c1"`,
				LastModified: "Sun, 05 Apr 2026 06:07:08 GMT", Digest: "60303ae22b998861"},
			Items:        map[string]string{"https://blog.example/p/3": "2c26b46b68ffc68f"},
			PostsChecked: at("2026-04-04T23:37:08.123456789Z"),
			Pages: map[string]blogharvest.Validators{"https://blog.example/p/3": {ETag: `"p3"`},
				"https://blog.example/p/4": {LastModified: "Fri, 03 Apr 2026 09:00:00 GMT"}},
			Threads: map[string][]blogharvest.Validators{"https://blog.example/p/3": {
				{URL: "https://blog.example/wp-json/comments?post=3", ETag: `"t3"`,
					LastModified: "Sat, 04 Apr 2026 10:00:00 GMT", Digest: "b5bb9d8014a0f9b1"},
				{URL: "https://blog.example/api/thread/3"},
			}},
		},
	}
}

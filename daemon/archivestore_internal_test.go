package daemon

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io/fs"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/internal/fixture"
	"github.com/blogharvest/blogharvest/internal/s3test"
	"github.com/blogharvest/blogharvest/schedule"
)

// archiveBackend is one kind of archive the daemon's readers are tested
// over: use points c's archive at a fresh, empty one of its kind.
type archiveBackend struct {
	name string
	use  func(t *testing.T, c *Config)
}

// archiveBackends are a folder (the config's own) and an S3-compatible
// store on loopback (internal/s3test; the test skips when it has none),
// the endpoint and credentials in the environment only, as an operator
// would give them.
var archiveBackends = []archiveBackend{
	{"local", func(*testing.T, *Config) {}},
	{"s3", func(t *testing.T, c *Config) {
		srv := s3test.Start(t)
		for _, kv := range srv.Env() {
			k, v, _ := strings.Cut(kv, "=")
			t.Setenv(k, v)
		}
		var b [6]byte
		rand.Read(b[:])
		c.Archive = "s3://" + srv.Bucket + "/" + strings.ReplaceAll(t.Name(), "/", "-") + "-" + hex.EncodeToString(b[:])
	}},
}

// TestArchiveCountsThroughStore: what the status page and `blogharvest
// status` read from the archive (the entry AIPs of a blog whose run never
// ended, the ledger's shortfalls of its latest Blog AIP) is read through
// the archive's store, over a folder and an S3 archive alike.
func TestArchiveCountsThroughStore(t *testing.T) {
	for _, b := range archiveBackends {
		t.Run(b.name, func(t *testing.T) {
			_, c := sampleBlogConfig(t, fixture.MustNew("wordpress"))
			b.use(t, c)
			d := openTestDaemon(t, c)
			ctx := context.Background()
			if _, err := d.runBlog(ctx, c.Blogs[0], nil); err != nil {
				t.Fatal(err)
			}
			st := d.arch.store()
			bags, err := fs.Glob(st, "sample/entries/*/*/v1")
			if err != nil || len(bags) == 0 {
				t.Fatalf("entry AIPs in the archive: %d (%v)", len(bags), err)
			}
			want := len(bags)
			if got := countEntryAIPs(st, "sample"); got != want {
				t.Errorf("countEntryAIPs: %d, the archive holds %d", got, want)
			}
			// A run that never ended (the daemon killed): Open recounts.
			if err := d.plan.store.Update("sample", func(s *schedule.State) error {
				s.Outcome, s.Entries = schedule.OutcomeRunning, 0
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if err := d.plan.recountUnfinished(d.arch.view); err != nil {
				t.Fatal(err)
			}
			if s, _, _ := d.plan.store.Get("sample"); s.Entries != want {
				t.Errorf("recount after a killed run: %d entries, the archive holds %d", s.Entries, want)
			}
			// `blogharvest status` opens the archive itself (read only).
			ro, err := readArchive(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			if got := unfinishedCount(ro, "sample", schedule.State{Outcome: schedule.OutcomeRunning}); got != want {
				t.Errorf("status of a killed run: %d entries, the archive holds %d", got, want)
			}
			// The status page's shortfalls come from the latest Blog AIP's ledger.
			sf := d.arch.view.shortfalls.of(st, "sample")
			if sf.Ledger != "sample/blog/v1/data/logs/ledger.tsv" {
				t.Fatalf("shortfalls read from ledger %q, want the Blog AIP's", sf.Ledger)
			}
			if _, err := fs.Stat(st, sf.Ledger); err != nil {
				t.Errorf("the ledger read: %v", err)
			}
		})
	}
}

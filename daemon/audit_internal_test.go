package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
)

// heldHarvester holds every harvest until release is closed, telling
// started when one begins.
type heldHarvester struct {
	started chan string
	release chan struct{}
}

func (h heldHarvester) Harvest(ctx context.Context, o harvest.Options, since time.Time, emit func(harvest.Record) error) (*harvest.Result, error) {
	h.started <- o.Blog.ID
	<-h.release
	return &harvest.Result{}, nil
}

// TestAuditWaitsForHarvest: an audit that reaches a blog whose harvest is
// running waits (the status says for which blog) and reads none of its
// bags; once the harvest ends it reads them all. A firing of the blog
// while the audit holds it runs right after the audit lets it go.
func TestAuditWaitsForHarvest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	archive := filepath.Join(dir, "archive") // the aip package's golden blog: a Blog and an Entry AIP
	if err := os.CopyFS(archive, os.DirFS("../aip/testdata/valid")); err != nil {
		t.Fatal(err)
	}
	c, err := ParseConfig("test.yaml", []byte(fmt.Sprintf("archive: %s\nstate: %s\nblogs:\n  - id: garden\n    url: http://127.0.0.1:1/\n    schedule: \"@daily\"\n",
		archive, filepath.Join(dir, "state.db"))))
	if err != nil {
		t.Fatal(err)
	}
	d := NewDaemon(c)
	d.env.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	h := heldHarvester{started: make(chan string, 2), release: make(chan struct{})}
	d.run.harvester = h
	if err := d.Open(); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	select {
	case <-h.started:
	case <-time.After(time.Minute):
		t.Fatal("the blog's first run did not start")
	}
	if ok, _ := d.plan.hold("garden"); ok {
		t.Fatal("hold took a blog whose harvest runs")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.audit(d.life.ctx, Audit{Schedule: "@daily", Shares: 1})
	}()
	deadline := time.Now().Add(time.Minute)
	for {
		st := d.audits.status(d.env.Config)
		if st != nil && st.Running != nil && len(st.Running.Waiting) == 1 && st.Running.Waiting[0] == "garden" {
			if st.Running.Bags != 0 {
				t.Errorf("the audit read %d bags of a blog being harvested", st.Running.Bags)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the audit does not say it waits for the harvest: %+v", st)
		}
		time.Sleep(20 * time.Millisecond)
	}
	close(h.release) // the harvest ends; so does the audit
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the audit did not end after the harvest")
	}
	last := d.audits.status(d.env.Config).Last
	tally, _ := aip.CheckTally(archive, nil)
	if last == nil || last.Bags != tally.Bags() || len(last.Problems) != 0 {
		t.Fatalf("audit %+v, want every one of %d bags read, no problem", last, tally.Bags())
	}

	// A firing while the audit holds the blog runs after the release.
	if ok, _ := d.plan.hold("garden"); !ok {
		t.Fatal("hold refused an idle blog")
	}
	if st, _ := d.Status(); st[0].Running {
		t.Error("a blog an audit holds shows as running")
	}
	d.plan.fire("garden")
	select {
	case id := <-h.started:
		t.Fatalf("%s ran while the audit held it", id)
	default:
	}
	d.plan.release("garden")
	select {
	case <-h.started:
	case <-time.After(time.Minute):
		t.Fatal("the firing during the hold did not run after it")
	}
}

package daemon

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/schedule"
)

// TestStateKeepsCommentThreads: the comment thread APIs a crawl watches
// (harvest.State.Threads) survive the schedule store (runOutcome.apply,
// the stored JSON, previous), so that the daemon's next scheduled update
// asks for them.
func TestStateKeepsCommentThreads(t *testing.T) {
	threads := map[string][]blogharvest.Validators{
		"http://b.ex/posts/rye/": {{URL: "http://c.ex/api/comment?path=%2Fposts%2Frye%2F", ETag: `"x1"`, Digest: "ab12"}},
		"http://b.ex/posts/oat/": {{URL: "http://c.ex/api/comment?path=%2Fposts%2Foat%2F", LastModified: "Mon, 02 Jan 2006 15:04:05 GMT", Digest: "cd34"},
			{URL: "http://c.ex/api/count?path=%2Fposts%2Foat%2F", Digest: "ef56"}},
	}
	var st schedule.State
	res := &harvest.Result{State: harvest.State{CrawlState: blogharvest.CrawlState{Threads: threads}}}
	(&Daemon{}).reportOf(schedule.OutcomeOK, &tally{}, res, nil).apply(&st, time.Now())
	data, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var stored schedule.State
	if err := json.Unmarshal(data, &stored); err != nil {
		t.Fatal(err)
	}
	if got := (&Daemon{}).previous("b", stored).Threads; !reflect.DeepEqual(got, threads) {
		t.Errorf("threads after the store: %v, want %v", got, threads)
	}
}

package cluster_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixturetest"
)

// TestClusterRunRecordsCommentShortfall: a blog one of whose posts states
// three comments more than any source holds, run by a cluster worker. The
// scheduler's /status (last_run.comment_shortfalls) and the blog's status
// page show the shortfall the worker's crawl found, as a local daemon's
// do (TestStatusPageShowsCommentShortfall).
func TestClusterRunRecordsCommentShortfall(t *testing.T) {
	t.Parallel()
	e := newClusterEnv(t, clusterOpts{maxDeliver: 3})
	srv, post, stated := fixturetest.ShortfallBlog(t)
	e.blogs = append(e.blogs, "short")
	e.sites["short"] = srv.URL
	listen := listenOf(t, e.config())
	e.writeConfig("blogs.yaml", listen, clusterOpts{maxDeliver: 3, maxPages: 200})
	sched := daemontest.Start(t, "run", "-config", e.config())
	w := e.worker("w1")
	daemontest.WaitFor(t, "the blog's run ended", 120*time.Second, ended(listen))
	want := fmt.Sprintf("stated %d (JSON-LD commentCount), archived %d", stated, stated-3)
	var st struct {
		Blogs []struct {
			ID      string `json:"id"`
			LastRun *struct {
				Shortfalls []struct{ URL, Note string } `json:"comment_shortfalls"`
			} `json:"last_run"`
		} `json:"blogs"`
	}
	if err := json.Unmarshal([]byte(daemontest.HTTPGet(t, "http://"+listen+"/status")), &st); err != nil || len(st.Blogs) != 1 {
		t.Fatalf("/status: %v, %d blogs", err, len(st.Blogs))
	}
	switch lr := st.Blogs[0].LastRun; {
	case lr == nil:
		t.Errorf("/status: the scheduler has no run record of the worker's run")
	case len(lr.Shortfalls) != 1 || lr.Shortfalls[0].URL != post || !strings.Contains(lr.Shortfalls[0].Note, want):
		t.Errorf("/status: comment shortfalls %+v, want %s: %q", lr.Shortfalls, post, want)
	}
	page := daemontest.HTTPGet(t, "http://"+listen+"/blog/short")
	if i := strings.Index(page, `<table id="comment-shortfalls">`); i < 0 || !strings.Contains(page[i:], want) {
		t.Errorf("the scheduler's status page lacks the run's comment shortfall %q", want)
	}
	if c := w.Stop(t, syscall.SIGTERM, 2*time.Minute); c != 0 {
		t.Errorf("worker exit code %d", c)
	}
	if c := sched.Stop(t, syscall.SIGTERM, 2*time.Minute); c != 0 {
		t.Errorf("scheduler exit code %d", c)
	}
}

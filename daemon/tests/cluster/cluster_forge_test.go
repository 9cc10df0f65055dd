package cluster_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/cluster"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/dispatch"
	"github.com/nats-io/nats.go"
)

// TestClusterForgedReportRefused: a client on the network cannot forge a
// harvest. Against a real scheduler (the binary) and NATS server: a client
// without credentials, or with an nkey that is no member's, is not
// admitted; a member's identity in a forger's hands (w9) pulls the task and
// reports it done, outcome ok, watermark in 2100, and also sends a report
// said to be w1's; the scheduler refuses both (w9 does not hold the run;
// the other is not signed by w1), the blog stays running, and once the
// real worker w1 (the binary) runs it, it is archived with a true
// watermark.
func TestClusterForgedReportRefused(t *testing.T) {
	t.Parallel()
	e := newClusterEnv(t, clusterOpts{blogs: 1, maxDeliver: 5, maxPages: 8})
	listen := listenOf(t, e.config())
	sched := daemontest.Start(t, "run", "-config", e.config())
	daemontest.WaitFor(t, "scheduler active", 120*time.Second, func() bool { return strings.Contains(sched.Logs.String(), "active scheduler") })
	url := "nats://" + e.natsAddr

	if nc, err := nats.Connect(url, nats.MaxReconnects(0)); err == nil {
		nc.Close()
		t.Fatal("a client without credentials was admitted")
	} else {
		t.Logf("no credentials: %v", err)
	}
	stranger, _, _ := cluster.NewIdentity()
	if nc, err := nats.Connect(url, nats.MaxReconnects(0), nats.Nkey(stranger.Public(), stranger.Sign)); err == nil {
		nc.Close()
		t.Fatal("a stranger's nkey was admitted")
	}

	w9, err := cluster.LoadIdentity(e.keyFile("w9"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	forger, err := cluster.Connect(ctx, cluster.Options{URL: url, Name: "w9", Identity: w9, AckWait: testTTL})
	if err != nil {
		t.Fatal(err)
	}
	dl, err := forger.Receive(ctx)
	if err != nil {
		t.Fatal(err)
	}
	task := dl.Task()
	payload := json.RawMessage(`{"Outcome":"ok","Stats":{"Entries":999},"HasResult":true,"Watermark":"2100-01-01T00:00:00Z"}`)
	forged := dispatch.Report{Blog: task.Blog, Due: task.Due, Kind: dispatch.Done, Attempt: 1, Payload: payload}
	if err := forger.Report(ctx, forged); err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(url, nats.Nkey(w9.Public(), w9.Sign))
	if err != nil {
		t.Fatal(err)
	}
	forged.Worker, forged.Attempt = "w1", 2
	raw, _ := json.Marshal(forged)
	env, _ := json.Marshal(map[string]any{"report": json.RawMessage(raw), "signer": "w1", "sig": []byte("forged")})
	if err := nc.Publish(cluster.ReportsSubj, env); err != nil {
		t.Fatal(err)
	}
	nc.Flush()
	nc.Close()
	forger.Close() // the task it pulled is delivered again after ack_wait
	daemontest.WaitFor(t, "both forgeries refused", 120*time.Second, func() bool {
		return strings.Count(sched.Logs.String(), "report refused") >= 2
	})
	st, _ := getStatus(listen)
	if len(st.Blogs) != 1 || st.Blogs[0].Outcome == "ok" || st.Blogs[0].Watermark.Year() == 2100 {
		t.Fatalf("after the forgeries /status = %+v; want the run still in flight", st.Blogs)
	}

	e.worker("w1")
	daemontest.WaitFor(t, "the real run ended", 80*time.Second, ended(listen))
	st, _ = getStatus(listen)
	b := st.Blogs[0]
	if b.Outcome != "ok" || b.Entries == 0 || b.Entries == 999 || b.Worker != "w1" || b.Watermark.Year() >= 2100 {
		t.Errorf("after w1's run /status = %+v; want ok from w1 with its own figures", b)
	}
	e.checkCluster(listen)
	if t.Failed() {
		t.Logf("scheduler:\n%s", daemontest.LastLines(sched.Logs.String(), 30))
	}
}

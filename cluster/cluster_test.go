package cluster_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/cluster"
	"github.com/blogharvest/blogharvest/dispatch"
)

// connect starts a NATS server with JetStream in this process (data in a
// temp dir) admitting one member, "t", and connects to it as t.
func connect(t *testing.T, o cluster.Options) *cluster.Conn {
	t.Helper()
	id, _, err := cluster.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	members := map[string]string{"t": id.Public()}
	s, err := cluster.StartServer(cluster.ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Members: members})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	o.URL, o.Name, o.Identity, o.Members = s.URL(), "t", id, members
	c, err := cluster.Connect(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// TestTaskDeduplicatedEvenAfterAck: a due run enqueued twice is stored
// once, also when the first was already worked and acked (a scheduler that
// took over enqueues a finished run again); its report reaches Reports.
func TestTaskDeduplicatedEvenAfterAck(t *testing.T) {
	c := connect(t, cluster.Options{AckWait: time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	task := dispatch.Task{Blog: "b1", Due: time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)}
	if err := c.Enqueue(ctx, task); err != nil {
		t.Fatal(err)
	}
	if err := c.Enqueue(ctx, task); !errors.Is(err, dispatch.ErrDuplicate) {
		t.Fatalf("second enqueue: %v, want ErrDuplicate", err)
	}
	dl, err := c.Receive(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n, maxN := dl.Attempt(); dl.Task().ID() != task.ID() || n != 1 || maxN != 5 {
		t.Fatalf("received %s attempt %d/%d", dl.Task().ID(), n, maxN)
	}
	if err := c.Hold(ctx, "b1", task.Due); err != nil {
		t.Fatal(err)
	}
	if err := dl.Ack(dispatch.Report{Blog: "b1", Due: task.Due, Kind: dispatch.Done, Attempt: 1}); err != nil {
		t.Fatal(err)
	}
	if err := c.Enqueue(ctx, task); !errors.Is(err, dispatch.ErrDuplicate) {
		t.Fatalf("enqueue after ack: %v, want ErrDuplicate", err)
	}
	if q, err := c.Queue(ctx); err != nil || q.Depth != 0 {
		t.Fatalf("queue %+v, %v; want empty", q, err)
	}
	rctx, rcancel := context.WithCancel(ctx)
	var got []dispatch.Report
	c.Reports(rctx, func(r dispatch.Report) error { got = append(got, r); rcancel(); return nil })
	if len(got) != 1 || got[0].Kind != dispatch.Done {
		t.Fatalf("reports %+v", got)
	}
}

// TestTaskRedeliveredThenEnds: a task nacked is delivered again with the
// next attempt number; one never acked is redelivered after the ack wait.
func TestTaskRedeliveredThenEnds(t *testing.T) {
	c := connect(t, cluster.Options{AckWait: time.Second, MaxDeliver: 3})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	task := dispatch.Task{Blog: "b1", Due: time.Unix(1, 0)}
	c.Enqueue(ctx, task)
	dl, _ := c.Receive(ctx)
	dl.Nack(dispatch.Report{Blog: "b1", Due: task.Due, Kind: dispatch.Retry, Attempt: 1}, 0)
	dl, _ = c.Receive(ctx) // attempt 2: left unacked, as by a worker killed
	if n, _ := dl.Attempt(); n != 2 {
		t.Fatalf("attempt %d after a nack, want 2", n)
	}
	dl, err := c.Receive(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := dl.Attempt(); n != 3 {
		t.Fatalf("attempt %d after the ack wait, want 3", n)
	}
	dl.Term(dispatch.Report{Blog: "b1", Due: task.Due, Kind: dispatch.Done, Attempt: 3, Error: "always fails"})
	if q, _ := c.Queue(ctx); q.Depth != 0 {
		t.Fatalf("queue %+v after Term", q)
	}
}

// TestLease: a lease is held once; released, or lapsed with its holder,
// it can be taken again, and the old holder's renewal fails with ErrLost.
func TestLease(t *testing.T) {
	c := connect(t, cluster.Options{LeaseTTL: time.Second})
	ctx := context.Background()
	a, err := c.Acquire(ctx, cluster.HostKey("127.0.0.1:8080"), "a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Acquire(ctx, cluster.HostKey("127.0.0.1:8080"), "b"); !errors.Is(err, cluster.ErrHeld) {
		t.Fatalf("second holder: %v, want ErrHeld", err)
	}
	if err := a.Renew(ctx); err != nil {
		t.Fatal(err)
	}
	a.Release(ctx)
	b, err := c.Acquire(ctx, cluster.HostKey("127.0.0.1:8080"), "b")
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	var cl *cluster.Lease
	for cl == nil && time.Now().Before(deadline) { // b stops renewing: its lease lapses
		cl, _ = c.Acquire(ctx, cluster.HostKey("127.0.0.1:8080"), "c")
		time.Sleep(100 * time.Millisecond)
	}
	if cl == nil {
		t.Fatal("lease not lapsed")
	}
	if err := b.Renew(ctx); !errors.Is(err, cluster.ErrLost) {
		t.Fatalf("renewal of a lapsed lease: %v, want ErrLost", err)
	}
	if k := cluster.HostKey("Blog.Example:8443"); k != "host.blog.example_8443" {
		t.Errorf("HostKey = %q", k)
	}
}

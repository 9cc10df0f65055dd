package cluster_test

import (
	"context"
	"testing"
	"time"

	blogharvest "github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/cluster"
)

// TestEveryValidBlogIDIsAKey: a blog id the config accepts
// (blogharvest.ValidID) is a key of the leases and runs buckets
// (Acquire on BlogKey, Hold), and the ids NATS refuses as keys ("bad.",
// "a..b": an empty subject token) are refused by ValidID, so no blog
// passes -check and then never runs in cluster mode.
func TestEveryValidBlogIDIsAKey(t *testing.T) {
	c := connect(t, cluster.Options{})
	ctx := context.Background()
	for _, id := range []string{"a", "bad.", "a..b", "a.b", "0-x_y.z9", "blog.example.org", "x.-", "a._b", "a.b.", "a...b"} {
		valid := blogharvest.ValidID(id) == nil
		l, err := c.Acquire(ctx, cluster.BlogKey(id), "t")
		if err == nil {
			l.Release(ctx)
		}
		holdErr := c.Hold(ctx, id, time.Now())
		if valid && (err != nil || holdErr != nil) {
			t.Errorf("ValidID accepts %q, NATS refuses it: lease %v, run %v", id, err, holdErr)
		}
		if !valid && err == nil && holdErr == nil {
			t.Errorf("ValidID refuses %q, which NATS takes (%v)", id, blogharvest.ValidID(id))
		}
	}
}

package cluster_test

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/aip/s3store"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/s3test"
)

// TestClusterS3WorkerKilled: a scheduler and three workers archive into an
// S3 archive on a real S3-compatible server, with no shared folder (the
// config names s3://…; endpoint and credentials only in the environment).
// One worker is killed with SIGKILL mid-crawl, once its first entry is
// published; another completes its task. Nothing half-published (check
// through the store passes), nothing lost or doubled (every blog as many
// entries, one version each), and what the dead worker staged without a
// marker is invisible, left to the sweep.
func TestClusterS3WorkerKilled(t *testing.T) {
	archive, st := daemontest.NewS3Archive(t)
	srv := s3test.Start(t) // the server NewS3Archive used (one per test binary)
	prefix := strings.TrimPrefix(archive, "s3://"+srv.Bucket+"/")
	e := newClusterEnv(t, clusterOpts{blogs: 6, maxDeliver: 10, maxPages: 8, store: st, archive: archive})
	e.slow.Store(150)
	listen := listenOf(t, e.config())
	sched := daemontest.Start(t, "run", "-config", e.config())
	c, err := minio.New(srv.Endpoint, &minio.Options{Creds: credentials.NewStaticV4(srv.AccessKey, srv.SecretKey, "")})
	if err != nil {
		t.Fatal(err)
	}
	// w1 alone first, so that a bag staged without its marker is w1's:
	// it is killed the moment one is seen (or, if none is seen in time,
	// once its first entry is published)
	w1 := e.worker("w1")
	daemontest.WaitFor(t, "a first entry archived", 90*time.Second, e.anyEntry)
	midBag := ""
	for deadline := time.Now().Add(60 * time.Second); midBag == "" && time.Now().Before(deadline); {
		midBag = unpublishedBag(c, srv.Bucket, prefix)
	}
	w1.Cmd.Process.Signal(syscall.SIGKILL)
	<-w1.Done
	t.Logf("w1 killed while staging %q", midBag)
	if midBag != "" {
		if _, err := st.Stat(midBag); err == nil {
			t.Logf("%s was published between the listing and the kill", midBag)
		}
	}
	w2, w3 := e.worker("w2"), e.worker("w3")
	daemontest.WaitFor(t, "every blog's run ended", 120*time.Second, ended(listen))
	e.checkCluster(listen)
	if !strings.Contains(sched.Logs.String(), `"worker":"w2","attempt":2`) && !strings.Contains(sched.Logs.String(), `"worker":"w3","attempt":2`) {
		t.Logf("no task redelivered (w1 may have been between tasks when killed)")
	}
	// staged objects no marker names: the dead worker's half-written bags
	staged := 0
	for range c.ListObjects(context.Background(), srv.Bucket, minio.ListObjectsOptions{Prefix: prefix + "/.bags/", Recursive: true}) {
		staged++
	}
	removed, err := st.Sweep(context.Background(), 0)
	t.Logf("%d staged objects, %d of them named by no marker (swept), %v", staged, removed, err)
	if err != nil {
		t.Error(err)
	}
	if _, errs := aip.CheckStore(context.Background(), st, nil); len(errs) > 0 {
		t.Errorf("after Sweep: %v", errs)
	}
	w2.Stop(t, syscall.SIGTERM, 2*time.Minute)
	w3.Stop(t, syscall.SIGTERM, 2*time.Minute)
}

// unpublishedBag returns the final name of a bag staged under prefix whose
// marker is not written yet, or "".
func unpublishedBag(c *minio.Client, bucket, prefix string) string {
	ctx := context.Background()
	finals := map[string]bool{}
	for o := range c.ListObjects(ctx, bucket, minio.ListObjectsOptions{Prefix: prefix + "/.bags/", Recursive: true}) {
		rest := strings.TrimPrefix(o.Key, prefix+"/.bags/")
		if i := strings.Index(rest, "/v"); i > 0 {
			if j := strings.Index(rest[i+1:], "/"); j > 0 {
				finals[rest[:i+1+j]] = true
			}
		}
	}
	for f := range finals {
		if _, err := c.StatObject(ctx, bucket, prefix+"/"+f+"/"+s3store.Marker, minio.StatObjectOptions{}); err != nil {
			return f
		}
	}
	return ""
}

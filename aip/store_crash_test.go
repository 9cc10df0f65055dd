package aip_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/aip/s3store"
)

// crashS3Env names the S3 archive (s3://bucket/prefix) a re-executed test
// binary writes into until it is killed; the server's endpoint and
// credentials come in the environment (s3store.FromEnv).
const crashS3Env = "BLOGHARVEST_AIP_CRASH_S3"

// The numbers TestCrashS3 must reach (a write to S3 makes a request per
// file, so fewer kills fit in the time than on a folder).
const (
	wantS3Kills      = 24
	wantS3Inside     = 12
	wantS3InsideKind = 3
)

// TestCrashS3Child is TestCrashChild writing into an S3 archive: it sweeps
// every unpublished staged object (it is the prefix's only writer), then
// writes Blog and Entry AIPs until it is killed, reporting its progress
// inside each bag (each Put, then right before the marker).
func TestCrashS3Child(t *testing.T) {
	archive := os.Getenv(crashS3Env)
	if archive == "" {
		t.Skip("only run as TestCrashS3's child")
	}
	cfg, err := s3store.FromEnv(archive, "")
	if err != nil {
		t.Fatal(err)
	}
	st, err := s3store.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Sweep(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	writeUntilKilled(t, &aip.Writer{Store: st, Organization: "Example Library", Software: "blogharvest 0.1.0"})
}

// TestCrashS3 is TestCrash over the S3 backend: children writing into one
// S3 archive are killed with SIGKILL, mostly while they wait right after
// reporting a bag half written (after one of its objects, or right before
// its marker), some at a random moment. After each kill the bag reported
// half written is not visible through a fresh Store; at the end
// CheckStore is clean, and Sweep leaves no staged object that no marker
// names. The test fails if too few kills hit a write, of Blog and of
// Entry AIPs.
func TestCrashS3(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	st, srv, prefix := newS3Store(t)
	archive := "s3://" + srv.Bucket + "/" + prefix
	deadline := time.Now().Add(crashTimeBudget)
	var count crashCount
	lastInside := false
	for time.Now().Before(deadline) && !t.Failed() &&
		!(count.kills >= wantS3Kills && count.inside >= wantS3Inside && count.insideBlog >= wantS3InsideKind && count.insideEntry >= wantS3InsideKind) {
		last, final, kind := killS3Child(t, archive, srv.Env(), rand.IntN(4) != 0)
		inside := false
		if final != "" {
			fresh, err := s3store.New(context.Background(), s3store.Config{Endpoint: srv.Endpoint, Insecure: true,
				Bucket: srv.Bucket, Prefix: prefix, AccessKey: srv.AccessKey, SecretKey: srv.SecretKey})
			if err != nil {
				t.Fatal(err)
			}
			_, err = fresh.Stat(strings.TrimPrefix(final, st.String()+"/"))
			inside = errors.Is(err, fs.ErrNotExist)
			if err != nil && !inside {
				t.Errorf("stat %s: %v", final, err)
			}
			if !inside && !strings.Contains(last, "publish") {
				t.Logf("killed after %q, yet %s is published (the kill came after the marker)", last, final)
			}
		}
		count.add(inside, kind)
		lastInside = inside
	}
	t.Logf("%d kills, %d inside a bag write (%d Blog, %d Entry)", count.kills, count.inside, count.insideBlog, count.insideEntry)
	if count.kills < wantS3Kills || count.inside < wantS3Inside || count.insideBlog < wantS3InsideKind || count.insideEntry < wantS3InsideKind {
		t.Errorf("too few kills inside writes: want ≥ %d kills, ≥ %d inside, ≥ %d each kind", wantS3Kills, wantS3Inside, wantS3InsideKind)
	}
	tally, errs := aip.CheckStore(context.Background(), st, nil)
	for _, err := range errs {
		t.Errorf("final check: %v", err)
	}
	if tally.BlogVersions+tally.EntryVersions == 0 {
		t.Error("no complete AIP")
	}
	removed, err := st.Sweep(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	// every staged object left is a published bag's
	c := s3Client(t, srv)
	left := 0
	for o := range c.ListObjects(context.Background(), srv.Bucket, minio.ListObjectsOptions{Prefix: prefix + "/.bags/", Recursive: true}) {
		left++
		_ = o
	}
	if want := tally.Files + 6*(tally.BlogVersions+tally.EntryVersions+tally.RequisiteVersions); left != want {
		t.Errorf("after Sweep (%d removed): %d staged objects, want %d (the payload and 6 tag files of each published bag)", removed, left, want)
	}
	if lastInside && removed == 0 {
		t.Error("the last child was killed inside a bag, yet Sweep removed nothing")
	}
	t.Logf("%d published versions, %d payload files; Sweep removed %d unpublished objects", tally.BlogVersions+tally.EntryVersions, tally.Files, removed)
}

// killS3Child starts a child on archive and kills it (as killChild). It
// returns the child's last line and, when that line reports a bag half
// written, the bag's location and kind.
func killS3Child(t *testing.T, archive string, env []string, pause bool) (last, final, kind string) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashS3Child$")
	cmd.Env = append(append(os.Environ(), env...), crashS3Env+"="+archive, fmt.Sprintf("%s=%d", crashPauseEnv, map[bool]int{true: 1}[pause]))
	stdin, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		io.Copy(io.Discard, out)
	}()
	for l := range lines {
		if l == readyLine {
			break
		}
	}
	if pause {
		last = killAtHalf(cmd, stdin, lines, 1+rand.IntN(3))
	} else {
		last = killAtRandom(cmd, lines)
	}
	for l := range lines {
		last = l
	}
	cmd.Wait()
	if f := strings.Fields(last); len(f) == 6 && f[2] == "half" {
		return last, f[5], f[4]
	}
	return last, "", ""
}

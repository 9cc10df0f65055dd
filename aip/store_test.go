package aip_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/aip/s3store"
	"github.com/blogharvest/blogharvest/internal/s3test"
)

// backend is one implementation of aip.Store under test.
type backend struct {
	name string
	// open returns a Writer on a fresh, empty archive of the backend and
	// the Store to read it back; tamper overwrites the bag file rel of
	// the published bag final with other bytes of the same length.
	open func(t *testing.T) (*aip.Writer, aip.Store, func(t *testing.T, final, rel string))
}

// backends is the table every Store test runs over: the local folder and
// an S3-compatible store (SeaweedFS on loopback; skipped when absent).
var backends = []backend{
	{"local", func(t *testing.T) (*aip.Writer, aip.Store, func(*testing.T, string, string)) {
		w := newWriter(t)
		return w, &aip.Local{Root: w.Root}, func(t *testing.T, final, rel string) {
			p := filepath.Join(w.Root, filepath.FromSlash(final), filepath.FromSlash(rel))
			flipFile(t, p)
		}
	}},
	{"s3", func(t *testing.T) (*aip.Writer, aip.Store, func(*testing.T, string, string)) {
		st, srv, prefix := newS3Store(t)
		w := newWriter(t)
		w.Root, w.Store = "", st
		return w, st, func(t *testing.T, final, rel string) {
			c := s3Client(t, srv)
			ctx := context.Background()
			for o := range c.ListObjects(ctx, srv.Bucket, minio.ListObjectsOptions{Prefix: prefix + "/.bags/" + final + "/", Recursive: true}) {
				if strings.HasSuffix(o.Key, "/"+rel) {
					obj, err := c.GetObject(ctx, srv.Bucket, o.Key, minio.GetObjectOptions{})
					if err != nil {
						t.Fatal(err)
					}
					data := make([]byte, o.Size)
					obj.Read(data)
					obj.Close()
					data[0] ^= 0x20
					if _, err := c.PutObject(ctx, srv.Bucket, o.Key, strings.NewReader(string(data)), o.Size, minio.PutObjectOptions{}); err != nil {
						t.Fatal(err)
					}
					return
				}
			}
			t.Fatalf("no object %s of %s", rel, final)
		}
	}},
}

// flipFile changes one byte of the file p, keeping its length.
func flipFile(t *testing.T, p string) {
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data[0] ^= 0x20
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// newS3Store returns a Store on a fresh prefix of the shared test server.
func newS3Store(t *testing.T) (*s3store.Store, *s3test.Server, string) {
	srv := s3test.Start(t)
	var b [6]byte
	rand.Read(b[:])
	prefix := strings.ReplaceAll(t.Name(), "/", "-") + "-" + hex.EncodeToString(b[:])
	st, err := s3store.New(context.Background(), s3store.Config{Endpoint: srv.Endpoint, Insecure: true, Bucket: srv.Bucket,
		Prefix: prefix, AccessKey: srv.AccessKey, SecretKey: srv.SecretKey})
	if err != nil {
		t.Fatal(err)
	}
	return st, srv, prefix
}

// s3Client returns a plain client of the server, to tamper behind the
// Store's back.
func s3Client(t *testing.T, srv *s3test.Server) *minio.Client {
	c, err := minio.New(srv.Endpoint, &minio.Options{Creds: credentials.NewStaticV4(srv.AccessKey, srv.SecretKey, "")})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// storeName returns the Store name of a Result.Dir.
func storeName(st aip.Store, dir string) string {
	if l, ok := st.(*aip.Local); ok {
		rel, _ := filepath.Rel(l.Root, dir)
		return filepath.ToSlash(rel)
	}
	return strings.TrimPrefix(dir, st.String()+"/")
}

// TestStoreVersions is TestVersions over every backend: a first version,
// nothing written for an unchanged re-capture, a second version for a new
// comment with the first untouched, read back through the Store, and
// CheckStore clean with the right counts.
func TestStoreVersions(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			w, st, _ := b.open(t)
			ctx := context.Background()
			rb, err := w.WriteBlog(ctx, fixtureBlog())
			if err != nil || !rb.Written || rb.Version != 1 {
				t.Fatalf("blog: %+v, %v", rb, err)
			}
			e := fixtureEntry()
			r1, err := w.WriteEntry(ctx, e)
			if err != nil || !r1.Written || r1.Version != 1 {
				t.Fatalf("first write: %+v, %v", r1, err)
			}
			v1 := storeName(st, r1.Dir)
			mets1, err := fs.ReadFile(st, v1+"/data/METS.xml")
			if err != nil || !strings.Contains(string(mets1), "<mets:mets") {
				t.Fatalf("read back METS of %s: %v", v1, err)
			}
			r2, err := w.WriteEntry(ctx, fixtureEntry())
			if err != nil || r2.Written || r2.Version != 1 || r2.Dir != r1.Dir {
				t.Fatalf("unchanged: %+v, %v; want nothing written", r2, err)
			}
			e.Comments = append(e.Comments, blogharvest.Comment{ID: "comment-4", Author: "Oskar Falk",
				Content: "Same here.", ContentFormat: "text/plain", ParentID: "comment-3"})
			r3, err := w.WriteEntry(ctx, e)
			if err != nil || !r3.Written || r3.Version != 2 {
				t.Fatalf("new comment: %+v, %v; want v2", r3, err)
			}
			if n, err := aip.LatestVersionOf(st, path.Dir(v1)); n != 2 || err != nil {
				t.Errorf("LatestVersionOf = %d, %v", n, err)
			}
			if again, _ := fs.ReadFile(st, v1+"/data/METS.xml"); string(again) != string(mets1) {
				t.Error("v1 changed")
			}
			tally, errs := aip.CheckStore(ctx, st, nil)
			for _, err := range errs {
				t.Errorf("CheckStore: %v", err)
			}
			if tally.BlogVersions != 1 || tally.EntryVersions != 2 || tally.Files == 0 ||
				tally.Files != rb.PayloadFiles+r1.PayloadFiles+r3.PayloadFiles {
				t.Errorf("tally %+v; want 1 blog version, 2 entry versions, %d files", tally, rb.PayloadFiles+r1.PayloadFiles+r3.PayloadFiles)
			}
		})
	}
}

// TestStoreCheckTamper changes one byte of a published bag's capture log
// behind the Store's back: CheckStore must report a checksum mismatch
// naming that file at its place in the store.
func TestStoreCheckTamper(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			w, st, tamper := b.open(t)
			r, err := w.WriteEntry(context.Background(), fixtureEntry())
			if err != nil {
				t.Fatal(err)
			}
			if _, errs := aip.CheckStore(context.Background(), st, nil); len(errs) > 0 {
				t.Fatalf("before tampering: %v", errs)
			}
			final := storeName(st, r.Dir)
			tamper(t, final, "data/logs/capture.log")
			_, errs := aip.CheckStore(context.Background(), st, nil)
			found := false
			for _, err := range errs {
				var ce *aip.ChecksumError
				if errors.As(err, &ce) && ce.Path == r.Dir+"/data/logs/capture.log" {
					found = true
				}
			}
			if !found {
				t.Errorf("CheckStore after tampering with %s/data/logs/capture.log: %v; want a *ChecksumError naming it", r.Dir, errs)
			}
		})
	}
}

// TestS3WritersRace has two writers, with their own Store on the same
// bucket and prefix (two machines sharing no file system), write the same
// new entry at once, many times: each time exactly one version 1 is
// published (the marker's If-None-Match), the loser fails transiently,
// and CheckStore is clean.
func TestS3WritersRace(t *testing.T) {
	st, srv, prefix := newS3Store(t)
	other, err := s3store.New(context.Background(), s3store.Config{Endpoint: srv.Endpoint, Insecure: true, Bucket: srv.Bucket,
		Prefix: prefix, AccessKey: srv.AccessKey, SecretKey: srv.SecretKey})
	if err != nil {
		t.Fatal(err)
	}
	ws := []*aip.Writer{newWriter(t), newWriter(t)}
	ws[0].Root, ws[0].Store = "", st
	ws[1].Root, ws[1].Store = "", other
	lost := 0
	for i := range 6 {
		var wg sync.WaitGroup
		res := make([]aip.Result, 2)
		errs := make([]error, 2)
		for j, w := range ws {
			wg.Add(1)
			go func() {
				defer wg.Done()
				e := fixtureEntry()
				e.URL += "race-" + string(rune('a'+i)) + "/"
				res[j], errs[j] = w.WriteEntry(context.Background(), e)
			}()
		}
		wg.Wait()
		written := 0
		for j := range ws {
			switch {
			case errs[j] == nil && res[j].Written:
				written++
			case errs[j] != nil && blogharvest.IsTransient(errs[j]):
				lost++
			case errs[j] != nil:
				t.Errorf("round %d: writer %d: %v (want a transient error)", i, j, errs[j])
			}
		}
		if written != 1 && written+lost == 2 {
			// both may see the other's published v1 and write nothing (Written false): fine only if one did write
			t.Errorf("round %d: %d writers published version 1, want 1 (%v, %v)", i, written, errs[0], errs[1])
		}
	}
	t.Logf("%d of 6 rounds had a loser at the marker", lost)
	if _, errs := aip.CheckStore(context.Background(), st, nil); len(errs) > 0 {
		t.Errorf("CheckStore: %v", errs)
	}
}

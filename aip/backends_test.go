package aip_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/aip/s3store"
	"github.com/blogharvest/blogharvest/internal/s3test"
)

// backendNames are the aip.Store implementations the suite runs over: the
// local folder, and an S3-compatible store on a real S3 server started on
// loopback by internal/s3test (versitygw; gofakes3 only as its announced
// fallback; skipped when neither is there).
var backendNames = []string{"local", "s3"}

// testArchive is a fresh, empty archive on one backend: W writes into it,
// St reads it back (published bags only), and the methods give the tests a
// view of it that does not depend on the backend. A test written against
// it runs unchanged over both (forEachBackend).
type testArchive struct {
	backend string
	W       *aip.Writer
	St      aip.Store
	root    string          // local: the folder
	srv     *s3test.Server  // s3: the server
	s3      *s3store.Store  // s3: the store
	prefix  string          // s3: the archive's key prefix
	client  *minio.Client   // s3: a plain client, to work behind the store's back
	ctx     context.Context // context.Background()
}

// forEachBackend runs f as one subtest per backend, each on a fresh
// archive written by a newWriter-like Writer.
func forEachBackend(t *testing.T, f func(t *testing.T, a *testArchive)) {
	for _, b := range backendNames {
		t.Run(b, func(t *testing.T) { f(t, openArchive(t, b)) })
	}
}

// openArchive returns a fresh archive on the backend b ("local" or "s3").
func openArchive(t *testing.T, b string) *testArchive {
	t.Helper()
	w := newWriter(t)
	a := &testArchive{backend: b, W: w, ctx: context.Background()}
	switch b {
	case "local":
		a.root, a.St = w.Root, &aip.Local{Root: w.Root}
		t.Cleanup(func() { w.Close() })
	case "s3":
		a.s3, a.srv, a.prefix = newS3Store(t)
		a.St, w.Root, w.Store = a.s3, "", a.s3
		a.client = s3Client(t, a.srv)
	default:
		t.Fatalf("no backend %q", b)
	}
	return a
}

// newS3Store returns a Store on a fresh prefix of the shared test server.
func newS3Store(t *testing.T) (*s3store.Store, *s3test.Server, string) {
	srv := s3test.Start(t)
	var b [6]byte
	rand.Read(b[:])
	prefix := strings.ReplaceAll(t.Name(), "/", "-") + "-" + hex.EncodeToString(b[:])
	return openS3(t, srv, prefix), srv, prefix
}

// openS3 returns a new Store (a writer or reader of its own, as another
// machine would have) on prefix of srv.
func openS3(t *testing.T, srv *s3test.Server, prefix string) *s3store.Store {
	st, err := s3store.New(context.Background(), s3store.Config{Endpoint: srv.Endpoint, Insecure: true, Bucket: srv.Bucket,
		Prefix: prefix, AccessKey: srv.AccessKey, SecretKey: srv.SecretKey})
	if err != nil {
		t.Fatal(err)
	}
	return st
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

// name returns the store name of dir, a Result.Dir or error path.
func (a *testArchive) name(dir string) string {
	if a.backend == "local" {
		rel, err := filepath.Rel(a.root, dir)
		if err != nil {
			return filepath.ToSlash(dir)
		}
		return filepath.ToSlash(rel)
	}
	return strings.TrimPrefix(dir, a.St.String()+"/")
}

// loc returns what Result.Dir and error paths hold for the store name n.
func (a *testArchive) loc(n string) string {
	if a.backend == "local" {
		return filepath.Join(a.root, filepath.FromSlash(n))
	}
	return a.St.String() + "/" + n
}

// read returns the file rel of the bag dir (a Result.Dir), read through
// the Store.
func (a *testArchive) read(dir, rel string) ([]byte, error) {
	return fs.ReadFile(a.St, path.Join(a.name(dir), rel))
}

// glob returns the files of the bag dir matching pattern (relative to
// the bag), as store names.
func (a *testArchive) glob(dir, pattern string) []string {
	m, _ := fs.Glob(a.St, path.Join(a.name(dir), pattern))
	return m
}

// exists reports whether the store name n (a file or folder) is visible.
func (a *testArchive) exists(n string) bool {
	_, err := a.St.Stat(n)
	return err == nil
}

// latest returns the newest version of the record folder n.
func (a *testArchive) latest(t *testing.T, n string) int {
	t.Helper()
	v, err := aip.LatestVersionOf(a.St, n)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// check checks the whole archive: Check of the folder (the authority for a
// folder archive, links included), CheckStore of an S3 archive.
func (a *testArchive) check() []error {
	if a.backend == "local" {
		return aip.Check(a.root)
	}
	_, errs := aip.CheckStore(a.ctx, a.St, nil)
	return errs
}

// checkBag checks the bag dir: Check of its folder, or the problems
// CheckStore finds in it.
func (a *testArchive) checkBag(dir string) []error {
	if a.backend == "local" {
		return aip.Check(dir)
	}
	var out []error
	for _, err := range a.check() {
		if strings.Contains(err.Error(), dir+"/") || strings.Contains(err.Error(), dir+":") {
			out = append(out, err)
		}
	}
	return out
}

// files returns every file of every published bag, by store name.
func (a *testArchive) files(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := fs.WalkDir(a.St, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && p == aip.PublicationsDir {
			return fs.SkipDir // the publication log, outside the bags (TestPublicationLog)
		}
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(a.St, p)
		out[p] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// leftovers lists what unpublished bags left in the archive: the entries
// of the folder's .tmp, or the staged objects no marker names.
func (a *testArchive) leftovers(t *testing.T) []string {
	t.Helper()
	if a.backend == "local" {
		ents, _ := os.ReadDir(filepath.Join(a.root, aip.TmpDir))
		var out []string
		for _, e := range ents {
			out = append(out, e.Name())
		}
		return out
	}
	published := map[string]bool{}
	fs.WalkDir(openS3(t, a.srv, a.prefix), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			if m, ok := a.marker(t, p); ok {
				published[m.Objects] = true
				return fs.SkipDir
			}
		}
		return nil
	})
	var out []string
	for o := range a.client.ListObjects(a.ctx, a.srv.Bucket, minio.ListObjectsOptions{Prefix: a.prefix + "/.bags/", Recursive: true}) {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		rest := strings.TrimPrefix(o.Key, a.prefix+"/")
		keep := false
		for objs := range published {
			keep = keep || strings.HasPrefix(rest, objs+"/")
		}
		if !keep {
			out = append(out, rest)
		}
	}
	return out
}

// published reports whether the bag at dir (a Result.Dir) is visible to a
// reader that never saw it before.
func (a *testArchive) published(t *testing.T, dir string) bool {
	var st aip.Store = a.St
	if a.backend != "local" {
		st = openS3(t, a.srv, a.prefix)
	}
	_, err := st.Stat(a.name(dir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("stat %s: %v", dir, err)
	}
	return err == nil
}

// marker returns the S3 marker of the bag n, if it has one.
func (a *testArchive) marker(t *testing.T, n string) (*s3store.Manifest, bool) {
	obj, err := a.client.GetObject(a.ctx, a.srv.Bucket, a.prefix+"/"+n+"/"+s3store.Marker, minio.GetObjectOptions{})
	if err != nil {
		return nil, false
	}
	defer obj.Close()
	var m s3store.Manifest
	if err := json.NewDecoder(obj).Decode(&m); err != nil {
		return nil, false
	}
	return &m, true
}

// edit changes the published bag dir behind the Store's back, as an
// intruder or a failing disk would: change gets the bag as a folder and
// may change, add or remove files in it. On S3 the folder is a copy,
// whose changes are written back over the bag's objects, with the
// marker's file list rewritten to match (the intruder covers its tracks).
func (a *testArchive) edit(t *testing.T, dir string, change func(folder string)) {
	t.Helper()
	if a.backend == "local" {
		change(dir)
		return
	}
	n := a.name(dir)
	m, ok := a.marker(t, n)
	if !ok {
		t.Fatalf("edit: %s is not a published bag", dir)
	}
	folder := filepath.Join(t.TempDir(), "bag")
	before := map[string][]byte{}
	for rel := range m.Files {
		data, err := fs.ReadFile(a.St, n+"/"+rel)
		must(t, err)
		before[rel] = data
		p := filepath.Join(folder, filepath.FromSlash(rel))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, data, 0o644))
	}
	change(folder)
	after := readTree(t, folder)
	must(t, a.writeBack(a.prefix+"/"+m.Objects+"/", before, after))
	m.Files = map[string]int{}
	for rel, data := range after {
		m.Files[rel] = len(data)
	}
	data, _ := json.Marshal(m)
	must(t, a.writeBack(a.prefix+"/"+n+"/", nil, map[string][]byte{s3store.Marker: data}))
	a.s3 = openS3(t, a.srv, a.prefix) // the old one caches the marker it read
	a.St, a.W.Store = a.s3, a.s3
}

// importBag publishes the bag folder src at the store name final through
// the Store (Stage, Put, Publish), as the Writer would have.
func (a *testArchive) importBag(t *testing.T, src, final string) string {
	t.Helper()
	if a.backend == "local" {
		dst := filepath.Join(a.root, filepath.FromSlash(final))
		copyTree(t, src, dst)
		return dst
	}
	st, err := a.St.Stage(a.ctx, final)
	must(t, err)
	for rel, data := range readTree(t, src) {
		if _, err := st.Put(a.ctx, rel, bytes.NewReader(data), int64(len(data))); err != nil {
			t.Fatal(err)
		}
	}
	must(t, st.Publish(a.ctx))
	return a.loc(final)
}

// importArchive publishes every bag of the archive folder src.
func (a *testArchive) importArchive(t *testing.T, src string) {
	t.Helper()
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		must(t, err)
		if d.IsDir() && strings.HasPrefix(d.Name(), "v") {
			if _, err := os.Stat(filepath.Join(p, "bagit.txt")); err == nil {
				rel, _ := filepath.Rel(src, p)
				a.importBag(t, p, filepath.ToSlash(rel))
				return filepath.SkipDir
			}
		}
		return nil
	})
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

// editStaged changes the bag being written at final (a location, as the
// test hook gets it) before it is published, as another process could:
// change gets the staged bag as a folder (the folder's temp bag itself, or
// a copy of the staged objects whose changes are written back over them).
func (a *testArchive) editStaged(t *testing.T, final string, change func(folder string) error) error {
	if a.backend == "local" {
		return change(tempBag(t, a.root))
	}
	staging := a.prefix + "/.bags/" + a.name(final) + "/"
	folder := t.TempDir()
	before := map[string][]byte{}
	for o := range a.client.ListObjects(a.ctx, a.srv.Bucket, minio.ListObjectsOptions{Prefix: staging, Recursive: true}) {
		if o.Err != nil {
			return o.Err
		}
		obj, err := a.client.GetObject(a.ctx, a.srv.Bucket, o.Key, minio.GetObjectOptions{})
		if err != nil {
			return err
		}
		data, err := io.ReadAll(obj)
		obj.Close()
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(o.Key, staging) // <token>/<rel>
		before[rel] = data
		p := filepath.Join(folder, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	tokens, _ := os.ReadDir(folder)
	if len(tokens) != 1 {
		t.Fatalf("staged bags of %s: %d", final, len(tokens))
	}
	if err := change(filepath.Join(folder, tokens[0].Name())); err != nil {
		return err
	}
	return a.writeBack(staging, before, readTree(t, folder))
}

// writeBack makes the objects under the key prefix keys, which held
// before (by name relative to keys), hold after: puts what changed or is
// new, removes what is gone.
func (a *testArchive) writeBack(keys string, before, after map[string][]byte) error {
	for rel, data := range after {
		if old, ok := before[rel]; !ok || !bytes.Equal(old, data) {
			if _, err := a.client.PutObject(a.ctx, a.srv.Bucket, keys+rel, bytes.NewReader(data), int64(len(data)), minio.PutObjectOptions{}); err != nil {
				return err
			}
		}
	}
	for rel := range before {
		if _, ok := after[rel]; !ok {
			if err := a.client.RemoveObject(a.ctx, a.srv.Bucket, keys+rel, minio.RemoveObjectOptions{}); err != nil {
				return err
			}
		}
	}
	return nil
}

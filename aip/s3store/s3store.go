package s3store

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
)

// Marker is the name of the object, inside a bag's final folder, that
// publishes the bag: a JSON Manifest written last, with If-None-Match: *.
const Marker = ".bag.json"

// stagingDir is the key folder, under the prefix, where bags are written
// before their marker names them: <prefix>/.bags/<final>/<token>/<rel>.
const stagingDir = ".bags"

// Manifest is the content of a bag's Marker: where its objects are and
// what they are. It is written once and never changed.
type Manifest struct {
	Format  string         `json:"format"`  // "blogharvest-bag/1"
	Objects string         `json:"objects"` // the key folder of the objects, relative to the prefix
	Files   map[string]int `json:"files"`   // bag-relative name → size
	Written time.Time      `json:"written"`
}

const manifestFormat = "blogharvest-bag/1"

// Store is an aip.Store in an S3-compatible bucket under a prefix.
// Open it with New. Safe for concurrent use.
type Store struct {
	c      *minio.Client
	bucket string
	prefix string // "" or ending with "/"

	mu    sync.Mutex
	bags  map[string]*Manifest // published bags by final name: immutable once seen
	plain map[string]bool      // folders known not to be bags (an ancestor of a bag)

	requests atomic.Int64 // S3 requests made, for the report (Requests)
}

var _ aip.Store = (*Store)(nil)

// New connects to the bucket of cfg. It checks the bucket exists (one
// request); it never logs or returns a credential.
func New(ctx context.Context, cfg Config) (*Store, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	c, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds:  credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, cfg.SessionToken),
		Secure: !cfg.Insecure,
		Region: cfg.Region,
	})
	if err != nil {
		return nil, fmt.Errorf("s3 %s: %w", cfg.Endpoint, err)
	}
	s := &Store{c: c, bucket: cfg.Bucket, prefix: cleanPrefix(cfg.Prefix),
		bags: map[string]*Manifest{}, plain: map[string]bool{}}
	s.count()
	ok, err := c.BucketExists(ctx, cfg.Bucket)
	if err != nil {
		return nil, blogharvest.Transient(fmt.Errorf("%s: %w", s, err))
	}
	if !ok {
		return nil, fmt.Errorf("%s: no such bucket", s)
	}
	return s, nil
}

func cleanPrefix(p string) string {
	p = strings.Trim(path.Clean("/"+p), "/")
	if p == "" {
		return ""
	}
	return p + "/"
}

// String returns s3://bucket/prefix.
func (s *Store) String() string {
	return "s3://" + s.bucket + "/" + strings.TrimSuffix(s.prefix, "/")
}

// Requests returns how many S3 requests the store has made.
func (s *Store) Requests() int64 { return s.requests.Load() }

// processRequests counts the S3 requests of every Store of the process.
var processRequests atomic.Int64

// ProcessRequests returns how many S3 requests every Store of this process
// has made (for a command's summary).
func ProcessRequests() int64 { return processRequests.Load() }

// count counts one request.
func (s *Store) count() {
	s.requests.Add(1)
	processRequests.Add(1)
}

// key returns the object key of name.
func (s *Store) key(name string) string {
	if name == "." {
		return s.prefix
	}
	return s.prefix + name
}

// Open opens the object name of a published bag, or a folder.
func (s *Store) Open(name string) (fs.File, error) {
	info, err := s.Stat(name)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return &dirFile{info: info}, nil
	}
	if isRecord(name) {
		s.count()
		obj, err := s.c.GetObject(context.Background(), s.bucket, s.key(name), minio.GetObjectOptions{})
		if err != nil {
			return nil, s.pathErr("open", name, err)
		}
		return &objFile{Object: obj, info: info}, nil
	}
	_, rel, m, err := s.resolve(name)
	if err != nil {
		return nil, err
	}
	s.count()
	obj, err := s.c.GetObject(context.Background(), s.bucket, s.prefix+m.Objects+"/"+rel, minio.GetObjectOptions{})
	if err != nil {
		return nil, s.pathErr("open", name, err)
	}
	return &objFile{Object: obj, info: info}, nil
}

// Stat returns the FileInfo of name: a folder, a published bag (a
// folder), or an object of one.
func (s *Store) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	if name == "." {
		return dirInfo("."), nil
	}
	if isRecord(name) {
		s.count()
		if info, err := s.c.StatObject(context.Background(), s.bucket, s.key(name), minio.StatObjectOptions{}); err == nil {
			return fileInfo{name: path.Base(name), size: info.Size}, nil
		} else if err := s.pathErr("stat", name, err); !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	} else if _, rel, m, err := s.resolve(name); err == nil {
		if rel == "" || m.isDir(rel) {
			return dirInfo(path.Base(name)), nil
		}
		if size, ok := m.Files[rel]; ok {
			return fileInfo{name: path.Base(name), size: int64(size)}, nil
		}
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	// not in a bag: a folder of the archive if anything is below it
	s.count()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for o := range s.c.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: s.key(name) + "/", MaxKeys: 1}) {
		if o.Err != nil {
			return nil, s.pathErr("stat", name, o.Err)
		}
		return dirInfo(path.Base(name)), nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

// ReadDir lists the folder name, sorted: sub-folders (published bags
// among them) and, inside a bag, its objects. Staging is not listed.
func (s *Store) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	if _, rel, m, ok := s.cached(name); ok {
		return m.list(rel), nil
	}
	ents, isBag, err := s.list(name)
	if err != nil {
		return nil, err
	}
	if isBag || len(ents) == 0 && name != "." {
		_, rel, m, err := s.resolve(name)
		if err != nil {
			return nil, err
		}
		return m.list(rel), nil
	}
	return ents, nil
}

// list lists one level of folder name; isBag reports a Marker in it.
func (s *Store) list(name string) (ents []fs.DirEntry, isBag bool, err error) {
	prefix := s.key(name)
	if name != "." {
		prefix += "/"
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.count()
	for o := range s.c.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: prefix}) {
		if o.Err != nil {
			return nil, false, s.pathErr("readdir", name, o.Err)
		}
		base := strings.TrimPrefix(o.Key, prefix)
		switch {
		case base == Marker:
			isBag = true
		case name == "." && strings.HasPrefix(base, stagingDir+"/"):
		case strings.HasSuffix(base, "/"):
			ents = append(ents, fs.FileInfoToDirEntry(dirInfo(strings.TrimSuffix(base, "/"))))
		default:
			ents = append(ents, fs.FileInfoToDirEntry(fileInfo{name: base, size: o.Size}))
		}
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	return ents, isBag, nil
}

// cached returns the known bag holding name, if any.
func (s *Store) cached(name string) (final, rel string, m *Manifest, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for d := name; d != "." && d != "/" && d != ""; d = path.Dir(d) {
		if m := s.bags[d]; m != nil {
			return d, strings.TrimPrefix(strings.TrimPrefix(name, d), "/"), m, true
		}
	}
	return "", "", nil, false
}

// resolve finds the published bag holding name (rel "" for the bag's own
// folder): from the cache, or by reading the Marker of each ancestor not
// known to be a plain folder, shallowest first.
func (s *Store) resolve(name string) (final, rel string, m *Manifest, err error) {
	if final, rel, m, ok := s.cached(name); ok {
		return final, rel, m, nil
	}
	parts := strings.Split(name, "/")
	for i := 1; i <= len(parts); i++ {
		d := strings.Join(parts[:i], "/")
		s.mu.Lock()
		plain := s.plain[d]
		s.mu.Unlock()
		if plain {
			continue
		}
		m, err := s.readMarker(d)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", "", nil, err
		}
		s.remember(d, m)
		return d, strings.Join(parts[i:], "/"), m, nil
	}
	return "", "", nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// remember caches a published bag and marks its ancestors as plain
// folders (a bag is never inside another).
func (s *Store) remember(final string, m *Manifest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bags[final] = m
	for d := path.Dir(final); d != "." && d != "/"; d = path.Dir(d) {
		s.plain[d] = true
	}
}

// readMarker reads and parses the Marker of final.
func (s *Store) readMarker(final string) (*Manifest, error) {
	s.count()
	obj, err := s.c.GetObject(context.Background(), s.bucket, s.key(final)+"/"+Marker, minio.GetObjectOptions{})
	if err != nil {
		return nil, s.pathErr("open", final, err)
	}
	defer obj.Close()
	data, err := io.ReadAll(io.LimitReader(obj, 16<<20))
	if err != nil {
		return nil, s.pathErr("open", final+"/"+Marker, err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil || m.Format != manifestFormat || m.Objects == "" {
		return nil, fmt.Errorf("%s: %s/%s: not a bag marker (%v)", s, final, Marker, err)
	}
	return &m, nil
}

// pathErr wraps an S3 error for name, mapping NoSuchKey onto fs.ErrNotExist
// and marking the rest transient.
func (s *Store) pathErr(op, name string, err error) error {
	resp := minio.ToErrorResponse(err)
	if resp.Code == "NoSuchKey" || resp.StatusCode == http.StatusNotFound {
		return &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	}
	return blogharvest.Transient(fmt.Errorf("%s: %s %s: %w", s, op, name, err))
}

// Remove deletes the object name (a staging object: published bags are
// kept; this never deletes through a marker).
func (s *Store) Remove(ctx context.Context, name string) error {
	s.count()
	if err := s.c.RemoveObject(ctx, s.bucket, s.key(name), minio.RemoveObjectOptions{}); err != nil {
		if errors.Is(s.pathErr("remove", name, err), fs.ErrNotExist) {
			return nil
		}
		return s.pathErr("remove", name, err)
	}
	return nil
}

// Stage begins a bag under a fresh temporary key,
// <prefix>/.bags/<final>/<token>/.
func (s *Store) Stage(ctx context.Context, final string) (aip.Staged, error) {
	if !fs.ValidPath(final) || final == "." {
		return nil, fmt.Errorf("%s: stage %q: invalid name", s, final)
	}
	var b [12]byte
	rand.Read(b[:])
	objects := stagingDir + "/" + final + "/" + time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
	return &staged{s: s, final: final, objects: objects, files: map[string]int{}, etags: map[string]string{}}, nil
}

// staged is a bag being written to S3.
type staged struct {
	s       *Store
	final   string
	objects string
	mu      sync.Mutex
	files   map[string]int
	etags   map[string]string // the ETag the server gave each Put, for Publish's check
}

// Put uploads rel (a single PUT: S3 makes an object visible whole or not
// at all).
func (b *staged) Put(ctx context.Context, rel string, r io.Reader, size int64) (int64, error) {
	if !fs.ValidPath(rel) || rel == "." {
		return 0, fmt.Errorf("put %q: invalid name", rel)
	}
	cr := &countReader{r: r}
	b.s.count()
	info, err := b.s.c.PutObject(ctx, b.s.bucket, b.s.prefix+b.objects+"/"+rel, cr, size,
		minio.PutObjectOptions{ContentType: "application/octet-stream", DisableMultipart: size >= 0 && size < 64<<20})
	if err != nil {
		return cr.n, blogharvest.Transient(fmt.Errorf("%s: put %s/%s: %w", b.s, b.final, rel, err))
	}
	if size >= 0 && info.Size != size {
		return cr.n, fmt.Errorf("%s: put %s/%s: stored %d bytes, want %d", b.s, b.final, rel, info.Size, size)
	}
	b.mu.Lock()
	b.files[rel] = int(info.Size)
	b.etags[rel] = strings.Trim(info.ETag, `"`)
	b.mu.Unlock()
	return info.Size, nil
}

// Publish lists the staged objects (each must be there with its size and
// the ETag its Put was given, nothing else: an object rewritten since,
// even with as many bytes, is caught), then writes the Marker with If-None-Match: * — the one
// request that makes the bag visible; a bag already published at final
// (another writer's) makes it fail and leaves that bag alone.
func (b *staged) Publish(ctx context.Context) error {
	found := map[string]minio.ObjectInfo{}
	b.s.count()
	prefix := b.s.prefix + b.objects + "/"
	for o := range b.s.c.ListObjects(ctx, b.s.bucket, minio.ListObjectsOptions{Prefix: prefix, Recursive: true}) {
		if o.Err != nil {
			return blogharvest.Transient(fmt.Errorf("%s: publish %s: %w", b.s, b.final, o.Err))
		}
		found[strings.TrimPrefix(o.Key, prefix)] = o
	}
	var problems []string
	for rel, size := range b.files {
		if got, ok := found[rel]; !ok {
			problems = append(problems, rel+" is missing")
		} else if int(got.Size) != size {
			problems = append(problems, fmt.Sprintf("%s has %d bytes, %d were written", rel, got.Size, size))
		} else if etag := strings.Trim(got.ETag, `"`); etag != b.etags[rel] {
			problems = append(problems, fmt.Sprintf("%s was rewritten (ETag %s, %s when written)", rel, etag, b.etags[rel]))
		}
		delete(found, rel)
	}
	for rel := range found {
		problems = append(problems, rel+" was added")
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		return fmt.Errorf("%s: bag %s is no longer whole, not published: %s", b.s, b.final, strings.Join(problems, "; "))
	}
	if hook != nil {
		hook(b.final)
	}
	m := Manifest{Format: manifestFormat, Objects: b.objects, Files: b.files, Written: time.Now().UTC()}
	data, _ := json.MarshalIndent(m, "", " ")
	opts := minio.PutObjectOptions{ContentType: "application/json", DisableMultipart: true}
	opts.SetMatchETagExcept("*")
	b.s.count()
	_, err := b.s.c.PutObject(ctx, b.s.bucket, b.s.key(b.final)+"/"+Marker, bytes.NewReader(data), int64(len(data)), opts)
	if err != nil {
		if resp := minio.ToErrorResponse(err); resp.StatusCode == http.StatusPreconditionFailed || resp.Code == "PreconditionFailed" {
			return blogharvest.Transient(fmt.Errorf("%s: publish %s: version exists", b.s, b.final))
		}
		return blogharvest.Transient(fmt.Errorf("%s: publish %s: %w", b.s, b.final, err))
	}
	b.s.remember(b.final, &m)
	return nil
}

// Abort removes the staged objects (best effort: Sweep removes what is left).
func (b *staged) Abort(ctx context.Context) error {
	var errs []error
	for rel := range b.files {
		errs = append(errs, b.s.Remove(ctx, b.objects+"/"+rel))
	}
	return errors.Join(errs...)
}

// hook, if set (by tests), is called right before a marker is written.
var hook func(final string)

// Sweep removes staged objects that no marker names and that are older
// than grace (a writer that died, or lost a race, left them). Bags being
// written are younger than grace: it must exceed the longest bag write.
// It returns how many objects it removed.
func (s *Store) Sweep(ctx context.Context, grace time.Duration) (int, error) {
	groups := map[string][]minio.ObjectInfo{} // by objects folder
	prefix := s.prefix + stagingDir + "/"
	s.count()
	for o := range s.c.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: prefix, Recursive: true}) {
		if o.Err != nil {
			return 0, blogharvest.Transient(fmt.Errorf("%s: sweep: %w", s, o.Err))
		}
		rest := strings.TrimPrefix(o.Key, s.prefix)
		dir := stagingFolder(rest)
		if dir != "" {
			groups[dir] = append(groups[dir], o)
		}
	}
	removed := 0
	now := time.Now()
	for dir, objs := range groups {
		young := false
		for _, o := range objs {
			young = young || now.Sub(o.LastModified) < grace
		}
		if young {
			continue
		}
		final := path.Dir(strings.TrimPrefix(dir, stagingDir+"/"))
		m, err := s.readMarker(final)
		if err == nil && m.Objects == dir {
			continue // published
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, err
		}
		for _, o := range objs {
			if err := s.Remove(ctx, strings.TrimPrefix(o.Key, s.prefix)); err != nil {
				return removed, err
			}
			removed++
		}
	}
	return removed, nil
}

// stagingFolder returns the .bags/<final>/<token> folder of a staged
// object's key (relative to the prefix): the first component after
// .bags/ that looks like a token.
func stagingFolder(rest string) string {
	parts := strings.Split(rest, "/")
	for i := 2; i < len(parts)-1; i++ {
		if isToken(parts[i]) {
			return strings.Join(parts[:i+1], "/")
		}
	}
	return ""
}

// isToken reports whether s is a Stage token: <UTC stamp>-<24 hex>.
func isToken(s string) bool {
	stamp, h, ok := strings.Cut(s, "-")
	if !ok || len(h) != 24 {
		return false
	}
	_, err := time.Parse("20060102T150405Z", stamp)
	_, herr := hex.DecodeString(h)
	return err == nil && herr == nil
}

// isDir reports whether rel is a folder of the bag.
func (m *Manifest) isDir(rel string) bool {
	for f := range m.Files {
		if strings.HasPrefix(f, rel+"/") {
			return true
		}
	}
	return false
}

// list returns the entries of the bag folder rel ("" the bag itself).
func (m *Manifest) list(rel string) []fs.DirEntry {
	prefix := ""
	if rel != "" {
		prefix = rel + "/"
	}
	seen := map[string]bool{}
	var ents []fs.DirEntry
	for f, size := range m.Files {
		rest, ok := strings.CutPrefix(f, prefix)
		if !ok {
			continue
		}
		first, _, sub := strings.Cut(rest, "/")
		if seen[first] {
			continue
		}
		seen[first] = true
		if sub {
			ents = append(ents, fs.FileInfoToDirEntry(dirInfo(first)))
		} else {
			ents = append(ents, fs.FileInfoToDirEntry(fileInfo{name: first, size: int64(size)}))
		}
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	return ents
}

// countReader counts what is read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// fileInfo and dirInfo describe objects and folders.
type fileInfo struct {
	name string
	size int64
}

func (f fileInfo) Name() string       { return f.name }
func (f fileInfo) Size() int64        { return f.size }
func (f fileInfo) Mode() fs.FileMode  { return 0o444 }
func (f fileInfo) ModTime() time.Time { return time.Time{} }
func (f fileInfo) IsDir() bool        { return false }
func (f fileInfo) Sys() any           { return nil }

type dirInfo string

func (d dirInfo) Name() string       { return string(d) }
func (d dirInfo) Size() int64        { return 0 }
func (d dirInfo) Mode() fs.FileMode  { return fs.ModeDir | 0o555 }
func (d dirInfo) ModTime() time.Time { return time.Time{} }
func (d dirInfo) IsDir() bool        { return true }
func (d dirInfo) Sys() any           { return nil }

// objFile is an open object.
type objFile struct {
	*minio.Object
	info fs.FileInfo
}

func (f *objFile) Stat() (fs.FileInfo, error) { return f.info, nil }

// dirFile is an open folder (read it with ReadDir on the Store).
type dirFile struct{ info fs.FileInfo }

func (d *dirFile) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.Name(), Err: errors.New("is a directory")}
}
func (d *dirFile) Close() error { return nil }

// isRecord reports whether name lies in a folder of records (the
// publication log, aip.PublicationsDir; the blogs' states, aip.StateDir),
// whose objects are written one PUT each (PutRecord), not published as a
// bag: no marker is looked for. The audit records (.audit) are published
// as bags are, and read as bags.
func isRecord(name string) bool {
	first, _, _ := strings.Cut(name, "/")
	return first == aip.PublicationsDir || first == aip.StateDir
}

// PutRecord writes the object name (the publication log's: outside any
// bag) with one PUT, If-None-Match: * so that it is never replaced.
func (s *Store) PutRecord(ctx context.Context, name string, data []byte) error {
	if !fs.ValidPath(name) || name == "." {
		return fmt.Errorf("%s: put record %q: invalid name", s, name)
	}
	opts := minio.PutObjectOptions{ContentType: "application/json", DisableMultipart: true}
	opts.SetMatchETagExcept("*")
	s.count()
	if _, err := s.c.PutObject(ctx, s.bucket, s.key(name), bytes.NewReader(data), int64(len(data)), opts); err != nil {
		if resp := minio.ToErrorResponse(err); resp.StatusCode == http.StatusPreconditionFailed || resp.Code == "PreconditionFailed" {
			return fmt.Errorf("%s: put record %s: %w", s, name, fs.ErrExist)
		}
		return blogharvest.Transient(fmt.Errorf("%s: put record %s: %w", s, name, err))
	}
	return nil
}

// ListRecords lists the objects below dir whose names sort after after:
// one listing (StartAfter), in key order.
func (s *Store) ListRecords(ctx context.Context, dir, after string) ([]string, error) {
	opts := minio.ListObjectsOptions{Prefix: s.key(dir) + "/", Recursive: true}
	if after != "" {
		opts.StartAfter = s.key(after)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.count()
	var out []string
	for o := range s.c.ListObjects(ctx, s.bucket, opts) {
		if o.Err != nil {
			return nil, s.pathErr("list", dir, o.Err)
		}
		n := strings.TrimPrefix(o.Key, s.prefix)
		if n > after && !strings.HasSuffix(n, "/") {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}

// ReadRecord reads the object name.
func (s *Store) ReadRecord(ctx context.Context, name string) ([]byte, error) {
	s.count()
	obj, err := s.c.GetObject(ctx, s.bucket, s.key(name), minio.GetObjectOptions{})
	if err != nil {
		return nil, s.pathErr("read", name, err)
	}
	defer obj.Close()
	data, err := io.ReadAll(io.LimitReader(obj, 1<<20))
	if err != nil {
		return nil, s.pathErr("read", name, err)
	}
	return data, nil
}

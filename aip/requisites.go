package aip

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/warc"
)

// Page requisites (blogharvest.RoleRequisite files: stylesheets, scripts,
// fonts, images outside the article, favicons, iframe documents) are kept
// once per payload digest and blog, in the blog's requisites package:
//
//	<archive>/<blog-id>/requisites/v<N>/
//
// Each v<N> is a bag like the others (kind Requisites, no MARC record) that
// adds the requisites no earlier v<N> holds: each file in
// data/objects/requisites/ and as a response record (with its request) in
// data/objects/warc/requisites.warc.gz. Versions do not replace each other:
// together they are the blog's store. A Blog or Entry AIP holds, for each of
// its page's requisites, a WARC revisit record (profile
// identical-payload-digest) with WARC-Refers-To-Target-URI and
// WARC-Refers-To-Date naming the first capture, and its METS names the
// requisites packages it depends on (PREMIS relationship dependency /
// requires). The requisites package of a payload is written before the AIP
// that refers to it, so a crash never leaves a revisit without its
// original; an AIP together with the requisites packages it names replays on
// its own. The exception are the requisites an Entry's article names
// itself (the other sizes of the post's own pictures, which no other page
// shows): response records in the Entry's own WARC, so that the store does
// not grow a version per post.

// RequisitesDir returns <root>/<blog-id>/requisites, the folder of the
// blog's requisites packages.
func RequisitesDir(root, blogID string) (string, error) {
	if err := blogharvest.ValidID(blogID); err != nil {
		return "", blogharvest.Permanent(fmt.Errorf("aip: blog id: %w", err))
	}
	return filepath.Join(root, blogID, requisitesDir), nil
}

// RequisitesPermalink is the identifier the requisites packages of the blog
// at blogURL are named by (their OBJID is ObjID(RequisitesPermalink, N)).
func RequisitesPermalink(blogURL string) string { return blogURL + "#requisites" }

// requisitesKey is the key of a requisites package: its WARC's name.
const requisitesKey = "requisites"

// requisitesDir is the folder of a blog's requisites package versions.
const requisitesDir = "requisites"

// origin is the first capture of a payload in a requisites package.
type origin struct {
	url     string    // its WARC-Target-URI
	date    time.Time // its WARC-Date, to the second
	version int       // the requisites package version holding it
}

// requisiteStore is what one blog's requisites packages hold, by payload
// sha256 (hex). Its lock is held while a requisites package is written.
type requisiteStore struct {
	mu     sync.Mutex
	loaded bool
	byHash map[string]origin
}

// store returns the requisite store of a blog.
func (w *Writer) store(blogID string) *requisiteStore {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.reqs == nil {
		w.reqs = map[string]*requisiteStore{}
	}
	s := w.reqs[blogID]
	if s == nil {
		s = &requisiteStore{byHash: map[string]origin{}}
		w.reqs[blogID] = s
	}
	return s
}

// load reads the CDXJ indexes of the blog's requisites packages, the
// folder dir of fsys, into s.
func (s *requisiteStore) load(fsys fs.ReadDirFS, dir string) error {
	if s.loaded {
		return nil
	}
	latest, err := LatestVersionOf(fsys, dir)
	if err != nil {
		return err
	}
	for v := 1; v <= latest; v++ {
		data, err := fs.ReadFile(fsys, path.Join(dir, versionName(v), "data", cdxjIndex))
		if errors.Is(err, fs.ErrNotExist) {
			continue // a gap: versions are never removed, but do not fail on one
		}
		if err != nil {
			return fmt.Errorf("aip: requisites: %w", err)
		}
		lines, err := warc.ParseIndex(data)
		if err != nil {
			return fmt.Errorf("aip: requisites %s: %w", versionName(v), err)
		}
		for _, l := range lines {
			h, ok := strings.CutPrefix(l.Digest, "sha256:")
			if !ok || l.Mime == "warc/revisit" {
				continue
			}
			if _, seen := s.byHash[h]; !seen {
				t, _ := time.Parse("20060102150405", l.Timestamp)
				s.byHash[h] = origin{url: l.URL, date: t, version: v}
			}
		}
	}
	s.loaded = true
	return nil
}

// storeRequisites makes sure every requisite of p is held by a requisites
// package of its blog, writing a new version with those none holds yet,
// and records in p.origins where each one lives.
func (w *Writer) storeRequisites(ctx context.Context, p *pkg, blogURL string) error {
	dir, err := RequisitesDir(w.Root, p.blogID)
	if err != nil {
		return err
	}
	s := w.store(p.blogID)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.load(w.readStore(), w.name(dir)); err != nil {
		return blogharvest.Transient(err)
	}
	var fresh []blogharvest.File
	added := map[string]bool{}
	for _, f := range p.requisites {
		if _, ok := s.byHash[f.SHA256]; !ok && !added[f.SHA256] {
			added[f.SHA256] = true
			fresh = append(fresh, *f)
		}
	}
	if len(fresh) > 0 {
		rp := &pkg{kind: kindRequisites, blogID: p.blogID, key: requisitesKey, permalink: RequisitesPermalink(blogURL), dir: dir}
		res, err := w.write(ctx, rp, fresh)
		if err != nil {
			return fmt.Errorf("requisites package: %w", err)
		}
		for _, f := range fresh {
			s.byHash[f.SHA256] = origin{url: targetURL(&f), date: captureDate(&f), version: res.Version}
		}
	}
	p.origins = map[string]origin{}
	for _, f := range p.requisites {
		p.origins[f.SHA256] = s.byHash[f.SHA256]
	}
	p.requisitesURL = RequisitesPermalink(blogURL)
	return nil
}

// ArchivedRequisites returns the verified requisites the blog's requisites
// packages in the archive s hold (as ArchivedCaptures returns media: Path
// or Body, SHA256, the
// original capture time, status and headers, Reused naming the response
// record), the latest capture of each URL, for an UpdateCrawl to reuse or
// revalidate (harvest.Options.ArchivedRequisites). None, and no error,
// when the blog has no requisites package.
func ArchivedRequisites(s Store, blogID string) ([]blogharvest.File, error) {
	dir, err := RequisitesDir("", blogID)
	if err != nil {
		return nil, err
	}
	dir = filepath.ToSlash(dir)
	latest, err := LatestVersionOf(s, dir)
	if err != nil || latest == 0 {
		return nil, err
	}
	byURL := map[string]int{}
	var out []blogharvest.File
	for v := 1; v <= latest; v++ {
		bag := path.Join(dir, versionName(v))
		if _, err := s.Stat(bag); errors.Is(err, fs.ErrNotExist) {
			continue // a gap: versions are never removed, but do not fail on one
		}
		files, err := verifiedFiles(s, bag, []blogharvest.Role{blogharvest.RoleRequisite})
		if err != nil {
			return nil, fmt.Errorf("aip: requisites %s: %w", Location(s, bag), err)
		}
		for _, f := range files {
			if i, ok := byURL[f.URL]; ok {
				out[i] = f
				continue
			}
			byURL[f.URL] = len(out)
			out = append(out, f)
		}
	}
	return out, nil
}

// targetURL is the URL of the record holding f's payload: the last
// exchange's, or the file's.
func targetURL(f *blogharvest.File) string {
	if n := len(f.Exchanges); n > 0 {
		return f.Exchanges[n-1].URL
	}
	return f.URL
}

// captureDate is the WARC-Date of the record holding f's payload, to the
// second, as the warc Writer writes it.
func captureDate(f *blogharvest.File) time.Time {
	t := f.Captured
	if n := len(f.Exchanges); n > 0 {
		x := f.Exchanges[n-1]
		t = x.Sent
		if t.IsZero() {
			t = x.Received
		}
	}
	return t.UTC().Truncate(time.Second)
}

// namedIn reports whether an article's HTML names the URL raw, absolute or
// by its path and query.
func namedIn(content, raw string) bool {
	if content == "" {
		return false
	}
	if strings.Contains(content, raw) {
		return true
	}
	u, err := url.Parse(raw)
	return err == nil && u.RequestURI() != "/" && strings.Contains(content, u.RequestURI())
}

// requisiteRecords writes, for each requisite of p, its redirect hops as
// response records and its last exchange as a revisit record referring to
// its first capture in the requisites package. Each of these response and
// revisit records, whether the Go client fetched the requisite or the
// browser received it, is WARC-Concurrent-To page (the response record of
// the package's page, when it has one): the requisite was captured in the
// same event as the page it was captured for.
func (p *pkg) requisiteRecords(w *warc.Writer, page string) error {
	for _, f := range p.own {
		xs := f.Exchanges
		if len(xs) == 0 {
			xs = []blogharvest.Exchange{{URL: f.URL, Status: f.Status, ResponseHeader: http.Header(f.Header).Clone(), Sent: f.Captured}}
		}
		body, err := requisiteBody(f)
		if err != nil {
			return err
		}
		id, err := w.CaptureConcurrentTo(xs, body, page)
		if err != nil {
			return err
		}
		f.WARCRecordID = id
	}
	for _, f := range p.requisites {
		body, err := requisiteBody(f)
		if err != nil {
			return err
		}
		xs := f.Exchanges
		if len(xs) == 0 {
			xs = []blogharvest.Exchange{{URL: f.URL, Status: f.Status, ResponseHeader: f.Header, Sent: f.Captured}}
		}
		for _, hop := range xs[:len(xs)-1] {
			if _, err := w.CaptureConcurrentTo([]blogharvest.Exchange{hop}, hop.Body, page); err != nil {
				return err
			}
		}
		o := p.origins[f.SHA256]
		id, err := w.Revisit(xs[len(xs)-1], body, warc.Original{URL: o.url, Date: o.date}, page)
		if err != nil {
			return err
		}
		f.WARCRecordID = id
	}
	return nil
}

// requisiteBody returns the payload of a requisite: its Body, or the
// archived file at its Path (a requisite reused from the requisites
// package, harvest/requisitestore.go).
func requisiteBody(f *blogharvest.File) ([]byte, error) {
	if f.Body != nil || f.Path == "" {
		return f.Body, nil
	}
	return os.ReadFile(f.Path)
}

// requisiteVersions returns the versions of the requisites package p's
// revisit records refer to, in order.
func (p *pkg) requisiteVersions() []int {
	var vs []int
	for _, o := range p.origins {
		if !slices.Contains(vs, o.version) {
			vs = append(vs, o.version)
		}
	}
	slices.Sort(vs)
	return vs
}

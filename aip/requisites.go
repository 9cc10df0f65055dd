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
// Each v<N> is a bag like the others (kind Requisites, no descriptive
// record) that adds the requisites no earlier v<N> holds: each file in
// data/objects/requisites/ and the exchanges that fetched it (response
// records, with their requests) in data/objects/warc/requisites.warc.gz.
// Versions do not replace each other: together they are the blog's store.
// The requisites package of a payload is written before the AIP that needs
// it, so a crash never leaves a reference without its original.
//
// Every fetch is recorded once in the archive, in the WARC of the first
// package written that needs it (fetchKey): a requisite whose payload is
// new, in the requisites package; a fetch whose payload a requisites
// package already holds (the same bytes under another URL, a revalidation
// answered 304, a file fetched whole again by an update), as a revisit
// record naming the original by WARC-Refers-To, -Target-URI and -Date, and
// its request, in the Blog or Entry AIP whose page it was fetched for. A
// requisite the crawl did not fetch (shared from the crawl's cache with
// an earlier page, or reused while fresh from the store) has no record:
// the page's metadata record lists every requisite it embeds (an outlink
// line, as Heritrix writes them), the page's PREMIS object requires each
// by URL, and the package's METS names the requisites package versions it
// depends on (PREMIS relationship dependency / requires). Replay finds a
// requisite by URL in the requisites packages; an AIP together with them
// replays on its own. The exception are the requisites an Entry's article
// names itself (the other sizes of the post's own pictures, which no other
// page shows): response records in the Entry's own WARC, so that the store
// does not grow a version per post.

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
	id      string    // its WARC-Record-ID, "urn:uuid:…"
	version int       // the requisites package version holding it
}

// requisiteStore is what one blog's requisites packages hold, by payload
// sha256 (hex), and which fetches of requisites a WARC written by this
// Writer records (fetchKey). Its lock is held while a requisites package
// is written and while a package claims the fetches it records.
type requisiteStore struct {
	mu       sync.Mutex
	loaded   bool
	byHash   map[string]origin
	recorded map[string]time.Time // fetchKey → when the fetch was sent
}

// keepRecorded is how long requisiteStore remembers a recorded fetch once
// it remembers more than maxRecorded: the Files of one crawl, which share
// a fetch between the pages written from it, are written within it.
const (
	keepRecorded = 72 * time.Hour
	maxRecorded  = 4096
)

// record remembers the fetch k, sent at t, as recorded, forgetting those
// older than keepRecorded when it holds more than maxRecorded (the memory
// of a long-running daemon does not grow with every crawl).
func (s *requisiteStore) record(k string, t time.Time) {
	if len(s.recorded) >= maxRecorded {
		for old, at := range s.recorded {
			if t.Sub(at) > keepRecorded {
				delete(s.recorded, old)
			}
		}
	}
	s.recorded[k] = t
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
		s = &requisiteStore{byHash: map[string]origin{}, recorded: map[string]time.Time{}}
		w.reqs[blogID] = s
	}
	return s
}

// load reads the CDXJ indexes of the blog's requisites packages, the
// folder dir of fsys, into s, and the record ids of their response records
// from their WARCs (read without their blocks).
func (s *requisiteStore) load(fsys fs.ReadDirFS, dir string) error {
	if s.loaded {
		return nil
	}
	latest, err := LatestVersionOf(fsys, dir)
	if err != nil {
		return err
	}
	for v := 1; v <= latest; v++ {
		bag := path.Join(dir, versionName(v))
		data, err := fs.ReadFile(fsys, path.Join(bag, "data", cdxjIndex))
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
		ids, err := responseIDs(fsys, path.Join(bag, "data", warcDir, requisitesKey+".warc.gz"))
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
				s.byHash[h] = origin{url: l.URL, date: t, id: ids[l.URL+" "+l.Timestamp], version: v}
			}
		}
	}
	s.loaded = true
	return nil
}

// responseIDs returns the record ids of the response records of the WARC
// file name of fsys by "<WARC-Target-URI> <14-digit WARC-Date>", as CDXJ
// lines name them. Blocks are skipped unread.
func responseIDs(fsys fs.FS, name string) (map[string]string, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ids := map[string]string{}
	err = warc.Scan(f, 0, func(r warc.Record) bool {
		if r.Type == "response" {
			k := r.TargetURI + " " + r.Date.UTC().Format("20060102150405")
			if _, ok := ids[k]; !ok {
				ids[k] = r.ID
			}
		}
		return false
	}, func(warc.Record) error { return nil })
	return ids, err
}

// storeRequisites makes sure every requisite of p is held by a requisites
// package of its blog, writing a new version with those none holds yet
// (and the fetches that brought them), records in p.origins where each
// one lives, and claims for p the other fetches of its requisites no WARC
// records yet (p.refetched: revisit records in p's WARC). The claims are
// released by release when p is not written.
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
		res, err := w.write(ctx, rp, fresh, nil)
		if err != nil {
			return fmt.Errorf("requisites package: %w", err)
		}
		for i := range fresh {
			f := &fresh[i]
			s.byHash[f.SHA256] = origin{url: targetURL(f), date: captureDate(f), id: f.WARCRecordID, version: res.Version}
			if k, at := fetchKey(f); k != "" {
				s.record(k, at)
			}
		}
	}
	p.origins = map[string]origin{}
	p.refetched, p.claimed = nil, nil
	for _, f := range p.requisites {
		p.origins[f.SHA256] = s.byHash[f.SHA256]
		if k, at := fetchKey(f); k != "" {
			if _, done := s.recorded[k]; done {
				continue
			}
			s.record(k, at)
			p.claimed = append(p.claimed, k)
			p.refetched = append(p.refetched, f)
		}
	}
	p.requisitesURL = RequisitesPermalink(blogURL)
	return nil
}

// release gives back the fetches p claimed (storeRequisites), when p was
// not written: the next package that needs them records them.
func (w *Writer) release(p *pkg) {
	if len(p.claimed) == 0 {
		return
	}
	s := w.store(p.blogID)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range p.claimed {
		delete(s.recorded, k)
	}
	p.claimed = nil
}

// fetchKey names the fetch that brought f in this crawl: the normalised
// URL and the time its last exchange was sent (received), to the
// nanosecond, or, for a file without exchanges, its URL and capture time;
// it returns that time too. The key is "" for a file not fetched: its last
// exchange has no method (no request was sent: a stored capture reused,
// a response the browser took from its cache), or it has no exchange and
// is a reused capture (File.Reused).
func fetchKey(f *blogharvest.File) (string, time.Time) {
	u, t := f.URL, f.Captured
	if n := len(f.Exchanges); n > 0 {
		x := f.Exchanges[n-1]
		if x.Method == "" {
			return "", time.Time{}
		}
		u, t = x.URL, x.Sent
		if t.IsZero() {
			t = x.Received
		}
	} else if f.Reused != "" {
		return "", time.Time{}
	}
	return blogharvest.NormalizeURL(u) + " " + t.UTC().Format(time.RFC3339Nano), t
}

// ArchivedRequisites returns the verified requisites the blog's requisites
// packages in the archive s hold (as ArchivedCaptures returns media:
// Stored and, from a store other than a folder, Body; SHA256, the
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
		files, err := verifiedFiles(s, bag, []blogharvest.Role{blogharvest.RoleRequisite}, nil)
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

// requisiteRecords writes the records of p's requisites its WARC holds:
// the response records (and requests) of the Entry's own pictures, and for
// each fetch p claimed whose payload a requisites package already holds
// (p.refetched), its redirect hops as response records and its last
// exchange as a revisit record referring to the payload's first capture,
// with its request record. Requisites fetched for an earlier package, or
// not fetched, get no record here.
func (p *pkg) requisiteRecords(w *warc.Writer) error {
	for _, f := range p.own {
		body, err := requisiteBody(f)
		if err != nil {
			return err
		}
		id, err := w.Capture(exchangesOf(f, true), body)
		if err != nil {
			return err
		}
		f.WARCRecordID = id
	}
	for _, f := range p.refetched {
		body, err := requisiteBody(f)
		if err != nil {
			return err
		}
		xs := exchangesOf(f, false)
		for _, hop := range xs[:len(xs)-1] {
			if _, err := w.Capture([]blogharvest.Exchange{hop}, hop.Body); err != nil {
				return err
			}
		}
		o := p.origins[f.SHA256]
		id, err := w.Revisit(xs[len(xs)-1], body, warc.Original{URL: o.url, Date: o.date, ID: o.id})
		if err != nil {
			return err
		}
		f.WARCRecordID = id
	}
	return nil
}

// exchangesOf returns the exchanges of f, or one made of the File alone
// (its header cloned when clone is set) when it came without them.
func exchangesOf(f *blogharvest.File, clone bool) []blogharvest.Exchange {
	if len(f.Exchanges) > 0 {
		return f.Exchanges
	}
	h := f.Header
	if clone {
		h = http.Header(f.Header).Clone()
	}
	return []blogharvest.Exchange{{URL: f.URL, Status: f.Status, ResponseHeader: h, Sent: f.Captured}}
}

// embedLinks returns the outlink lines of the page's metadata record: every
// requisite of p (the Entry's own pictures included), in the order the
// harvest found them, each URL once.
func (p *pkg) embedLinks() []warc.Link {
	var links []warc.Link
	seen := map[string]bool{}
	for _, u := range p.embeds {
		if u != "" && !seen[u] {
			seen[u] = true
			links = append(links, warc.Link{URL: u, Hop: "E"})
		}
	}
	return links
}

// requisiteBody returns the payload of a requisite: its Body, the
// archived object it was loaded from (File.Stored: a requisite reused
// from the requisites package, harvest/requisitestore.go), or a caller's
// file at its Path.
func requisiteBody(f *blogharvest.File) ([]byte, error) {
	if f.Body == nil && f.Stored == nil && f.Path != "" {
		return os.ReadFile(f.Path)
	}
	return f.Content()
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

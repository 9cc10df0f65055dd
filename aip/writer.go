package aip

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
)

// Writer writes Blogs and Entries as AIPs under Root. Set the exported
// fields before the first call; a Writer is then safe for concurrent use as
// long as no two calls write the same record at once (the second would find
// its version taken and fail with a transient error).
//
// A Writer writes only into an archive whose lock it holds (one writer per
// archive): Lock, or the lock it takes itself at its first write.
type Writer struct {
	Root         string // the archive root
	Organization string // Source-Organization and the PREMIS organization agent; if empty, "unknown"
	// OrgCode is the organisation's MARC code (MARC Code List for
	// Organizations), the MARC records' 003 and 040 $a $c; if empty, the
	// records carry neither (never the free-text Organization).
	OrgCode  string
	Software string // name and version of the software, such as "blogharvest 0.1.0"; if empty, "blogharvest"
	// SoftwareBuild says how the software was built, such as
	// "vcs.revision=0123… vcs.time=2026-01-02T03:04:05Z vcs.modified=false"
	// (daemon.BuildInfo.VCS): the note of the software's PREMIS agent,
	// omitted when empty.
	SoftwareBuild string
	Now           func() time.Time // the clock for METS and bagging dates; if nil, time.Now

	// Lock is the archive's lock, from LockArchive(Root) (the caller sweeps
	// and closes it). If nil, the Writer locks Root itself at its first
	// write, sweeps .tmp and keeps the lock until Close. Either way a write
	// fails with a transient error wrapping *LockedError while another
	// process holds the archive, and re-checks the lock before publishing.
	Lock *ArchiveLock

	// Store, if set, is where the Writer keeps bags instead of the folder
	// Root (such as an S3-compatible store, package aip/s3store); Root and
	// Lock are then unused, and each bag is published by the Store, whose
	// own rules keep writers apart (doc/storage.md).
	Store Store

	// Modes are the permission bits of the folders and files the Writer
	// makes in the folder Root (modes.go); zero: 0755 and 0644 under the
	// process's umask. Unused with Store (a Local given as Store carries
	// its own).
	Modes Modes

	// AnnounceFailed, if set, is called when a bag was published but its
	// line could not be written to the publication log (publog.go) after
	// retries: the bag is there, unannounced, and the write does not fail
	// for it. Log it; Unannounced finds such bags.
	AnnounceFailed func(location string, err error)

	// ValidateEvery, if positive, makes the Writer validate the METS
	// documents it builds against the official schemas: the first Blog
	// and the first Entry AIP it writes, then one in ValidateEvery of each
	// kind; 1 validates every document (the tests do). 0, the default,
	// validates none when writing: the checks every package gets
	// (records, METS IDs and references, MARC lint) cover every part of
	// the document that comes from input, and the tests validate what
	// the typed writers build (validation.go says which check covers
	// what). Check validates every document.
	ValidateEvery int

	mu        sync.Mutex
	assembled map[string]int             // AIPs assembled per kind, for ValidateEvery
	own       *ArchiveLock               // the lock the Writer took itself, if Lock is nil
	reqs      map[string]*requisiteStore // by blog id (requisites.go)
	entries   map[string]*entryIndex     // by blog id, the last maxEntryIndexes used (entryindex.go)
	entryUses uint64                     // calls of entryIndexFor, the clock of entries' eviction
}

// Result describes what a Write call did.
type Result struct {
	Dir     string // the version folder: the one written, or the newest when unchanged
	Version int    // its N
	Written bool   // false: the content equals the newest version, nothing was written
	Bytes   int64  // bytes written (payload and tag files); zero when nothing was written
	// Pending is set instead of Written by a Batch's write: the bag is
	// staged, neither durable nor visible, until the batch's flush
	// reports it (Published); Dir names where it will be.
	Pending bool
	// PayloadFiles and PayloadBytes count the payload of the version
	// written as Tally does (TallyDefinition); zero when nothing was written.
	PayloadFiles int
	PayloadBytes int64
}

// WriteBlog writes b as a Blog AIP, <Root>/<blog-id>/blog/v<N>. A new version
// is written only when the blog's content digest differs from the newest
// version's. Invalid records fail with a permanent error before anything is
// written; I/O failures (a full disk included) fail with a transient error
// and leave no bag behind.
func (w *Writer) WriteBlog(ctx context.Context, b *blogharvest.Blog) (Result, error) {
	if err := b.Validate(); err != nil {
		return Result{}, blogharvest.Permanent(fmt.Errorf("aip: blog %s: %w", b.ID, err))
	}
	dir, err := BlogDir(w.Root, b.ID)
	if err != nil {
		return Result{}, err
	}
	p := &pkg{kind: kindBlog, blogID: b.ID, key: "blog", permalink: b.URL, dir: dir, blog: b}
	return w.write(ctx, p, b.Files, nil)
}

// WriteBlogAgain is WriteBlog, except that it writes a new version even
// when the blog's content digest equals the newest version's. The content
// digest leaves the crawl's files out (the ledger changes with every
// crawl): a caller uses it when the newest version's crawl ledger says
// something the new crawl has made false, such as posts over the budget of
// an interrupted crawl that the crawl completing it archived.
func (w *Writer) WriteBlogAgain(ctx context.Context, b *blogharvest.Blog) (Result, error) {
	if err := b.Validate(); err != nil {
		return Result{}, blogharvest.Permanent(fmt.Errorf("aip: blog %s: %w", b.ID, err))
	}
	dir, err := BlogDir(w.Root, b.ID)
	if err != nil {
		return Result{}, err
	}
	p := &pkg{kind: kindBlog, blogID: b.ID, key: "blog", permalink: b.URL, dir: dir, blog: b, again: true}
	return w.write(ctx, p, b.Files, nil)
}

// WriteEntry writes e, its comments and captured files as an Entry AIP,
// <Root>/<blog-id>/entries/<yyyy>/<entry-key>/v<N>. Versions and errors are
// as for WriteBlog.
func (w *Writer) WriteEntry(ctx context.Context, e *blogharvest.Entry) (Result, error) {
	if err := e.Validate(); err != nil {
		return Result{}, blogharvest.Permanent(fmt.Errorf("aip: entry %s: %w", e.URL, err))
	}
	rel, under, err := w.entryDir(e)
	if err != nil {
		return Result{}, classify(err)
	}
	return w.writeEntry(ctx, e, rel, under, nil)
}

// writeEntry is WriteEntry of e into its folder rel (under: the alias
// whose folder it is), published at once or, with b, staged in b.
func (w *Writer) writeEntry(ctx context.Context, e *blogharvest.Entry, rel, under string, b *Batch) (Result, error) {
	dir := filepath.Join(w.Root, filepath.FromSlash(rel))
	key := filepath.Base(dir)
	p := &pkg{kind: kindEntry, blogID: e.BlogID, key: key, permalink: e.URL, recordURL: under, dir: dir, entry: e}
	if blogDir, err := BlogDir(w.Root, e.BlogID); err == nil {
		p.blogVersion, _ = LatestVersionOf(w.readStore(), w.name(blogDir)) // a missing or unreadable blog folder: no blog version to name
	}
	return w.write(ctx, p, e.Files, b)
}

// EntryDir returns the store name of the folder that holds e's versions,
// as WriteEntry resolves it now (aip.EntryDirIn, through the Writer's
// index of the blog's entry folders when it keeps one, entryindex.go):
// for reading e's newest version before writing a new one without
// scanning every year folder of the blog for each entry.
func (w *Writer) EntryDir(e *blogharvest.Entry) (string, error) {
	rel, _, err := w.entryDir(e)
	return rel, err
}

// entryDir is EntryDir, with the alias of e whose folder holds e's
// versions (entryDirOf).
func (w *Writer) entryDir(e *blogharvest.Entry) (rel, under string, err error) {
	rs := w.readStore()
	if x := w.entryIndexFor(rs, e.BlogID); x != nil {
		return entryDirIndexed(rs, e, x)
	}
	return entryDirOf(rs, e)
}

// write hashes the files, compares the content digest with the newest
// version, and assembles, validates and commits a new version if needed;
// with a Batch, the new version is left staged in b (Result.Pending).
func (w *Writer) write(ctx context.Context, p *pkg, files []blogharvest.File, b *Batch) (res Result, err error) {
	defer p.removeTemps()
	if err := p.addFiles(w.Root, files); err != nil {
		return Result{}, err
	}
	p.digest = p.contentDigest()
	rs := w.readStore()
	latest, err := LatestVersionOf(rs, w.name(p.dir))
	if err != nil {
		return Result{}, classify(err)
	}
	if latest > 0 {
		last := filepath.Join(p.dir, versionName(latest))
		if d, err := readContentDigestFS(rs, w.name(last)); err == nil && p.sameContent(d) && !p.again {
			return Result{Dir: Location(rs, w.name(last)), Version: latest}, nil
		}
		p.prevPermalink = readExternalIdentifierFS(rs, w.name(last))
	}
	p.version = latest + 1
	if len(p.requisites) > 0 {
		if err := w.storeRequisites(ctx, p, p.blogURL()); err != nil {
			return Result{}, err
		}
		defer func() {
			if !res.Written && !res.Pending {
				w.release(p) // not recorded here: the next package that needs them does (a batch's flush releases a bag it could not publish)
			}
		}()
	}
	e := w.env()
	if err := p.assemble(e); err != nil {
		return Result{}, err
	}
	var lock *ArchiveLock
	if w.Store == nil {
		if lock, err = w.lock(); err != nil {
			return Result{}, classify(err)
		}
	}
	st := w.storeFor(lock)
	final := w.name(filepath.Join(p.dir, versionName(p.version)))
	n, err := w.commit(ctx, st, p, e, final, b)
	if err != nil {
		return Result{}, classify(err)
	}
	res = Result{Dir: Location(st, final), Version: p.version, Written: b == nil, Pending: b != nil, Bytes: n}
	res.PayloadFiles, res.PayloadBytes = p.payloadTally()
	return res, nil
}

// blogURL returns the URL of the package's blog.
func (p *pkg) blogURL() string {
	if p.blog != nil {
		return p.blog.URL
	}
	if p.entry != nil && p.entry.ChildOf != "" {
		return p.entry.ChildOf
	}
	return "urn:blogharvest:blog:" + p.blogID
}

// lock returns the archive lock the Writer writes under: Lock, or the one
// it takes (and sweeps under) at its first call.
func (w *Writer) lock() (*ArchiveLock, error) {
	if w.Lock != nil {
		return w.Lock, nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.own != nil {
		return w.own, nil
	}
	l, err := LockArchive(w.Root)
	if err != nil {
		return nil, err
	}
	if err := Sweep(l); err != nil {
		l.Close()
		return nil, err
	}
	w.own = l
	return l, nil
}

// Close releases the archive lock the Writer took itself; a Lock given to
// it is left to its owner. Call it when no write is in flight.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.own == nil {
		return nil
	}
	err := w.own.Close()
	w.own = nil
	return err
}

// env is what assembling a package needs from the Writer.
type env struct {
	org, orgCode, software, version string
	build                           string // Writer.SoftwareBuild
	now                             time.Time
	validate                        func(kind string) bool // validate this package's METS against the schemas
	// schemaChecked is set by assemble when this package's METS is
	// validated against the schemas (validate's answer), for the detail
	// of its validation event.
	schemaChecked bool
}

// env resolves the Writer's defaults and reads the clock once.
func (w *Writer) env() env {
	e := env{org: oneLine(w.Organization), orgCode: oneLine(w.OrgCode), software: oneLine(w.Software), build: oneLine(w.SoftwareBuild)}
	if e.org == "" {
		e.org = "unknown"
	}
	if e.software == "" {
		e.software = "blogharvest"
	}
	name, version, _ := strings.Cut(e.software, " ")
	e.software, e.version = name, version
	now := time.Now
	if w.Now != nil {
		now = w.Now
	}
	e.now = now().UTC().Truncate(time.Second)
	e.validate = w.sampleValidation
	return e
}

// oneLine replaces line breaks and other control characters with spaces.
func oneLine(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s))
}

// classify marks a commit error: a symbolic link in the archive is
// permanent (the archive needs its operator); a full disk or quota is
// transient and says so; every other I/O error is transient too.
func classify(err error) error {
	if se := (*SymlinkError)(nil); errors.As(err, &se) {
		return blogharvest.Permanent(fmt.Errorf("aip: bag not written: %w", err))
	}
	if isNoSpace(err) {
		return blogharvest.Transient(fmt.Errorf("aip: disk full, bag not written: %w", err))
	}
	var t interface{ Transient() bool }
	if errors.As(err, &t) {
		return err
	}
	return blogharvest.Transient(err)
}

package aip

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// The publication log announces every bag a Writer publishes, after the
// bag is visible, to whatever hands bags on to a repository
// (doc/handoff.md). It lives in the archive, written through the Store,
// so it is the same on a folder and on S3:
//
//	<archive>/.publications/<yyyy>/<mm>/<dd>/<yyyymmddThhmmss.nnnnnnnnnZ>-<16 hex>.json
//
// one object per published bag, holding one JSON line (Publication),
// never changed or removed: an append-only log made of create-only
// objects. The name is the UTC time of the announcement to the
// nanosecond, then the first 16 hex digits of the sha256 of the bag's
// path: names sort in time order, so reading "since T" is one listing
// that starts after T's name (S3 ListObjects StartAfter; a folder skips
// the day folders before T), and two bags announced in the same
// nanosecond still get two names.
//
// Why objects and not one file appended to: S3 has no append (an object
// is written whole), and a JSONL file rewritten per bag would cost the
// whole log per bag and lose lines to two writers racing; segment objects
// written when full would leave the last bags unannounced until the
// segment closes. One create-only object per bag is one more PUT per bag
// (a bag is already 15 or more), is durable the moment the bag is
// announced, and needs no lock: cluster workers writing one archive
// announce side by side. A folder holds one small file per bag more;
// the day folders keep each listing short.
//
// A bag is announced after Publish returned: a reader never sees an
// announcement of a bag that is not there. A crash between the two (or
// a store failing for every retry) leaves a published bag unannounced;
// the Writer reports it through Writer.AnnounceFailed, and Unannounced
// finds such bags.

// PublicationsDir is the folder, at the archive root, of the publication
// log. It begins with a dot: no blog id can take it.
const PublicationsDir = ".publications"

// Kinds of bag a Publication names.
const (
	PublishedBlog       = "blog"
	PublishedEntry      = "entry"
	PublishedRequisites = "requisites"
)

// Publication is one line of the publication log: one bag made visible.
type Publication struct {
	Time        time.Time `json:"time"`            // when it was announced, right after it was published (UTC)
	Blog        string    `json:"blog"`            // the blog id (Bag-Group-Identifier)
	Kind        string    `json:"kind"`            // blog, entry or requisites
	Entry       string    `json:"entry,omitempty"` // an entry's key (its folder name)
	Version     int       `json:"version"`         // the N of v<N>
	Path        string    `json:"path"`            // the bag's name in the archive, such as blog-1/entries/2024/<key>/v2
	Location    string    `json:"location"`        // its file path, or its s3:// URL, in the archive as it is read (Publications)
	Identifier  string    `json:"identifier"`      // the AIP's identifier (METS OBJID, urn:uuid:…)
	Permalink   string    `json:"permalink"`       // what it preserves (External-Identifier)
	PayloadOxum string    `json:"payload_oxum"`    // bag-info.txt's Payload-Oxum: octets.files
}

// recordName returns the log object name of a bag at bagPath announced
// at t.
func recordName(t time.Time, bagPath string) string {
	t = t.UTC()
	h := sha256.Sum256([]byte(bagPath))
	return path.Join(PublicationsDir, t.Format("2006/01/02"), recordStamp(t)+"-"+hex.EncodeToString(h[:8])+".json")
}

// stamp sets pub's Time to now and returns its record in the log: the
// record's name and its line.
func (pub *Publication) stamp(now time.Time) (name string, line []byte) {
	pub.Time = now.UTC()
	b, _ := json.Marshal(pub)
	return recordName(pub.Time, pub.Path), append(b, '\n')
}

// recordStamp is the sortable time of a record name.
func recordStamp(t time.Time) string { return t.UTC().Format("20060102T150405.000000000Z") }

// PublicationName returns the name every record of the publication log
// announced at or after t sorts after (and every one announced before t
// before).
func PublicationName(t time.Time) string { return sinceName(t) }

// sinceName returns the name every record announced at or after t sorts
// after.
func sinceName(t time.Time) string {
	return path.Join(PublicationsDir, t.UTC().Format("2006/01/02"), recordStamp(t))
}

// Records is the part of a Store that keeps small objects outside the
// bags: the publication log. Names are slash-separated, relative to the
// archive root, under a folder beginning with a dot.
type Records interface {
	// PutRecord writes the new object name with data, whole and durable
	// or not at all; it fails if name exists.
	PutRecord(ctx context.Context, name string, data []byte) error
	// ListRecords returns the names of the objects below the folder dir
	// (at any depth) that sort after after ("" for all), sorted.
	ListRecords(ctx context.Context, dir, after string) ([]string, error)
	// ReadRecord returns the content of the object name.
	ReadRecord(ctx context.Context, name string) ([]byte, error)
}

// publication returns the publication record of the bag p published at
// final of st, its Time unset.
func publication(st Store, p *pkg, final string) Publication {
	kind := PublishedEntry
	switch p.kind {
	case kindBlog:
		kind = PublishedBlog
	case kindRequisites:
		kind = PublishedRequisites
	}
	files, octets := p.payloadTally()
	pub := Publication{Blog: p.blogID, Kind: kind, Version: p.version, Path: final,
		Location: Location(st, final), Identifier: ObjID(p.permalink, p.version), Permalink: p.permalink,
		PayloadOxum: fmt.Sprintf("%d.%d", octets, files)}
	if kind == PublishedEntry {
		pub.Entry = p.key
	}
	return pub
}

// announce writes the publication of the bag p just published at final
// of st, retrying a failed write three times (a published bag must be
// announced).
func (w *Writer) announce(ctx context.Context, st Store, p *pkg, final string) error {
	pub := publication(st, p, final)
	var err error
	for try, wait := 0, 200*time.Millisecond; try < 4; try, wait = try+1, wait*4 {
		if try > 0 {
			select {
			case <-ctx.Done():
				return errors.Join(err, ctx.Err())
			case <-time.After(wait):
			}
		}
		name, line := pub.stamp(time.Now())
		if err = st.PutRecord(ctx, name, line); err == nil {
			return nil
		}
	}
	return err
}

// Announce writes the publication of the published bag at bagPath of s
// (read from its bag-info.txt and METS), announced now: how a bag left
// unannounced (Unannounced) is announced late.
func Announce(ctx context.Context, s Store, bagPath string) (Publication, error) {
	info, err := fs.ReadFile(s, path.Join(bagPath, bagInfoTxt))
	if err != nil {
		return Publication{}, err
	}
	pub := Publication{Path: bagPath, Location: Location(s, bagPath)}
	for _, f := range parseBagInfo(info) {
		switch f.label {
		case "Bag-Group-Identifier":
			pub.Blog = f.value
		case "External-Identifier":
			pub.Permalink = f.value
		case "Payload-Oxum":
			pub.PayloadOxum = f.value
		}
	}
	pub.Version, _ = versionNumber(path.Base(bagPath))
	parts := strings.Split(bagPath, "/")
	switch {
	case len(parts) == 3 && parts[1] == "blog":
		pub.Kind = PublishedBlog
	case len(parts) == 3 && parts[1] == requisitesDir:
		pub.Kind = PublishedRequisites
	default:
		pub.Kind, pub.Entry = PublishedEntry, path.Base(path.Dir(bagPath))
	}
	pub.Identifier = ObjID(pub.Permalink, pub.Version)
	name, line := pub.stamp(time.Now())
	return pub, s.PutRecord(ctx, name, line)
}

// PublicationFilter selects lines of the publication log.
type PublicationFilter struct {
	Since time.Time // announced at or after; zero: from the start
	Blog  string    // of this blog only; "": every blog
	// After, if set, is a record name (Publications' names): only records
	// after it are read; it overrides Since.
	After string
}

// PublishedRecord is one record of the log with its object name.
type PublishedRecord struct {
	Name string // the object name, the log's sort key
	Publication
	Raw []byte // the line as stored
}

// Publications reads the publication log of s, oldest first, through
// f's filter. A damaged record (not one JSON object) is returned in
// the error, after the others.
func Publications(ctx context.Context, s Store, f PublicationFilter) ([]PublishedRecord, error) {
	after := f.After
	if after == "" && !f.Since.IsZero() {
		after = sinceName(f.Since)
	}
	names, err := PublicationNames(ctx, s, after)
	if err != nil {
		return nil, err
	}
	var out []PublishedRecord
	var bad []error
	for _, n := range names {
		r, err := ReadPublication(ctx, s, n)
		var nr *NotPublicationError
		if errors.As(err, &nr) {
			bad = append(bad, err)
			continue
		}
		if err != nil {
			return out, err
		}
		if f.Blog != "" && r.Blog != f.Blog || !f.Since.IsZero() && r.Time.Before(f.Since) {
			continue
		}
		out = append(out, r)
	}
	return out, errors.Join(bad...)
}

// PublicationNames returns the names of the publication log's records
// that sort after after ("" for all), in the log's order.
func PublicationNames(ctx context.Context, s Store, after string) ([]string, error) {
	names, err := s.ListRecords(ctx, PublicationsDir, after)
	if err != nil {
		return nil, fmt.Errorf("publication log of %s: %w", s, err)
	}
	return slices.DeleteFunc(names, func(n string) bool { return !strings.HasSuffix(n, ".json") }), nil
}

// NotPublicationError is a record of the publication log that is not one.
type NotPublicationError struct {
	Location string
	Err      error
}

func (e *NotPublicationError) Error() string {
	return fmt.Sprintf("%s: not a publication record: %v", e.Location, e.Err)
}

// ReadPublication reads the record name of the publication log of s. Its
// Location (and Raw) name the bag in s as s is named now: an archive
// moved, copied, or read through another mount gives its current place.
func ReadPublication(ctx context.Context, s Store, name string) (PublishedRecord, error) {
	data, err := s.ReadRecord(ctx, name)
	if err != nil {
		return PublishedRecord{}, fmt.Errorf("publication log of %s: %w", s, err)
	}
	var p Publication
	if err := json.Unmarshal(data, &p); err != nil || !fs.ValidPath(p.Path) {
		if err == nil {
			err = fmt.Errorf("path %q", p.Path)
		}
		return PublishedRecord{}, &NotPublicationError{Location: Location(s, name), Err: err}
	}
	raw := bytes.TrimSpace(data)
	if loc := Location(s, p.Path); loc != p.Location { // the archive moved, or is named otherwise: where the bag is now
		p.Location = loc
		raw, _ = json.Marshal(p)
	}
	return PublishedRecord{Name: name, Publication: p, Raw: raw}, nil
}

// Unannounced returns the bags of s the publication log does not name
// (a crash between a bag's publication and its announcement), sorted.
// It walks the whole archive.
func Unannounced(ctx context.Context, s Store) ([]string, error) {
	recs, err := Publications(ctx, s, PublicationFilter{})
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, r := range recs {
		known[r.Path] = true
	}
	var missing []string
	err = fs.WalkDir(s, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case !d.IsDir():
			return nil
		case p != "." && strings.HasPrefix(d.Name(), "."):
			return fs.SkipDir
		}
		ents, err := s.ReadDir(p)
		if err != nil || !storeIsBag(ents) {
			return err
		}
		if !known[p] {
			missing = append(missing, p)
		}
		return fs.SkipDir
	})
	slices.Sort(missing)
	return missing, err
}

// PutRecord writes the record name as a file, through a temp file in its
// folder (made with the archive's modes if missing) fsynced and renamed
// into place; no link is followed.
func (l *Local) PutRecord(_ context.Context, name string, data []byte) error {
	r, err := l.stageRecord(name, data, true)
	if err != nil {
		return err
	}
	defer r.close()
	if err = r.publish(); err == nil {
		err = unix.Fsync(r.dirfd)
	}
	if err != nil {
		return &fs.PathError{Op: "put", Path: r.path, Err: err}
	}
	return nil
}

// A stagedRecord is a record of the publication log written under its
// temporary name (a dot, the name, .tmp: ListRecords skips it) in its
// folder, not yet in place.
type stagedRecord struct {
	dirfd     int    // the record's folder
	dir       string // its path, for the sync of a group commit
	tmp, base string // its temporary name and its name in dir
	path      string // its file path, for errors
	done      bool   // renamed into place
}

// stageRecord writes the record name's content under its temporary name
// in its folder (made with the archive's modes if missing). With sync, the
// file is fsynced and so are the parents of a folder made (PutRecord's
// way); without, nothing is: a group commit's records (Batch), made
// durable by the one sync of the file system that also makes its bags'
// renames durable, then renamed into place (publish) and synced once
// more. The caller closes it.
func (l *Local) stageRecord(name string, data []byte, sync bool) (*stagedRecord, error) {
	p, err := l.path("put", name)
	if err != nil {
		return nil, err
	}
	rootfd, done := l.Lock.rootDir(l.Root)
	var dfd int
	if sync {
		dfd, err = openDirBelow(rootfd, l.Root, filepath.Dir(p), true, l.Modes)
	} else {
		dfd, err = openDirBelowUnsynced(rootfd, l.Root, filepath.Dir(p), l.Modes)
	}
	done()
	if err != nil {
		return nil, err
	}
	r := &stagedRecord{dirfd: dfd, dir: filepath.Dir(p), base: path.Base(name), path: p}
	r.tmp = "." + r.base + ".tmp"
	fd, err := unix.Openat(dfd, r.tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, l.Modes.file())
	if err != nil {
		unix.Close(dfd)
		return nil, &fs.PathError{Op: "create", Path: p, Err: err}
	}
	err = l.Modes.fixFile(fd)
	if err == nil {
		_, err = fdWriter(fd).Write(data)
	}
	if err == nil && sync {
		err = unix.Fsync(fd)
	}
	if cerr := unix.Close(fd); err == nil {
		err = cerr
	}
	if err != nil {
		r.close()
		return nil, &fs.PathError{Op: "put", Path: p, Err: err}
	}
	return r, nil
}

// publish renames the staged record into place, unless its name exists
// (records are create-only). Its folder is not synced.
func (r *stagedRecord) publish() error {
	if err := renameNoReplace(r.dirfd, r.tmp, r.dirfd, r.base); err != nil {
		return err
	}
	r.done = true
	return nil
}

// close removes the temporary file of a record not renamed into place,
// and closes its folder.
func (r *stagedRecord) close() {
	if !r.done {
		unix.Unlinkat(r.dirfd, r.tmp, 0)
	}
	unix.Close(r.dirfd)
}

// ListRecords lists the files below dir whose names sort after after,
// skipping the folders whose names all sort before it and the temp files
// (names beginning with a dot).
func (l *Local) ListRecords(_ context.Context, dir, after string) ([]string, error) {
	var out []string
	var walk func(d string) error
	walk = func(d string) error {
		ents, err := l.ReadDir(d)
		if errors.Is(err, fs.ErrNotExist) && d == dir {
			return nil
		}
		if err != nil {
			return err
		}
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			n := d + "/" + e.Name()
			if e.IsDir() {
				if after != "" && n+"/" < after && !strings.HasPrefix(after, n+"/") {
					continue // every name below sorts before after
				}
				if err := walk(n); err != nil {
					return err
				}
				continue
			}
			if e.Type().IsRegular() && n > after {
				out = append(out, n)
			}
		}
		return nil
	}
	if err := walk(dir); err != nil {
		return nil, err
	}
	slices.Sort(out)
	return out, nil
}

// ReadRecord reads the record name without following links.
func (l *Local) ReadRecord(_ context.Context, name string) ([]byte, error) {
	return l.ReadFile(name)
}

package aip

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
)

// A Batch is a group commit of Entry AIPs: its WriteEntry assembles and
// stages a bag (written to its temporary place, neither durable nor
// visible) and returns; Flush makes every staged bag durable with one sync
// of the archive's file system, publishes each (renames it into place,
// syncs once more) and announces each in the publication log, one record
// per bag as the log's readers expect (publog.go): on a folder the records
// are written unsynced under their temporary names before that second
// sync, which makes them durable with the renames, then renamed into
// place and synced once more, so a batch's records cost one sync, not two
// fsyncs each. Then it reports each bag,
// published or not, to the batch's report function. On S3 (aip/s3store)
// there is nothing to sync: a flush publishes each bag's marker.
//
// A bag is visible only after the flush that covers it, and reported
// only after that: a caller records a post as archived from the report,
// never from WriteEntry's return. A process killed before the flush
// leaves its staged bags unpublished, swept like any unfinished bag
// (Sweep, s3store's Sweep).
//
// The batch flushes by itself after max bags or when its oldest staged
// bag has waited wait, and before staging a second version of a folder
// it holds a bag of (the version numbers come from what is published).
// The caller flushes at the end of its work and before any read of the
// archive that must see the staged bags (Flush; Close stops the timer
// too). A Batch is safe for concurrent use; report is called from the
// goroutine that flushes (the timer's, for a flush after wait), one bag
// at a time, in the order the bags were staged, and must not call the
// Batch.
//
// doc/storage.md ("Group commit") has the design and its figures.
type Batch struct {
	w      *Writer
	max    int
	wait   time.Duration
	report func(Published)

	mu     sync.Mutex
	bags   []*pending // staged, in order
	timer  *time.Timer
	closed bool
}

// Published is a flush's report of one bag a Batch staged.
type Published struct {
	Entry *blogharvest.Entry // the entry the bag holds
	// Result is the bag's: Written set when it was published (and
	// announced), with Dir, Version, Bytes and the payload counts.
	Result Result
	Err    error // why it was not published (a transient error); nil when it was
}

// pending is a bag staged in a Batch.
type pending struct {
	st    Store
	sb    Staged
	p     *pkg
	final string
	bytes int64
	entry *blogharvest.Entry
	res   Result
}

// NewBatch returns a Batch writing through w that flushes after max
// staged bags (less than 1: 8) or when the oldest has waited wait (0: 2 s),
// reporting each bag of a flush to report (nil: no report).
func (w *Writer) NewBatch(max int, wait time.Duration, report func(Published)) *Batch {
	if max < 1 {
		max = 8
	}
	if wait <= 0 {
		wait = 2 * time.Second
	}
	if report == nil {
		report = func(Published) {}
	}
	return &Batch{w: w, max: max, wait: wait, report: report}
}

// WriteEntry is Writer.WriteEntry, except that a new version is staged:
// its Result has Pending set and Written not, and the flush that
// publishes it reports it. An unchanged entry stages nothing (Written
// and Pending unset: the archived version stands). Errors are as for
// Writer.WriteEntry; a flush this call makes (max bags reached, or a
// second version of a folder held) reports its bags to report, and its
// failure is not this call's.
func (b *Batch) WriteEntry(ctx context.Context, e *blogharvest.Entry) (Result, error) {
	if err := e.Validate(); err != nil {
		return Result{}, blogharvest.Permanent(fmt.Errorf("aip: entry %s: %w", e.URL, err))
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return Result{}, errors.New("aip: batch closed")
	}
	rel, under, err := b.w.entryDir(e)
	if err != nil {
		return Result{}, classify(err)
	}
	if b.holds(rel) {
		b.flush(ctx)
	}
	res, err := b.w.writeEntry(ctx, e, rel, under, b)
	if err != nil || !res.Pending {
		return res, err
	}
	last := b.bags[len(b.bags)-1]
	last.entry, last.res = e, res
	switch {
	case len(b.bags) >= b.max:
		b.flush(ctx)
	case b.timer == nil:
		b.timer = time.AfterFunc(b.wait, func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			b.flush(context.Background())
		})
	}
	return res, nil
}

// Holds reports whether the batch holds a staged bag of e's folder: a
// read of e's archived versions must flush first to see it.
func (b *Batch) Holds(e *blogharvest.Entry) bool {
	rel, err := b.w.EntryDir(e)
	if err != nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.holds(rel)
}

// holds reports whether a staged bag is a version in the folder rel.
func (b *Batch) holds(rel string) bool {
	for _, pb := range b.bags {
		if dirOf(pb.final) == rel {
			return true
		}
	}
	return false
}

// dirOf is the folder of the store name n.
func dirOf(n string) string { return filepath.ToSlash(filepath.Dir(filepath.FromSlash(n))) }

// Len returns the number of bags staged and not yet flushed.
func (b *Batch) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.bags)
}

// Flush publishes every staged bag (see Batch), reports each, and returns
// the errors of those it could not publish, joined (nil when all were).
func (b *Batch) Flush(ctx context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flush(ctx)
}

// Close flushes and stops the batch: a later WriteEntry fails.
func (b *Batch) Close(ctx context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	return b.flush(ctx)
}

// flush is Flush with b.mu held. Publishing runs on a context detached
// from ctx's cancellation: a bag staged is published whole or left
// staged, never cut off halfway.
func (b *Batch) flush(ctx context.Context) error {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	bags := b.bags
	b.bags = nil
	if len(bags) == 0 {
		return nil
	}
	ctx = context.WithoutCancel(ctx)
	if testHook != nil {
		testHook(Location(bags[0].st, bags[0].final), "flush")
	}
	errs := make([]error, len(bags))
	// One sync makes every staged bag of the folder durable.
	var staged []*stageDir
	for _, pb := range bags {
		if ls, ok := pb.sb.(*localStaged); ok {
			staged = append(staged, ls.dir)
		}
	}
	syncErr := syncBags(staged)
	// Publish each: rename (a folder) or marker (S3).
	var renamed []string
	for i, pb := range bags {
		var err error
		if ls, ok := pb.sb.(*localStaged); ok {
			if err = syncErr; err == nil {
				err = ls.publishSynced()
			} else {
				ls.dir.close()
			}
			if err == nil {
				renamed = append(renamed, filepath.Dir(ls.final), filepath.Dir(ls.dir.path))
			}
		} else {
			if testHook != nil {
				testHook(Location(pb.st, pb.final), "publish")
			}
			err = pb.sb.Publish(ctx)
		}
		if err != nil {
			pb.sb.Abort(ctx)
			b.w.release(pb.p)
			errs[i] = classify(fmt.Errorf("aip: %w", err))
		}
	}
	// The records of the bags renamed on a folder are written under their
	// temporary names, unsynced: the next sync makes them durable with
	// the renames, then they are renamed into place and synced once more
	// (one record per bag still, as the log's readers expect).
	recs := make([]*stagedRecord, len(bags))
	var recDirs []string
	for i, pb := range bags {
		l, ok := pb.st.(*Local)
		if _, staged := pb.sb.(*localStaged); !ok || !staged || errs[i] != nil {
			continue
		}
		pub := publication(pb.st, pb.p, pb.final)
		name, line := pub.stamp(time.Now())
		if r, err := l.stageRecord(name, line, false); err == nil {
			recs[i] = r
			recDirs = append(recDirs, r.dir)
			if testHook != nil {
				testHook(Location(pb.st, pb.final), "record")
			}
		} // else announced on its own below, synced
	}
	defer func() {
		for _, r := range recs {
			if r != nil {
				r.close()
			}
		}
	}()
	// One more sync makes the renames (and the folders made for them)
	// durable before any bag is reported published or announced, and
	// the records written.
	err := syncRecords(recs)
	if err == nil {
		err = syncFolders(append(renamed, recDirs...))
	}
	if err != nil {
		for i, pb := range bags {
			if _, ok := pb.sb.(*localStaged); ok && errs[i] == nil {
				errs[i] = classify(fmt.Errorf("aip: published but not known durable (published -repair announces it): %w", err))
			}
		}
	}
	var announced []string
	for i, pb := range bags {
		if errs[i] != nil {
			continue
		}
		if testHook != nil {
			testHook(Location(pb.st, pb.final), "announce")
		}
		if r := recs[i]; r != nil {
			if r.publish() == nil {
				announced = append(announced, r.dir)
				continue
			} // its name taken, or the rename failed: announced on its own
		}
		if aerr := b.w.announce(ctx, pb.st, pb.p, pb.final); aerr != nil && b.w.AnnounceFailed != nil {
			b.w.AnnounceFailed(Location(pb.st, pb.final), aerr) // published all the same: Unannounced finds it
		}
	}
	// The records' renames made durable with one sync of their folders.
	if err := syncFolders(announced); err != nil && b.w.AnnounceFailed != nil {
		for i, pb := range bags {
			if r := recs[i]; r != nil && r.done {
				b.w.AnnounceFailed(Location(pb.st, pb.final), err) // the record may be lost: Unannounced finds it then
			}
		}
	}
	if testHook != nil {
		testHook(Location(bags[0].st, bags[0].final), "flushed")
	}
	for i, pb := range bags {
		r := Published{Entry: pb.entry, Err: errs[i]}
		if errs[i] == nil {
			r.Result = pb.res
			r.Result.Written, r.Result.Pending = true, false
		}
		b.report(r)
	}
	return errors.Join(errs...)
}

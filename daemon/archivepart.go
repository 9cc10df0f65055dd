package daemon

import (
	"context"
	"fmt"

	"github.com/blogharvest/blogharvest/aip"
)

// archive is the archive a role writes into (the local daemon, a cluster
// worker): its lock (a folder's; an S3 archive has none: writers are
// kept apart by the marker's conditional write and, in a cluster, the
// blog's lease, doc/storage.md), the AIP writer, and the view that reads
// it back. open makes it; close lets go of the lock.
type archive struct {
	env    *env
	lock   *aip.ArchiveLock // the folder's lock (one writer per archive, or a worker's hold); nil for S3
	writer *aip.Writer
	view   *archiveView
}

// archiveView is the archive as a role reads it (every role: media and
// requisites reuse, resuming, counts, the status pages): the Store, and
// what the status pages count of it.
type archiveView struct {
	env        *env
	reader     archiveReader  // the Store, connected once (s3archive.go)
	shortfalls shortfallCache // what each blog's ledger knows but the archive lacks (shortfall.go)
	storage    storageCache   // what each blog's folder holds (archivecount.go)
}

// store returns the Store the role reads its archive through: the one its
// writer writes to (set by archive.open), else the archive folder, else
// (a cluster's scheduler on an S3 archive) a connection of its own, made
// at the first call; nil when that fails (the error is logged once).
func (v *archiveView) store() aip.Store { return v.reader.open(v.env.Config, v.env.Logger) }

// newArchive returns the (not yet open) archive of a role.
func newArchive(e *env) *archive { return &archive{env: e, view: &archiveView{env: e}} }

// open prepares the archive for writing: for a folder it takes its lock
// with hold (aip.LockArchive, one writer per archive, failing fast with
// *aip.LockedError if another process writes there; or a cluster worker's
// aip.LockWorker) before anything touches the .tmp folder and sweeps
// unfinished AIPs; for an S3 archive it sweeps old staged objects. Then
// it makes the AIP writer.
func (a *archive) open(ctx context.Context, hold func(archive string) (*aip.ArchiveLock, error)) error {
	c := a.env.Config
	w := &aip.Writer{Organization: c.Organization, OrgCode: c.OrgCode, Software: Build().Software(),
		SoftwareBuild: Build().VCS(), Now: a.env.Now, Modes: c.Modes()}
	w.AnnounceFailed = func(loc string, err error) {
		a.env.Logger.Error("AIP published but not announced in the publication log (blogharvest published -repair announces it)",
			"dir", loc, "err", err)
	}
	if isS3(c.Archive) {
		st, err := openS3Archive(ctx, c)
		if err != nil {
			return err
		}
		w.Store, a.writer = st, w
		a.view.reader.use(st)
		return nil
	}
	lock, err := hold(c.Archive)
	if err != nil {
		return err
	}
	if err := aip.Sweep(lock); err != nil {
		lock.Close()
		return fmt.Errorf("sweep unfinished AIPs: %w", err)
	}
	w.Root, w.Lock = c.Archive, lock
	a.lock, a.writer = lock, w
	return nil
}

// close releases the archive's lock, if it holds one.
func (a *archive) close() error {
	if a.lock == nil {
		return nil
	}
	return a.lock.Close()
}

// store returns the Store the archive is read through (archiveView.store).
func (a *archive) store() aip.Store { return a.view.store() }

// auditStore is the store audit records are written through: the
// writer's, or the archive folder under the archive's lock.
func (a *archive) auditStore() aip.Store {
	if a.writer != nil && a.writer.Store != nil {
		return a.writer.Store
	}
	return &aip.Local{Root: a.env.Config.Archive, Lock: a.lock}
}

// stateStore is the store a blog's state beside its bags is written
// through (keepWatch): the writer's, or the archive folder with the modes
// of the archive's files.
func (a *archive) stateStore() aip.Store {
	if a.writer != nil && a.writer.Store == nil {
		return &aip.Local{Root: a.writer.Root, Modes: a.writer.Modes}
	}
	return a.store()
}

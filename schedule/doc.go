// Package schedule decides when each blog is harvested next: cron specs with
// time zones and jitter, failure backoff, catch-up after downtime, a
// Scheduler that fires blogs when due, and the bbolt store that keeps only
// schedule metadata per blog.
//
// # Specs
//
// ParseSpec reads the five standard cron fields or a descriptor (@daily,
// @every 6h, …) in a blog's time zone, with an optional per-blog jitter that
// spreads blogs sharing a spec. Calendar slots are wall-clock slots: each
// fires once a day across daylight-saving changes (see ParseSpec).
//
// # Next run
//
// The pure functions NextAfterSuccess, NextAfterFailure and DueOnStart turn
// a spec, a run's outcome and the time into the next due time; the daemon
// stores it in State.NextDue. A new blog is due at once; a blog whose
// NextDue passed while the daemon was down runs once at start, not once per
// missed slot; a failing blog backs off exponentially (Backoff; from its own
// interval for an "@every" under a minute) and returns to its regular slots
// after a success. A blog down for the daemon's down_after (State.FailingSince,
// State.LastAnswer) backs off the same way up to a day (NextWhileDown).
//
// # Scheduler
//
// A Scheduler keeps every blog in one min-heap ordered by (due, id) with one
// timer for the earliest, and calls Fire(id) when a blog is due. The daemon
// decides what a firing means (a worker pool, one run per blog at a time)
// and, when the run ends, calls Set with the next due time. Lifecycle:
//
//	s := schedule.NewScheduler()
//	s.Fire = func(id string) { queue <- id }
//	for id, st := range states {
//		s.Set(id, specs[id], schedule.DueOnStartFor(st, specs[id], time.Now()))
//	}
//	s.Open()
//	defer s.Close()
//
// # State file
//
// Store is a bbolt file holding bucket "meta" (key "schema": the layout
// version) and bucket "blogs" (blog id → JSON-encoded State with a version
// field V; version 2 stores the crawl's blogharvest.CrawlState as it is,
// and version 1 values, written before, are still read), and, made at the
// first Store.AddRun, bucket "runs" (blog id → a bucket of the records of
// its last runs, opaque JSON the status pages show, the daemon keeping
// 50). Nothing else is stored: records, pages and rules live in the archive.
// EndRun stores a run's end (its state and its record) in one
// transaction. Put, Update, AddRun and EndRun of goroutines writing at the
// same time share one transaction and one sync of the file (bbolt's Batch:
// the calls that come within 10 ms; each returns once its write is
// durable), so their functions may be called more than once. Only one process may open the file for writing; a second daemon
// on the same file gets ErrInUse after LockTimeout (one second) instead of
// hanging. bbolt locks the file with flock: a read-only open takes a shared
// lock, which a running daemon's exclusive lock excludes, so
// `blogharvest status` cannot read the file while the daemon runs: it asks
// the daemon's /status endpoint first and opens the file read-only (Open
// ReadOnly) only when no daemon answers. Conversely a status reader holding
// the file keeps a daemon from starting, so readers close it at once.
// bbolt reads through a shared read-only memory map of the file, so every
// page read stays in the process's resident set until ReleaseMapped takes
// the pages out of it (on Linux; they stay in the page cache), which the
// daemon's planner does after start-up and every minute.
//
// # A damaged state file
//
// bbolt maps the file and trusts it: a truncated file faults (SIGBUS) and a
// damaged page panics, in places no recover reaches. So before bbolt opens
// it, Open and OpenReadOnly read the file under its lock and check its
// structure (meta pages, high-water mark against the file's size, every
// reachable page and the freelist), then open it inside a recover and run
// bbolt's consistency check. A damaged file (empty, truncated, overwritten,
// a damaged page) is a *DamagedError. OpenReadOnly returns it and leaves the
// file alone; Open renames the file aside as <file>.corrupt-<UTC time> and
// starts a fresh one, which Store.Recovered reports: every blog's state is
// then empty and each runs once, which loses nothing, since the archive is
// the truth and an unchanged entry is not written again.
package schedule

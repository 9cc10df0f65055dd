package daemon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest/aip"
)

// Fixity audits (config: audit). The local daemon runs them on their own
// schedule, in the process that holds the archive's lock (the one writer),
// so no other process can be writing into the archive meanwhile. Audit
// number k (counted in the archive: its records, aip.AuditDir) reads the
// bags whose aip.ShareOf is (k-1) mod shares, with the checks of the check
// command (aip.CheckShare: in place for a folder, one bag at a time copied
// out for S3; memory is bounded by one bag's METS), so shares audits in a
// row read every bag published before the first of them. It reads the
// archive blog folder by blog folder, and a configured blog's folder only
// while that blog's harvest is not running: the audit holds the blog as a
// run does, and a firing meanwhile runs right after (planner.hold). Only
// published bags are read (check passes by .tmp; on S3 a bag without its
// marker is invisible), and a published bag is never changed, so an audit
// cannot read a bag half written. Its outcome goes to the log, the status
// page and /status, /metrics, an audit record in the archive (a PREMIS
// fixity check event: aip.WriteAudit) and, on a problem, a notification.

// auditor runs the audits of a Daemon and keeps what the status page
// shows of them.
type auditor struct {
	poke chan struct{} // a reload: read the schedule again

	mu      sync.Mutex
	next    time.Time        // the next audit's time; zero: none scheduled
	running *AuditProgress   // the audit in progress; nil: none
	last    *aip.AuditRecord // the newest audit finished (read from the archive at start)
	record  string           // its record's folder in the archive
	err     string           // why the newest audit has no record, or could not run (plain words)
}

// AuditProgress is an audit in progress, as /status and the status page
// show it.
type AuditProgress struct {
	Seq     int       `json:"seq"`
	Share   int       `json:"share"`
	Shares  int       `json:"shares"`
	Start   time.Time `json:"start"`
	Bags    int       `json:"bags"`              // bags read so far
	Waiting []string  `json:"waiting,omitempty"` // blogs whose harvest it waits for, to read their folders
}

// AuditStatus is the audit section of /status and of the status page.
type AuditStatus struct {
	Schedule string    `json:"schedule"`
	Shares   int       `json:"shares"`
	Next     time.Time `json:"next,omitzero"`
	// Running is the audit in progress: its number, share and bags read
	// so far.
	Running *AuditProgress `json:"running,omitempty"`
	// Last is the newest audit finished; Record its record's folder in
	// the archive.
	Last   *aip.AuditRecord `json:"last,omitempty"`
	Record string           `json:"record,omitempty"`
	Error  string           `json:"error,omitempty"`
}

// startAudits loads the newest audit record of the archive and, when the
// config schedules audits, starts their loop.
func (d *Daemon) startAudits() {
	a := &auditor{poke: make(chan struct{}, 1)}
	d.audits = a
	if st := d.arch.store(); st != nil {
		if last, err := aip.LatestAudit(st); err != nil {
			a.err = publicText(err.Error(), d.env.Config)
			d.env.Logger.Warn("the archive's audit records cannot be read", "err", err)
		} else if last != nil {
			a.last = last
			d.env.metrics.auditDone(last)
		}
	}
	d.life.goRun(func() { d.auditLoop(a) })
}

// auditLoop runs an audit at every time of the configured schedule until
// the daemon stops; a reload (poke) reads the schedule again.
func (d *Daemon) auditLoop(a *auditor) {
	for {
		d.plan.mu.Lock()
		conf := d.env.Config.Audit
		d.plan.mu.Unlock()
		var wake <-chan time.Time
		timer := time.NewTimer(time.Hour)
		timer.Stop()
		a.mu.Lock()
		a.next = time.Time{}
		if spec, err := conf.spec(); conf.On() && err == nil {
			a.next = spec.Next(d.env.Now())
			timer.Reset(a.next.Sub(d.env.Now()))
			wake = timer.C
		}
		a.mu.Unlock()
		select {
		case <-d.life.ctx.Done():
			timer.Stop()
			return
		case <-a.poke:
			timer.Stop()
		case <-wake:
			d.audit(d.life.ctx, conf)
		}
	}
}

// reloaded tells the audit loop that the config changed.
func (a *auditor) reloaded() {
	if a == nil {
		return
	}
	select {
	case a.poke <- struct{}{}:
	default:
	}
}

// status returns the audit section of /status.
func (a *auditor) status(c *Config) *AuditStatus {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if !c.Audit.On() && a.last == nil && a.running == nil {
		return nil
	}
	s := &AuditStatus{Schedule: c.Audit.Schedule, Shares: c.Audit.shares(), Next: a.next, Last: a.last, Record: a.record, Error: a.err}
	if a.running != nil {
		p := *a.running
		s.Running = &p
	}
	return s
}

// audit runs one audit of the archive: the next share in turn, blog
// folder by blog folder (each configured blog held while it is read),
// then the other folders of the archive; it writes the audit record,
// logs, counts and notifies. An audit the daemon's stop cuts short
// records nothing: the next start reads the same share again.
func (d *Daemon) audit(ctx context.Context, conf Audit) {
	a := d.audits
	read := d.arch.store()
	if read == nil {
		d.auditFailed(a, errors.New("the archive cannot be read"))
		return
	}
	shares := conf.shares()
	seq := 1
	if last, err := aip.LatestAudit(read); err != nil {
		d.auditFailed(a, err)
		return
	} else if last != nil {
		seq = last.Seq + 1
	}
	share := (seq - 1) % shares
	rec := &aip.AuditRecord{Seq: seq, Share: share, Shares: shares, Start: d.env.Now().UTC(),
		Software: Build().Software(), Organization: d.env.Config.Organization}
	prog := &AuditProgress{Seq: seq, Share: share, Shares: shares, Start: rec.Start}
	a.mu.Lock()
	a.running = prog
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.running = nil
		a.mu.Unlock()
	}()
	d.env.Logger.Info("audit started", "audit", seq, "share", fmt.Sprintf("%d of %d", share+1, shares))
	keep := func(name string) bool { return aip.ShareOf(name, shares) == share }
	onBag := func(b aip.BagCheck, t aip.Tally) {
		rec.Bags++
		rec.Read = append(rec.Read, b.Name)
		loc := aip.Location(read, b.Name)
		for _, p := range b.Problems {
			reason := strings.ReplaceAll(p.Error(), loc+"/", "")
			reason = publicText(strings.ReplaceAll(reason, loc, b.Name), d.env.Config)
			rec.Problems = append(rec.Problems, aip.AuditProblem{Bag: b.Name, Reason: reason})
			d.env.Logger.Error("audit problem", "audit", seq, "bag", b.Name, "problem", p.Error())
		}
		a.mu.Lock()
		prog.Bags = rec.Bags
		a.mu.Unlock()
	}
	folders, err := auditFolders(read)
	if err != nil {
		d.auditFailed(a, err)
		return
	}
	pending := folders
	for len(pending) > 0 && ctx.Err() == nil {
		var busy []string
		var idle <-chan struct{}
		for _, dir := range pending {
			ok, ended := d.plan.hold(dir)
			if !ok {
				busy, idle = append(busy, dir), ended // its harvest is running: after the others
				continue
			}
			t, rest := aip.CheckShare(ctx, read, dir, keep, onBag)
			d.plan.release(dir)
			rec.Bytes += t.Bytes
			for _, p := range rest {
				if ctx.Err() != nil && errors.Is(p, ctx.Err()) {
					continue
				}
				rec.Problems = append(rec.Problems, aip.AuditProblem{Reason: publicText(p.Error(), d.env.Config)})
				d.env.Logger.Error("audit problem", "audit", seq, "problem", p.Error())
			}
		}
		if len(busy) > 0 && len(busy) == len(pending) {
			a.mu.Lock()
			prog.Waiting = busy
			a.mu.Unlock()
			select { // every folder left is being harvested: wait for a run to end
			case <-ctx.Done():
			case <-idle:
			}
			a.mu.Lock()
			prog.Waiting = nil
			a.mu.Unlock()
		}
		pending = busy
	}
	if ctx.Err() != nil {
		d.env.Logger.Warn("audit interrupted: nothing recorded; the next audit reads this share again", "audit", seq, "bags_read", rec.Bags)
		return
	}
	rec.End = d.env.Now().UTC()
	sort.Strings(rec.Read)
	name, err := aip.WriteAudit(ctx, d.arch.auditStore(), rec)
	a.mu.Lock()
	a.last, a.record, a.err = rec, name, ""
	if err != nil {
		a.err = "the audit record was not written: " + publicText(err.Error(), d.env.Config)
	}
	a.mu.Unlock()
	d.env.metrics.auditDone(rec)
	d.env.metrics.auditBagsRead.Add(rec.Bags)
	d.env.Logger.Info("audit finished", "audit", seq, "share", fmt.Sprintf("%d of %d", share+1, shares), "bags", rec.Bags,
		"payload", humanBytes(rec.Bytes), "problems", len(rec.Problems), "outcome", rec.Outcome(),
		"duration", rec.End.Sub(rec.Start).Round(time.Millisecond), "record", name)
	if err != nil {
		d.env.Logger.Error("audit record not written", "audit", seq, "err", err)
	}
	if len(rec.Problems) > 0 {
		note := &AuditNote{Seq: seq, Share: share, Shares: shares, Bags: rec.Bags, Count: len(rec.Problems), Record: name,
			Problems: rec.Problems[:min(len(rec.Problems), maxNotifiedProblems)]}
		d.plan.notify.send(Notification{Event: "audit-problem", Audit: note})
	}
}

// auditFailed records that an audit could not run.
func (d *Daemon) auditFailed(a *auditor, err error) {
	d.env.Logger.Error("audit not run", "err", err)
	a.mu.Lock()
	a.err = "the audit could not run: " + publicText(err.Error(), d.env.Config)
	a.mu.Unlock()
}

// auditFolders returns the folders at the archive's top an audit reads in
// turn: every one but those whose name starts with a dot (.tmp, .audit,
// and the like), sorted.
func auditFolders(s aip.Store) ([]string, error) {
	ents, err := s.ReadDir(".")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out, nil
}

// hold keeps blog id (a folder of the archive) from running while an
// audit reads it, as a run in progress does: a firing meanwhile runs
// right after release. It reports false, holding nothing, when the
// blog's run is in progress, with a channel closed when a run next ends.
// A folder that is no configured blog is held at once (nothing harvests
// it).
func (p *planner) hold(id string) (bool, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running[id] {
		if p.idle == nil {
			p.idle = make(chan struct{})
		}
		return false, p.idle
	}
	if p.held == nil {
		p.held = map[string]bool{}
	}
	p.running[id], p.held[id] = true, true
	return true, nil
}

// release ends hold: a run fired meanwhile is enqueued now.
func (p *planner) release(id string) {
	p.mu.Lock()
	delete(p.held, id)
	p.mu.Unlock()
	p.ended(id)
}

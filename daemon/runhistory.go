package daemon

import (
	"encoding/binary"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/schedule"
)

// historyLen bounds the runs kept per blog in the schedule store
// (schedule.Store.AddRun), from which a blog's page reads them; the
// memory keeps the newest (runHistory).
const historyLen = 50

// recentAIPs bounds the AIP paths a run keeps (RunRecord.AIPsWritten
// counts them all).
const recentAIPs = 10

// RunRecord is one finished run of a blog, as the status page and /status
// show it.
type RunRecord struct {
	Start     time.Time `json:"start"`
	End       time.Time `json:"end"`
	Duration  string    `json:"duration"`
	Outcome   string    `json:"outcome"`
	Entries   int       `json:"entries_written"` // Entry AIPs written (new entries and new versions)
	Unchanged int       `json:"unchanged"`
	Comments  int       `json:"comments"`
	Bytes     int64     `json:"bytes"`
	Requests  int       `json:"requests"`
	Warnings  int       `json:"warnings"`
	Error     string    `json:"error,omitempty"` // plain words, no local paths (publicText)
	// AIPs are the last bags the run wrote (Blog AIP included), in the
	// order written, relative to the archive root.
	AIPs []string `json:"aips,omitempty"`
	// AIPsWritten counts every bag the run wrote; AIPs holds the last
	// recentAIPs of them.
	AIPsWritten int `json:"aips_written,omitempty"`
	// NewEntries and NewVersions split Entries: entries archived for the
	// first time (version 1) and new versions of entries archived before.
	NewEntries  int `json:"new_entries"`
	NewVersions int `json:"new_versions"`
	// Changed lists what the run archived, with its bag folder relative
	// to the archive, at most recentChanged (AIPsWritten counts them all).
	Changed []Change `json:"changed,omitempty"`
	// Methods counts, per field, how many archived entries got it by each
	// method (blogharvest.Method).
	Methods map[string]map[string]int `json:"methods,omitempty"`
	// Confidence is the learned rule's confidence per field, when rules
	// were learned.
	Confidence map[string]float64 `json:"confidence,omitempty"`
	// Shortfalls are the posts whose archived comments fall short of the
	// number the blog states (harvest.Shortfalls), at most maxShortfalls.
	Shortfalls []Shortfall `json:"comment_shortfalls,omitempty"`
}

// Shortfall is one post whose archived comments fall short of what the
// blog states: its URL and the ledger's note (stated, archived, sources
// tried).
type Shortfall struct {
	URL  string `json:"url"`
	Note string `json:"note"`
}

// maxShortfalls bounds the shortfalls a run record keeps; the ledger of
// the Blog AIP holds them all.
const maxShortfalls = 50

// shortfallsOf returns the first maxShortfalls comment shortfalls of a
// crawl's ledger.
func shortfallsOf(res *harvest.Result) []Shortfall {
	var out []Shortfall
	for _, r := range harvest.Shortfalls(res.Ledger) {
		if len(out) == maxShortfalls {
			break
		}
		out = append(out, Shortfall{URL: r.URL, Note: r.Comments})
	}
	return out
}

// runNotes collects, during a run, what RunStats does not: the last AIPs
// written and the extraction methods.
type runNotes struct {
	mu      sync.Mutex
	aips    []string
	written int      // every AIP written
	changed []Change // the first recentChanged entries written
	methods map[string]map[string]int
	step    string // what the crawl does now (harvest.Options.Progress): "page <URL>", "reading sitemaps", …
}

// setStep notes what the crawl does now; harvest.Options.Progress.
func (n *runNotes) setStep(step string) {
	n.mu.Lock()
	n.step = step
	n.mu.Unlock()
}

func (n *runNotes) aip(dir string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.written++
	n.aips = append(n.aips, dir)
	if len(n.aips) > recentAIPs {
		n.aips = n.aips[len(n.aips)-recentAIPs:]
	}
}

func (n *runNotes) provenance(p blogharvest.Provenance) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.methods == nil {
		n.methods = map[string]map[string]int{}
	}
	for field, m := range p {
		if n.methods[field] == nil {
			n.methods[field] = map[string]int{}
		}
		n.methods[field][string(m)]++
	}
}

// Change is one entry a run archived: its permalink, the bag written
// (relative to the archive root, or the folder's full name when outside
// it) and its version (1: a new entry).
type Change struct {
	URL     string `json:"url"`
	Bag     string `json:"bag"`
	Version int    `json:"version"`
}

// recentChanged bounds the changes a run record keeps.
const recentChanged = 50

// change notes an entry AIP written.
func (n *runNotes) change(c Change) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.changed) < recentChanged {
		n.changed = append(n.changed, c)
	}
}

// runHistory keeps the newest run of each blog in memory, and the newest
// run of each that wrote an AIP (however many unchanged runs followed).
// The planner reads the others from the store when a blog's page asks
// (planner.runsOf): with historyLen records of every blog in memory a
// scheduler of 100 000 daily blogs would grow by about 100 000 records a
// day for fifty days (doc/scale.md).
type runHistory struct {
	mu      sync.Mutex
	runs    map[string]keptRun // the newest run
	written map[string]keptRun // the newest run that wrote an AIP
}

// keptRun is a RunRecord as runHistory holds it, encoded: its times
// (time.Time.MarshalBinary), duration and outcome, its counts as varints,
// and the fields most runs leave empty (keptRest) as JSON after them when
// any is set. An unchanged run weighs some 70 bytes instead of the
// RunRecord's 256 (and the maps of a run that wrote a bag, about 3 KB as
// maps, a tenth of that as JSON): 100 000 blogs' newest runs held 26 MB of
// a scheduler's heap as records (BenchmarkScale, doc/scale.md;
// TestRunHistoryCompact measures it).
type keptRun string

// keptRest is what keptRun holds of a RunRecord as JSON: the fields an
// unchanged run leaves empty.
type keptRest struct {
	Error      string                    `json:"e,omitempty"`
	AIPs       []string                  `json:"a,omitempty"`
	Changed    []Change                  `json:"c,omitempty"`
	Methods    map[string]map[string]int `json:"m,omitempty"`
	Confidence map[string]float64        `json:"f,omitempty"`
	Shortfalls []Shortfall               `json:"s,omitempty"`
}

// appendTime appends t, length first, as time.Time.MarshalBinary makes it
// (in UTC should its zone not encode).
func appendTime(b []byte, t time.Time) []byte {
	tb, err := t.MarshalBinary()
	if err != nil {
		tb, _ = t.UTC().MarshalBinary()
	}
	b = binary.AppendUvarint(b, uint64(len(tb)))
	return append(b, tb...)
}

// appendString appends s, length first.
func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// keep encodes r as runHistory holds it.
func keep(r RunRecord) keptRun {
	b := make([]byte, 0, 64)
	b = appendTime(b, r.Start)
	b = appendTime(b, r.End)
	b = appendString(b, r.Duration)
	b = appendString(b, r.Outcome)
	for _, n := range []int64{int64(r.Entries), int64(r.Unchanged), int64(r.Comments), r.Bytes, int64(r.Requests),
		int64(r.Warnings), int64(r.AIPsWritten), int64(r.NewEntries), int64(r.NewVersions)} {
		b = binary.AppendVarint(b, n)
	}
	rest := keptRest{Error: r.Error, AIPs: r.AIPs, Changed: r.Changed, Methods: r.Methods, Confidence: r.Confidence,
		Shortfalls: r.Shortfalls}
	if rest.Error != "" || len(rest.AIPs) > 0 || len(rest.Changed) > 0 || len(rest.Methods) > 0 || len(rest.Confidence) > 0 ||
		len(rest.Shortfalls) > 0 {
		if j, err := json.Marshal(rest); err == nil {
			b = append(b, j...)
		}
	}
	return keptRun(b)
}

// keptReader reads a keptRun field by field; a short or bad encoding
// (keep made it, so none) leaves zero values.
type keptReader struct {
	s   string
	bad bool
}

func (k *keptReader) uvarint() uint64 {
	v, n := binary.Uvarint([]byte(k.s[:min(len(k.s), binary.MaxVarintLen64)]))
	if n <= 0 {
		k.bad, k.s = true, ""
		return 0
	}
	k.s = k.s[n:]
	return v
}

func (k *keptReader) varint() int64 {
	v, n := binary.Varint([]byte(k.s[:min(len(k.s), binary.MaxVarintLen64)]))
	if n <= 0 {
		k.bad, k.s = true, ""
		return 0
	}
	k.s = k.s[n:]
	return v
}

func (k *keptReader) str() string {
	n := k.uvarint()
	if n > uint64(len(k.s)) {
		k.bad, k.s = true, ""
		return ""
	}
	v := k.s[:n]
	k.s = k.s[n:]
	return v
}

func (k *keptReader) time() time.Time {
	var t time.Time
	if b := k.str(); b != "" {
		_ = t.UnmarshalBinary([]byte(b)) // made by MarshalBinary
	}
	return t
}

// record returns the RunRecord k holds, made anew.
func (k keptRun) record() RunRecord {
	rd := &keptReader{s: string(k)}
	r := RunRecord{Start: rd.time(), End: rd.time(), Duration: rd.str(), Outcome: rd.str()}
	for _, p := range []*int{&r.Entries, &r.Unchanged, &r.Comments} {
		*p = int(rd.varint())
	}
	r.Bytes = rd.varint()
	for _, p := range []*int{&r.Requests, &r.Warnings, &r.AIPsWritten, &r.NewEntries, &r.NewVersions} {
		*p = int(rd.varint())
	}
	if rd.s != "" && !rd.bad {
		var rest keptRest
		if json.Unmarshal([]byte(rd.s), &rest) == nil { // made by keep from a record: it decodes
			r.Error, r.AIPs, r.Changed, r.Methods, r.Confidence, r.Shortfalls = rest.Error, rest.AIPs, rest.Changed,
				rest.Methods, rest.Confidence, rest.Shortfalls
		}
	}
	return r
}

// add keeps r as the newest run of id.
func (h *runHistory) add(id string, r RunRecord) {
	k := keep(r)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.runs == nil {
		h.runs = map[string]keptRun{}
	}
	h.runs[id] = k
	if len(r.AIPs) > 0 {
		if h.written == nil {
			h.written = map[string]keptRun{}
		}
		h.written[id] = k
	}
}

// clear forgets the runs of id.
func (h *runHistory) clear(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.runs, id)
	delete(h.written, id)
}

// lastWritten returns the newest run of id that wrote an AIP, or nil.
func (h *runHistory) lastWritten(id string) *RunRecord {
	h.mu.Lock()
	k, ok := h.written[id]
	h.mu.Unlock()
	if !ok {
		return nil
	}
	r := k.record()
	return &r
}

// of returns the runs of id kept in memory, newest first: the newest, or
// none.
func (h *runHistory) of(id string) []RunRecord {
	if r := h.last(id); r != nil {
		return []RunRecord{*r}
	}
	return nil
}

// last returns the newest run of id, or nil.
func (h *runHistory) last(id string) *RunRecord {
	h.mu.Lock()
	k, ok := h.runs[id]
	h.mu.Unlock()
	if !ok {
		return nil
	}
	r := k.record()
	return &r
}

// record makes the record of a finished run into t.run; the caller stores
// it with the run's end (Daemon.finish: schedule.Store.EndRun) and adds it
// to the run history once that is stored, so that /status never shows a
// run's record beside a state still running.
func (d *runner) record(start time.Time, outcome string, t *tally, res *harvest.Result, runErr error) {
	end := d.env.Now()
	st := t.stats()
	r := RunRecord{Start: start, End: end, Duration: end.Sub(start).Round(time.Millisecond).String(), Outcome: outcome,
		Entries: st.Entries, Unchanged: st.Unchanged, Comments: st.Comments, Bytes: st.Bytes}
	if runErr != nil {
		r.Error = publicText(runErr.Error(), d.env.Config)
	}
	if outcome == schedule.OutcomeInterrupted {
		r.Error = "interrupted: the process was stopping; the harvest runs again at its next start"
	}
	if res != nil {
		r.Requests = requestsOf(res)
		r.Warnings = len(res.Warnings)
		r.Confidence = confidences(res.Rules)
		r.Shortfalls = shortfallsOf(res)
	}
	t.notes.mu.Lock()
	for _, dir := range t.notes.aips {
		if rel, ok := underArchive(d.env.Config.Archive, dir); ok {
			r.AIPs = append(r.AIPs, rel)
		}
	}
	r.AIPsWritten = t.notes.written
	for _, c := range t.notes.changed {
		if rel, ok := underArchive(d.env.Config.Archive, c.Bag); ok {
			c.Bag = rel
		}
		r.Changed = append(r.Changed, c)
	}
	r.NewEntries, r.NewVersions = int(t.newEntries.Load()), st.Entries-int(t.newEntries.Load())
	r.Methods = t.notes.methods
	t.notes.mu.Unlock()
	t.run = r
}

// keepRun adds r, a finished run of blog id, to the run history and to
// the schedule store, so that a restarted process shows it.
// A run's end normally stores its record with its outcome in one write
// (schedule.Store.EndRun: Daemon.finish, ClusterScheduler.recordDone) and
// then adds it to the run history; keepRun is for a record on its own
// (the end's write failed).
func (d *planner) keepRun(id string, r RunRecord) {
	d.history.add(id, r)
	data, err := json.Marshal(r)
	if err == nil {
		err = d.store.AddRun(id, data, historyLen)
	}
	if err != nil {
		d.env.Logger.Warn("run history not saved in the state file (the status page keeps it until the process stops)", "blog", id, "err", err)
	}
}

// loadHistory reads the runs the schedule store keeps for every
// configured blog into the run history; called once the store is open,
// before any run. A record that does not parse is skipped.
func (d *planner) loadHistory() {
	for _, b := range d.env.Config.Blogs {
		recs, err := d.store.Runs(b.ID)
		if err != nil {
			d.env.Logger.Warn("run history not read from the state file", "blog", b.ID, "err", err)
			continue
		}
		d.history.clear(b.ID) // a scheduler that regained its lease reads them again
		// The newest run that parses, and the newest that wrote an AIP
		// (the same one, or an older one kept as written only).
		var newest *RunRecord
		for i := len(recs) - 1; i >= 0; i-- {
			var r RunRecord
			if json.Unmarshal(recs[i], &r) != nil {
				continue
			}
			if newest == nil {
				newest = &r
			}
			if len(r.AIPs) > 0 {
				if newest != &r {
					d.history.add(b.ID, r)
				}
				break
			}
		}
		if newest != nil {
			d.history.add(b.ID, *newest)
		}
	}
}

// runsOf returns the kept runs of blog id, newest first: read from the
// schedule store (the memory keeps only the newest of each blog), from
// memory if the store cannot be read.
func (d *planner) runsOf(id string) []RunRecord {
	recs, err := d.store.Runs(id)
	if err != nil {
		return d.history.of(id)
	}
	out := make([]RunRecord, 0, len(recs))
	for i := len(recs) - 1; i >= 0; i-- {
		var r RunRecord
		if json.Unmarshal(recs[i], &r) == nil {
			out = append(out, r)
		}
	}
	return out
}

// confidences reads the confidence of each learned rule: top-level fields
// ("title") and one level down ("comments.author").
func confidences(rules json.RawMessage) map[string]float64 {
	var top map[string]json.RawMessage
	if json.Unmarshal(rules, &top) != nil {
		return nil
	}
	out := map[string]float64{}
	var rule struct {
		Confidence *float64 `json:"confidence"`
	}
	for name, raw := range top {
		rule.Confidence = nil
		if json.Unmarshal(raw, &rule) == nil && rule.Confidence != nil {
			out[name] = *rule.Confidence
			continue
		}
		var sub map[string]json.RawMessage
		if json.Unmarshal(raw, &sub) != nil {
			continue
		}
		for s, raw := range sub {
			rule.Confidence = nil
			if json.Unmarshal(raw, &rule) == nil && rule.Confidence != nil {
				out[name+"."+s] = *rule.Confidence
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// underArchive returns dir relative to the archive root, with slashes.
func underArchive(root, dir string) (string, bool) {
	ra, err1 := filepath.Abs(root)
	da, err2 := filepath.Abs(dir)
	rel, err3 := filepath.Rel(ra, da)
	if err1 != nil || err2 != nil || err3 != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

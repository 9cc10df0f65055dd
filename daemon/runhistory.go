package daemon

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
)

// historyLen bounds the runs kept per blog (in memory only: the schedule
// store keeps schedule state, not history).
const historyLen = 50

// recentAIPs bounds the AIP paths a run keeps.
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
	methods map[string]map[string]int
}

func (n *runNotes) aip(dir string) {
	n.mu.Lock()
	defer n.mu.Unlock()
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

// runHistory keeps the last historyLen runs of each blog, and the last
// run of each that wrote an AIP (however many unchanged runs followed).
type runHistory struct {
	mu      sync.Mutex
	runs    map[string][]RunRecord // oldest first
	written map[string]RunRecord   // the newest run that wrote an AIP
}

func (h *runHistory) add(id string, r RunRecord) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.runs == nil {
		h.runs = map[string][]RunRecord{}
	}
	l := append(h.runs[id], r)
	if len(l) > historyLen {
		l = l[len(l)-historyLen:]
	}
	h.runs[id] = l
	if len(r.AIPs) > 0 {
		if h.written == nil {
			h.written = map[string]RunRecord{}
		}
		h.written[id] = r
	}
}

// lastWritten returns the newest run of id that wrote an AIP, or nil.
func (h *runHistory) lastWritten(id string) *RunRecord {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, ok := h.written[id]
	if !ok {
		return nil
	}
	return &r
}

// of returns the runs of id, newest first.
func (h *runHistory) of(id string) []RunRecord {
	h.mu.Lock()
	defer h.mu.Unlock()
	l := h.runs[id]
	out := make([]RunRecord, len(l))
	for i, r := range l {
		out[len(l)-1-i] = r
	}
	return out
}

// last returns the newest run of id, or nil.
func (h *runHistory) last(id string) *RunRecord {
	h.mu.Lock()
	defer h.mu.Unlock()
	l := h.runs[id]
	if len(l) == 0 {
		return nil
	}
	r := l[len(l)-1]
	return &r
}

// record notes a finished run of id in the history.
func (d *core) record(id string, start time.Time, outcome string, t *tally, res *harvest.Result, runErr error) {
	end := d.Now()
	st := t.stats()
	r := RunRecord{Start: start, End: end, Duration: end.Sub(start).Round(time.Millisecond).String(), Outcome: outcome,
		Entries: st.Entries, Unchanged: st.Unchanged, Comments: st.Comments, Bytes: st.Bytes}
	if runErr != nil {
		r.Error = publicText(runErr.Error(), d.Config)
	}
	if res != nil {
		r.Requests = requestsOf(res)
		r.Warnings = len(res.Warnings)
		r.Confidence = confidences(res.Rules)
		r.Shortfalls = shortfallsOf(res)
	}
	t.notes.mu.Lock()
	for _, dir := range t.notes.aips {
		if rel, ok := underArchive(d.Config.Archive, dir); ok {
			r.AIPs = append(r.AIPs, rel)
		}
	}
	r.Methods = t.notes.methods
	t.notes.mu.Unlock()
	d.history.add(id, r)
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

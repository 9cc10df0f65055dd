package daemon

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
)

// progress shows a one-line progress display on a terminal, and nothing
// elsewhere (logs already say what happened).
type progress struct {
	w     io.Writer
	tty   bool
	mu    sync.Mutex
	n     int
	start time.Time
	last  time.Time
}

// newProgress draws on w when w is, or writes through to, a terminal
// (stderr is wrapped by redactingWriter: Unwrap).
func newProgress(w io.Writer) *progress {
	under := w
	for {
		u, ok := under.(interface{ Unwrap() io.Writer })
		if !ok {
			break
		}
		under = u.Unwrap()
	}
	tty := false
	if f, ok := under.(*os.File); ok {
		if fi, err := f.Stat(); err == nil {
			tty = fi.Mode()&os.ModeCharDevice != 0
		}
	}
	return &progress{w: w, tty: tty, start: time.Now()}
}

// entry counts one archived entry and redraws at most ten times a second.
func (p *progress) entry(blog string, e *blogharvest.Entry) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.tick() {
		return
	}
	title := []rune(e.Title)
	if len(title) > 40 {
		title = append(title[:39], '…')
	}
	fmt.Fprintf(p.w, "\r\033[K%s: %d entries archived, %.0fs  %s", blog, p.n, time.Since(p.start).Seconds(), string(title))
}

// done clears the progress line.
func (p *progress) done() {
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// item counts one item read (by report and export) and redraws at most ten
// times a second: "<what>: <n> <unit>, <s>s  <name>".
func (p *progress) item(what, unit, name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.tick() {
		return
	}
	if r := []rune(name); len(r) > 50 {
		name = "…" + string(r[len(r)-49:])
	}
	fmt.Fprintf(p.w, "\r\033[K%s: %d %s, %.0fs  %s", what, p.n, unit, time.Since(p.start).Seconds(), name)
}

// tick counts one more and reports whether to redraw: on a terminal, at most
// ten times a second. p.mu must be held.
func (p *progress) tick() bool {
	p.n++
	if !p.tty || time.Since(p.last) < 100*time.Millisecond {
		return false
	}
	p.last = time.Now()
	return true
}

// RunProgress is a run going on, as /status and the status page show it:
// what it has written so far and what its crawl does now.
type RunProgress struct {
	Start     time.Time `json:"start"`
	Entries   int       `json:"entries_written"` // Entry AIPs written so far (new entries and new versions)
	Unchanged int       `json:"unchanged"`
	Comments  int       `json:"comments"`
	Bytes     int64     `json:"bytes"`
	// Step is what the crawl does now: "page <URL>" while it drains its
	// frontier, else a few words ("reading sitemaps").
	Step string `json:"step,omitempty"`
	// URL is the page last handed to a page worker, when Step names one.
	URL string `json:"current_url,omitempty"`
}

// setLive notes t as blog id's run going on; nil when it ended.
func (d *runner) setLive(id string, t *tally) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if t == nil {
		delete(d.live, id)
		return
	}
	if d.live == nil {
		d.live = map[string]*tally{}
	}
	d.live[id] = t
}

// liveProgress returns the progress of blog id's run going on in this
// process, or nil.
func (d *runner) liveProgress(id string) *RunProgress {
	d.mu.Lock()
	t := d.live[id]
	d.mu.Unlock()
	if t == nil {
		return nil
	}
	st := t.stats()
	t.notes.mu.Lock()
	step := t.notes.step
	t.notes.mu.Unlock()
	p := &RunProgress{Start: t.start, Entries: st.Entries, Unchanged: st.Unchanged, Comments: st.Comments, Bytes: st.Bytes,
		Step: publicText(step, d.env.Config)}
	if u, ok := strings.CutPrefix(step, "page "); ok {
		p.URL = u
	}
	return p
}

package daemon

import (
	"fmt"
	"io"
	"os"
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

func newProgress(w io.Writer) *progress {
	f, ok := w.(*os.File)
	tty := false
	if ok {
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

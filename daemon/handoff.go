package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest/aip"
)

// The on_publish command is the push side of the hand-off to a
// repository (doc/handoff.md); the publication log (aip/publog.go) is the
// pull side and its source. A handoff runs the command once for each line
// of the log, in the log's order, with the bag's location as its last
// argument, the line on its standard input and the fields in
// BLOGHARVEST_* variables, in a goroutine of its own: a slow or failing
// command never holds up a harvest. A failure (exit status not 0, or no
// exit within handoffTimeout) is logged (the program, the bag, the exit
// status and the last line of its standard error; never its arguments
// or environment) and retried after a backoff doubling from 2s to 10
// minutes; the lines after it wait for it, so the repository receives
// bags in publication order.
//
// What was delivered is kept in handoffFile beside the schedule state:
// the name up to which every line is delivered (From), and the lines
// after it delivered already (Delivered). It is written (atomically)
// after each call that succeeded, so a restart, or a crash, resumes where
// the last one left: a line whose command failed, or was cut by the
// shutdown, gets its call at the next start. A crash between a command's
// success and that write calls it again for that one bag: at least once,
// which an ingest that checks the identifier it received makes once.
//
// From lags handoffSettle behind the newest line: a line is named by the
// time its bag was announced but becomes visible a moment later, so a
// line can appear with a name before one already delivered (two writers,
// or an S3 PUT that took its time); every line newer than From is looked
// at again on each pass, against Delivered.

// handoffFile is the on_publish cursor's file name, in the state folder.
const handoffFile = "on_publish.json"

// Bounds of the hand-off.
const (
	handoffSettle  = 10 * time.Minute // how late a line may become visible after the time in its name
	handoffPoll    = 30 * time.Second // how often the log is read when nothing was published here
	handoffTimeout = 10 * time.Minute // one call of the command, at most
	handoffMinWait = 2 * time.Second  // the first backoff after a failure
	handoffMaxWait = 10 * time.Minute // the longest backoff
)

// handoffCursor is what handoffFile holds.
type handoffCursor struct {
	From      string   `json:"from"`      // every log line named up to this one is delivered ("" none)
	Delivered []string `json:"delivered"` // log lines named after From delivered already, sorted
}

// handoff delivers the publication log of an archive to the on_publish
// command.
type handoff struct {
	cmd    Command
	store  func() aip.Store // the archive (nil while it cannot be read)
	file   string           // the cursor's file
	log    *slog.Logger
	now    func() time.Time
	kick   chan struct{} // a bag was published in this process
	minW   time.Duration // handoffMinWait
	maxW   time.Duration // handoffMaxWait
	cursor handoffCursor
	// read holds the lines read and not yet delivered, by name: a line
	// never changes, so each is read once, whatever the passes.
	read map[string]aip.PublishedRecord
}

// startHandoff starts delivering the archive read through store to the
// config's on_publish command, if it has one, within l; it returns the
// hand-off, nil without one.
func startHandoff(e *env, l *life, store func() aip.Store) *handoff {
	c := e.Config
	if len(c.OnPublish) == 0 {
		return nil
	}
	h := &handoff{cmd: c.OnPublish, store: store, file: filepath.Join(filepath.Dir(c.State), handoffFile),
		log: e.Logger.With("on_publish", filepath.Base(c.OnPublish[0])), now: e.Now, kick: make(chan struct{}, 1),
		minW: handoffMinWait, maxW: handoffMaxWait, read: map[string]aip.PublishedRecord{}}
	if err := h.load(); err != nil {
		e.Logger.Error("on_publish: its cursor cannot be read; every bag of the publication log will be handed off again",
			"file", h.file, "err", err)
	}
	l.goRun(func() { h.loop(l.ctx) })
	return h
}

// published tells the hand-off that a bag was just published here.
func (h *handoff) published() {
	if h == nil {
		return
	}
	select {
	case h.kick <- struct{}{}:
	default:
	}
}

// loop delivers, then waits for a kick, the poll or the backoff.
func (h *handoff) loop(ctx context.Context) {
	wait := time.Duration(0)
	for ctx.Err() == nil {
		err := h.deliver(ctx)
		var timer *time.Timer
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			wait = min(max(2*wait, h.minW), h.maxW)
			h.log.Warn("on_publish failed; retried later (the bags after it wait for it)", "err", err, "retry_in", wait)
			timer = time.NewTimer(wait)
		default:
			wait = 0
			timer = time.NewTimer(handoffPoll)
		}
		if err != nil {
			select { // a failure waits its backoff, whatever is published meanwhile
			case <-ctx.Done():
			case <-timer.C:
			}
		} else {
			select {
			case <-ctx.Done():
			case <-h.kick:
			case <-timer.C:
			}
		}
		timer.Stop()
	}
}

// deliver calls the command for every line of the log not delivered yet,
// in order, stopping at the first failure. One listing per pass; a line
// is read the first time it is listed.
func (h *handoff) deliver(ctx context.Context) error {
	st := h.store()
	if st == nil {
		return errors.New("the archive cannot be read")
	}
	names, err := aip.PublicationNames(ctx, st, h.cursor.From)
	if err != nil {
		return err
	}
	for _, n := range names {
		if _, done := slices.BinarySearch(h.cursor.Delivered, n); done {
			continue
		}
		r, ok := h.read[n]
		if !ok {
			r, err = aip.ReadPublication(ctx, st, n)
			var bad *aip.NotPublicationError
			if errors.As(err, &bad) {
				h.log.Warn("on_publish: a record of the publication log is not a publication; skipped", "err", err)
				h.markDelivered(n)
				continue
			}
			if err != nil {
				return err
			}
			h.read[n] = r
		}
		if err := h.call(ctx, r); err != nil {
			return fmt.Errorf("%s: %w", r.Location, err)
		}
		delete(h.read, n)
		h.markDelivered(n)
		h.advance(names)
		if err := h.save(); err != nil {
			h.log.Error("on_publish: its cursor cannot be written; after a restart the bags handed off since are handed off again",
				"file", h.file, "err", err)
		}
	}
	h.advance(names)
	return h.save()
}

// markDelivered adds the line name to Delivered.
func (h *handoff) markDelivered(name string) {
	if i, done := slices.BinarySearch(h.cursor.Delivered, name); !done {
		h.cursor.Delivered = slices.Insert(h.cursor.Delivered, i, name)
	}
}

// advance moves From to the newest line named more than handoffSettle
// ago up to which every line listed (names, sorted) is delivered,
// dropping Delivered's names up to it.
func (h *handoff) advance(names []string) {
	settled := aip.PublicationName(h.now().Add(-handoffSettle))
	for _, n := range names {
		if _, done := slices.BinarySearch(h.cursor.Delivered, n); !done || n >= settled {
			break
		}
		h.cursor.From = n
	}
	h.cursor.Delivered = slices.DeleteFunc(h.cursor.Delivered, func(n string) bool { return n <= h.cursor.From })
}

// call runs the command for one line.
func (h *handoff) call(ctx context.Context, r aip.PublishedRecord) error {
	ctx, cancel := context.WithTimeout(ctx, handoffTimeout)
	defer cancel()
	loc := r.Location
	if !isS3(loc) {
		if abs, err := filepath.Abs(loc); err == nil && abs != loc {
			loc = abs // the archive may be configured relative to the daemon's folder
			r.Location = abs
			r.Raw, _ = json.Marshal(r.Publication)
		}
	}
	args := append(slices.Clone(h.cmd[1:]), loc)
	cmd := exec.CommandContext(ctx, h.cmd[0], args...)
	cmd.Stdin = bytes.NewReader(append(slices.Clone(r.Raw), '\n'))
	cmd.Env = append(os.Environ(),
		"BLOGHARVEST_BLOG="+r.Blog, "BLOGHARVEST_KIND="+r.Kind, "BLOGHARVEST_ENTRY="+r.Entry,
		"BLOGHARVEST_VERSION="+strconv.Itoa(r.Version), "BLOGHARVEST_PATH="+r.Path, "BLOGHARVEST_LOCATION="+loc,
		"BLOGHARVEST_IDENTIFIER="+r.Identifier, "BLOGHARVEST_PERMALINK="+r.Permalink, "BLOGHARVEST_PAYLOAD_OXUM="+r.PayloadOxum)
	var stderr tailBuffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	if err == nil {
		h.log.Info("on_publish handed off", "dir", r.Location, "took", time.Since(start).Round(time.Millisecond))
		return nil
	}
	if ctx.Err() != nil && !errors.Is(ctx.Err(), context.Canceled) {
		err = fmt.Errorf("no exit within %v", handoffTimeout)
	}
	if last := stderr.lastLine(); last != "" {
		for _, a := range h.cmd[1:] { // an argument may be a token: never logged, even echoed
			if len(a) >= 4 {
				last = strings.ReplaceAll(last, a, "[argument]")
			}
		}
		err = fmt.Errorf("%w (its last line of error output: %q)", err, last)
	}
	return err
}

// load reads the cursor; a missing file is a fresh start.
func (h *handoff) load() error {
	data, err := os.ReadFile(h.file)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &h.cursor); err != nil {
		h.cursor = handoffCursor{}
		return err
	}
	slices.Sort(h.cursor.Delivered)
	return nil
}

// save writes the cursor atomically (temp file, fsync, rename).
func (h *handoff) save() error {
	data, _ := json.Marshal(h.cursor)
	tmp := h.file + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(data, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, h.file)
	}
	return err
}

// tailBuffer keeps the last 4 KiB written to it.
type tailBuffer struct{ b []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = t.b[len(t.b)-4096:]
	}
	return len(p), nil
}

// lastLine returns the last non-empty line written, at most 200 bytes.
func (t *tailBuffer) lastLine() string {
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	l := strings.TrimSpace(lines[len(lines)-1])
	if len(l) > 200 {
		l = l[:200] + "…"
	}
	return l
}

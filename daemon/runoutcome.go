package daemon

import (
	"fmt"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/schedule"
)

// runOutcome is what one run leaves for the schedule store: its outcome,
// counts, error and the validators of its crawl. In one process it goes
// straight into the store; in a cluster a worker sends it to the
// scheduler, which stores it the same way.
type runOutcome struct {
	Outcome   string
	Stats     RunStats
	Error     string // the run's error (public text); "" if it succeeded
	Transient bool   // the error may go away by itself: retry sooner
	// Answer is what the blog answered the failed run, in short, with no
	// secret of a URL (answerOf); "" if it succeeded.
	Answer    string `json:",omitempty"`
	Invalid   string // entries not archived and why (public text)
	Warning   string // the crawl's last warning (public text)
	HasResult bool   // the crawl returned a result: the fields below hold
	Budget    bool   // the crawl ran out of max_duration
	// Unrendered counts the pages that needed rendering but were archived
	// without: the browser did not start. Like Budget, the run then does
	// not count as covering what it saw: they are read again next run.
	Unrendered int
	Watermark  time.Time
	State      blogharvest.CrawlState // validators and digests: harvest.State without robots.txt and rules
	// Run is the run's record as the worker that ran it keeps it (its
	// comment shortfalls, methods, AIPs): a cluster's scheduler adds it
	// to its own run history, so its status page shows the run as a
	// local daemon's does. Nil in local mode.
	Run *RunRecord `json:",omitempty"`
}

// reportOf sums a run up.
func (d *runner) reportOf(outcome string, t *tally, res *harvest.Result, runErr error) runOutcome {
	c := d.env.Config
	r := runOutcome{Outcome: outcome, Stats: t.stats(), Invalid: publicText(t.invalidSummary(), c)}
	if runErr != nil {
		r.Error, r.Transient = publicText(runErr.Error(), c), blogharvest.IsTransient(runErr)
		r.Answer = publicText(answerOf(runErr), c)
	}
	if res != nil {
		r.HasResult, r.Budget, r.Watermark = true, res.OverBudget, res.Watermark
		r.Unrendered = res.Unrendered
		r.State = res.State.CrawlState
		r.Warning = publicText(lastOf(res.Warnings), c)
	}
	return r
}

// apply records the run's end in st at now.
func (r runOutcome) apply(st *schedule.State, now time.Time) {
	st.LastEnd = now
	st.Outcome = r.Outcome
	st.Entries += r.Stats.Entries
	st.LastError = ""
	if r.Outcome == schedule.OutcomeInterrupted {
		return
	}
	if r.Error != "" {
		st.LastError = r.Error
		if st.Failures == 0 || st.FailingSince.IsZero() {
			st.FailingSince = st.LastStart // the first failed run of the streak started then
			if st.FailingSince.IsZero() || st.FailingSince.After(now) {
				st.FailingSince = now
			}
		}
		st.Failures++
		st.LastAnswer = r.Answer
		return
	}
	st.Failures = 0
	st.FailingSince, st.LastAnswer = time.Time{}, ""
	st.LastError = r.Invalid
	if r.Unrendered > 0 {
		st.LastError = joinNonEmpty(fmt.Sprintf("%d pages that needed rendering archived unrendered: the browser did not start; "+
			"they are rendered on the next run", r.Unrendered), r.Invalid)
	}
	if r.HasResult && !r.Budget && r.Unrendered == 0 { // a crawl cut short did not look at everything since
		if r.Watermark.After(st.Watermark) {
			st.Watermark = r.Watermark
		}
		st.CrawlState = r.State
	}
}

// joinNonEmpty joins the non-empty ones of parts with "; ".
func joinNonEmpty(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "; ")
}

// err returns the run's error as the schedule sees it: nil on success,
// transient or permanent as the run's was.
func (r runOutcome) err() error {
	if r.Error == "" {
		return nil
	}
	return reportedError{r.Error, r.Transient}
}

// reportedError is a run's error as a worker reported it.
type reportedError struct {
	msg       string
	transient bool
}

func (e reportedError) Error() string   { return e.msg }
func (e reportedError) Transient() bool { return e.transient }

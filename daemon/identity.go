package daemon

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/schedule"
)

// A run that finds the site at a blog's address no longer the blog
// archived (harvest.IdentityError: a parking page, another person's
// blog) archives nothing. Its ledger, with the evidence, is kept beside
// the blog's state in the archive (aip.PutIdentityEvidence), the day is
// kept in the schedule state (State.IdentityChanged, shown on the status
// page and /status), and the blog is paused: its scheduled runs ask
// nothing until the config's accept_change names that day or a later one
// (runBlog). The first run after that is not checked
// (harvest.Options.AcceptIdentity) and, once it succeeds, the pause is
// lifted. doc/lifecycle.md says why.

// keepIdentityEvidence writes the ledger of a run that ended in a
// harvest.IdentityError into the archive (aip.PutIdentityEvidence); a
// failure to write it is logged.
func (d *runner) keepIdentityEvidence(ctx context.Context, id string, start time.Time, res *harvest.Result, runErr error) {
	var ie *harvest.IdentityError
	if !errors.As(runErr, &ie) || res == nil {
		return
	}
	var b strings.Builder
	b.WriteString("# identity changed: nothing archived. Evidence:\n")
	for _, e := range ie.Evidence {
		b.WriteString("# " + strings.ReplaceAll(e, "\n", " ") + "\n")
	}
	b.Write(harvest.LedgerTSV(res.Ledger))
	if err := aip.PutIdentityEvidence(context.WithoutCancel(ctx), d.arch.store(), id, start, []byte(b.String())); err != nil {
		d.env.Logger.Error("identity evidence not kept", "blog", id, "err", err)
	}
}

// keepIdentity records in the schedule state a run's finding that the
// blog's identity changed (the blog is paused from now on), or lifts the
// pause after a successful run the archivist accepted (accept_change).
func (d *Daemon) keepIdentity(id string, start time.Time, accepted bool, runErr error) {
	var ie *harvest.IdentityError
	changed := errors.As(runErr, &ie)
	if !changed && !(accepted && runErr == nil) {
		return
	}
	err := d.plan.store.Update(id, func(st *schedule.State) error {
		if changed {
			st.IdentityChanged, st.IdentityEvidence = start, strings.Join(ie.Evidence, "; ")
			// Not a blog down (health.go): the address answers, and the
			// paused runs would otherwise leave it "down" once down_after
			// passed.
			st.Failures, st.FailingSince, st.LastAnswer = 0, time.Time{}, ""
		} else {
			st.IdentityChanged, st.IdentityEvidence = time.Time{}, ""
		}
		return nil
	})
	if err != nil {
		d.env.Logger.Error("schedule state not saved", "blog", id, "err", err)
		return
	}
	if changed {
		d.env.Logger.Warn("identity changed: the blog is paused until accept_change names this day or a later one",
			"blog", id, "identity_changed", start.UTC().Format(time.DateOnly), "evidence", strings.Join(ie.Evidence, "; "))
	}
}

package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"text/tabwriter"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/schedule"
)

func runStatus(ctx context.Context, args []string, stdio IO) error {
	fs := newFlagSet("status", "-config FILE [-json]", stdio.Stderr)
	cfgPath := fs.String("config", "blogs.yaml", "config `file`")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	if err := parse(fs, args); err != nil {
		return err
	}
	c, err := LoadConfig(*cfgPath)
	if err != nil {
		return &UsageError{err}
	}
	st, source, err := fetchStatus(ctx, c)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdio.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"source": source, "blogs": st})
	}
	printStatus(stdio.Stdout, st, source)
	return nil
}

// fetchStatus asks the running daemon's /status; if none answers, it reads
// the state file read-only.
func fetchStatus(ctx context.Context, c *Config) ([]BlogStatus, string, error) {
	if c.Listen != "" {
		if st, err := httpStatus(ctx, "http://"+c.Listen+"/status"); err == nil {
			return st, "daemon at " + c.Listen, nil
		}
	}
	store, err := schedule.OpenReadOnly(c.State)
	var de *schedule.DamagedError
	if errors.As(err, &de) {
		return nil, "", fmt.Errorf("%w; the daemon, when it starts, sets it aside as %s and starts a fresh one "+
			"(every blog then runs once; nothing archived is lost)", err, c.State+".corrupt-<UTC time>")
	}
	if err != nil {
		return nil, "", fmt.Errorf("no daemon answers at %q and the state file cannot be read: %w", c.Listen, err)
	}
	defer store.Close()
	var archive aip.Store // opened for the first blog whose run never ended
	out := make([]BlogStatus, 0, len(c.Blogs))
	for _, b := range c.Blogs {
		s, _, err := store.Get(b.ID)
		if err != nil {
			return nil, "", err
		}
		if s.Outcome == schedule.OutcomeRunning && archive == nil {
			archive, _ = readArchive(ctx, c) // unreadable: the state's count stands
		}
		s.Entries = unfinishedCount(archive, b.ID, s) // a daemon killed mid-run recorded none of its run's
		out = append(out, statusFrom(b, s, time.Now()))
	}
	return out, "state file " + c.State, nil
}

func httpStatus(ctx context.Context, u string) ([]BlogStatus, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", u, resp.Status)
	}
	var body struct{ Blogs []BlogStatus }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return nil, fmt.Errorf("%s: %w", u, err)
	}
	return body.Blogs, nil
}

func printStatus(w io.Writer, st []BlogStatus, source string) {
	fmt.Fprintf(w, "from %s\n", source)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "BLOG\tOUTCOME\tLAST RUN\tNEXT RUN\tENTRIES\tLAST ERROR")
	for _, s := range st {
		outcome := s.Outcome
		if s.Running {
			outcome = "running"
			if p := s.Progress; p != nil {
				outcome = fmt.Sprintf("running (%d written so far)", p.Entries)
			}
		}
		if outcome == "" {
			outcome = "never run"
		}
		last := s.LastError
		if s.Health == HealthDown || s.Health == HealthFailing {
			outcome += ", " + s.Health
			last = fmt.Sprintf("%s since %s (%d runs): %s", s.Health, when(s.FailingSince), s.Failures, s.LastAnswer)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", s.ID, outcome, when(s.LastEnd), when(s.NextRun), s.Entries, last)
	}
	tw.Flush()
}

func when(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Local().Format("2006-01-02 15:04:05")
}

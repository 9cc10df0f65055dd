package daemon

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest/aip"
)

// runPublished prints the publication log of an archive (aip.Publications):
// one JSON line per bag published, oldest first.
func runPublished(ctx context.Context, args []string, std IO) error {
	fl := newFlagSet("published", "ARCHIVE (a folder or s3://bucket/prefix) [-since TIME] [-blog ID] [-paths] [-repair]", std.Stderr)
	since := fl.String("since", "", "only bags announced at or after `TIME`: RFC 3339 (2026-12-06T08:00:00Z), a date (2026-12-06, UTC) or a duration ago (24h)")
	blog := fl.String("blog", "", "only the bags of the blog `ID`")
	paths := fl.Bool("paths", false, "print each bag's location (folder or s3:// URL) alone, one per line")
	repair := fl.Bool("repair", false, "announce the bags the log lacks (a crash between a bag's publication and its line); takes the archive's lock")
	pos, err := parseInterspersed(fl, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &UsageError{errors.New("name one archive: a folder or s3://bucket/prefix")}
	}
	var f aip.PublicationFilter
	f.Blog = *blog
	if *since != "" {
		if f.Since, err = parseSince(*since, time.Now()); err != nil {
			return &UsageError{fmt.Errorf("-since: %w", err)}
		}
	}
	st, closeStore, err := openArchiveArg(ctx, pos[0], *repair)
	if err != nil {
		return err
	}
	defer closeStore()
	if *repair {
		return repairLog(ctx, st, std)
	}
	recs, err := aip.Publications(ctx, st, f)
	if len(recs) == 0 && err == nil {
		if _, serr := st.Stat(aip.PublicationsDir); serr != nil {
			fmt.Fprintf(std.Stderr, "%s has no publication log (written before blogharvest kept one?): published -repair announces every bag it holds\n", pos[0])
		}
	}
	for _, r := range recs {
		if *paths {
			fmt.Fprintln(std.Stdout, r.Location)
		} else {
			fmt.Fprintf(std.Stdout, "%s\n", r.Raw)
		}
	}
	return err
}

// repairLog announces every bag of st the publication log does not name.
func repairLog(ctx context.Context, st aip.Store, std IO) error {
	miss, err := aip.Unannounced(ctx, st)
	if err != nil {
		return err
	}
	for _, p := range miss {
		if _, err := aip.Announce(ctx, st, p); err != nil {
			return err
		}
		fmt.Fprintf(std.Stderr, "announced %s\n", aip.Location(st, p))
	}
	fmt.Fprintf(std.Stderr, "%d bag(s) were unannounced; the log now names every bag\n", len(miss))
	return nil
}

// parseSince reads -since: RFC 3339, a date (midnight UTC) or a duration
// before now.
func parseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("%q is neither a time (2026-12-06T08:00:00Z), a date (2026-12-06) nor a duration (24h)", s)
}

// openArchiveArg opens the archive a command line names, a folder or
// s3://bucket/prefix (endpoint and credentials from the environment);
// with write, a folder's lock is taken (failing at once while another
// process writes there) and released by the returned func.
func openArchiveArg(ctx context.Context, arg string, write bool) (aip.Store, func(), error) {
	if isS3(arg) {
		st, err := connectS3(ctx, strings.TrimRight(arg, "/"), "")
		return st, func() {}, err
	}
	if info, err := os.Stat(arg); err != nil || !info.IsDir() {
		return nil, nil, fmt.Errorf("%s: no archive folder there", arg)
	}
	if !write {
		return &aip.Local{Root: arg}, func() {}, nil
	}
	lock, err := aip.LockArchive(arg)
	if err != nil {
		return nil, nil, err
	}
	return &aip.Local{Root: arg, Lock: lock}, func() { lock.Close() }, nil
}

package daemon

import (
	"context"
	"errors"
	"fmt"

	"github.com/blogharvest/blogharvest/aip"
)

func runCheck(ctx context.Context, args []string, io IO) error {
	fs := newFlagSet("check", "DIR|s3://BUCKET/PREFIX...", io.Stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return &UsageError{errors.New("name at least one bag or archive directory")}
	}
	total := 0
	for _, dir := range fs.Args() {
		p := newProgress(io.Stderr)
		t, probs := checkArchive(ctx, &Config{Archive: dir}, func(bag string, _ aip.Tally) { p.item("checking "+redactURLs(dir), "bags", bag) })
		p.done()
		for _, p := range probs {
			fmt.Fprintln(io.Stdout, redactURLs(p.Error()))
		}
		total += len(probs)
		verdict := "ok"
		if len(probs) > 0 {
			verdict = fmt.Sprintf("%d problem(s)", len(probs))
		}
		fmt.Fprintf(io.Stdout, "%s: %s; verified %d bag(s): %s\n", redactURLs(dir), verdict, t.Bags(), describeTally(t))
	}
	if total > 0 {
		fmt.Fprintf(io.Stdout, "%d problem(s)\n", total)
		return ErrProblems
	}
	return nil
}

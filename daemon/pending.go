package daemon

import (
	"context"
	"errors"
)

// errNotYet is returned by subcommands whose implementation has not landed.
func errNotYet(issue string) error {
	return &UsageError{errors.New("not implemented yet (" + issue + ")")}
}

func runRun(ctx context.Context, args []string, io IO) error {
	fs := newFlagSet("run", "-config FILE", io.Stderr)
	fs.String("config", "blogs.yaml", "config `file`")
	if err := parse(fs, args); err != nil {
		return err
	}
	return errNotYet("the daemon issue")
}

func runCrawl(ctx context.Context, args []string, io IO) error {
	return errNotYet("the daemon issue")
}
func runLearn(ctx context.Context, args []string, io IO) error {
	return errNotYet("the learner issue")
}
func runCheck(ctx context.Context, args []string, io IO) error { return errNotYet("the AIP issue") }
func runStatus(ctx context.Context, args []string, io IO) error {
	return errNotYet("the daemon issue")
}
func runDemo(ctx context.Context, args []string, io IO) error { return errNotYet("the daemon issue") }

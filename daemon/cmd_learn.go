package daemon

import (
	"context"
	"errors"
)

func runLearn(ctx context.Context, args []string, io IO) error {
	fs := newFlagSet("learn", "-url URL", io.Stderr)
	fs.String("url", "", "the blog's home page or feed `URL`")
	if err := parse(fs, args); err != nil {
		return err
	}
	return &UsageError{errors.New("not implemented yet")}
}

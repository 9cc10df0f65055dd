package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/blogharvest/blogharvest/harvest"
)

func runLearn(ctx context.Context, args []string, io IO) error {
	fs := newFlagSet("learn", "-url URL", io.Stderr)
	rawURL := fs.String("url", "", "the blog's home page or feed `URL`")
	delay := fs.Duration("delay", time.Second, "minimum `time` between requests to one host")
	var allow originList
	fs.Var(&allow, "allow", "one more `origin` of the blog (scheme://host[:port]); repeatable")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *rawURL == "" {
		return &UsageError{errors.New("-url is required")}
	}
	c, err := adHocConfig(*rawURL, "unused", "", *delay, 100, "never", "")
	if err != nil {
		return &UsageError{err}
	}
	c.Blogs[0].Allow = allow
	o := crawlOptions(c, c.Blogs[0], newLogger(Log{Level: "warn"}, io.Stderr))
	res, err := harvest.Learn(ctx, o)
	if err != nil {
		return err
	}
	out := map[string]any{"url": *rawURL, "post_pattern": res.Pattern, "rules": res.Rules,
		"pages_fetched": res.Pages, "learn_ms": res.Timings.Learn.Milliseconds(), "warnings": res.Warnings}
	raw, err := json.Marshal(out)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return err
	}
	fmt.Fprintln(io.Stdout, b.String())
	return nil
}

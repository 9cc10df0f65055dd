package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/harvest/learn"
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
	p := newProgress(io.Stderr)
	o.Progress = func(step string) { p.item("learn", "steps", step) }
	res, err := harvest.Learn(ctx, o)
	p.done()
	if err != nil {
		return err
	}
	out, err := learnOutput(*rawURL, res)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, out, "", "  "); err != nil {
		return err
	}
	fmt.Fprintln(io.Stdout, b.String())
	return nil
}

// learnedField is one field's rule in learn's output: the field named, so a
// script iterates over "fields" without telling rules from metadata.
type learnedField struct {
	Field string `json:"field"`
	*learn.Rule
}

// learnOutput is learn's JSON: the rules' fields as a list (comments apart,
// with their sub-rules), and the metadata (training pages, threshold,
// language) beside them; pages_fetched counts the HTML pages the crawl
// fetched, requests every HTTP exchange.
func learnOutput(rawURL string, res *harvest.Result) ([]byte, error) {
	var r learn.Rules
	if len(res.Rules) > 0 {
		if err := json.Unmarshal(res.Rules, &r); err != nil {
			return nil, fmt.Errorf("learned rules: %w", err)
		}
	}
	fields := []learnedField{}
	for _, f := range []struct {
		name string
		rule *learn.Rule
	}{{"title", r.Title}, {"article", r.Article}, {"author", r.Author}, {"date", r.Date}} {
		if f.rule != nil {
			fields = append(fields, learnedField{f.name, f.rule})
		}
	}
	requests := 0
	for _, n := range res.Fetches {
		requests += n
	}
	return json.Marshal(map[string]any{"url": rawURL, "post_pattern": res.Pattern,
		"fields": fields, "comments": r.Comments, "training_pages": r.Pages, "min_confidence": r.MinConfidence,
		"lang": r.Lang, "sole_author": r.SoleAuthor, "skipped_pages": r.Skipped,
		"pages_fetched": res.Pages, "requests": requests, "learn_ms": res.Timings.Learn.Milliseconds(),
		"warnings": res.Warnings})
}

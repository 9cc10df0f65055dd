package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/blogharvest/blogharvest/report"
)

func runReport(ctx context.Context, args []string, std IO) error {
	fl := newFlagSet("report", "ARCHIVE/BLOG-ID (a folder or s3://bucket/prefix/BLOG-ID) [-out report.html]", std.Stderr)
	out := fl.String("out", "report.html", "write the report to `file` (replaced atomically when done); - for standard output")
	pos, err := parseInterspersed(fl, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &UsageError{errors.New("name one blog's folder in an archive (ARCHIVE/BLOG-ID)")}
	}
	target, err := resolveArchive(ctx, pos[0])
	if err != nil {
		return err
	}
	if len(target.Blogs) != 1 {
		return &UsageError{fmt.Errorf("%s holds %d blogs: name one of them (%s/%s)", pos[0], len(target.Blogs), pos[0], target.Blogs[0])}
	}
	if *out != "-" {
		if err := outsideArchives(*out, target.Store); err != nil {
			return err
		}
	}
	p := newProgress(std.Stderr)
	defer p.done()
	st, err := report.Collect(ctx, target, func(rel string) { p.item("report", "AIPs read", rel) })
	if err != nil {
		return err
	}
	path := *out
	if path == "-" {
		path = ""
	}
	if err := writeOutput(path, std.Stdout, func(w io.Writer) error { return st.WriteHTML(w, time.Now(), Build().Version) }); err != nil {
		return err
	}
	if path != "" {
		p.done()
		fmt.Fprintf(std.Stderr, "report of %s (%d entries, %d comments) written to %s\n", target.Blogs[0], st.Entries, st.Comments, path)
	}
	return nil
}

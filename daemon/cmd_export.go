package daemon

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/report"
)

func runExport(ctx context.Context, args []string, std IO) error {
	fl := newFlagSet("export", "ARCHIVE[/BLOG-ID] (a folder or s3://bucket/prefix) [-format jsonl|txt|xml|wacz] [-out FILE] [-all-versions]", std.Stderr)
	format := fl.String("format", "jsonl", "corpus `format`: "+strings.Join(report.Formats, ", ")+
		"; or wacz: the blogs' latest captures as a WACZ 1.1.1 web archive (needs -out)")
	out := fl.String("out", "", "write to `file` (replaced atomically when done) instead of standard output (- or none)")
	all := fl.Bool("all-versions", false, "export every version of each entry, oldest first, not only the latest")
	pos, err := parseInterspersed(fl, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &UsageError{errors.New("name one archive folder or one blog folder in it")}
	}
	if *out == "-" {
		*out = "" // standard output, as for report
	}
	target, err := resolveArchive(ctx, pos[0])
	if err != nil {
		return err
	}
	if *out != "" {
		if err := outsideArchives(*out, target.Store); err != nil {
			return err
		}
	}
	if *format == "wacz" {
		return exportWACZ(ctx, target, *out, *all, std)
	}
	if _, err := report.NewExporter(nil, *format); err != nil {
		return &UsageError{fmt.Errorf("-format: %w", err)}
	}
	// The process holds some 30 MB of tables other packages build at start;
	// collecting at a quarter of the default growth keeps the peak near
	// 80 MB while entries stream through (BenchmarkExportJSONL), for some
	// 20% more CPU.
	debug.SetGCPercent(25)
	p := newProgress(std.Stderr)
	defer p.done()
	n := 0
	err = writeOutput(*out, std.Stdout, func(w io.Writer) error {
		ex, _ := report.NewExporter(w, *format)
		opts := report.Options{AllVersions: *all, Bag: func(rel string) { p.item("export", "AIPs read", rel) }}
		if err := report.Walk(ctx, target, opts, ex.Write); err != nil {
			return err
		}
		n = ex.Posts()
		return ex.Close()
	})
	if err != nil {
		return err
	}
	if *out != "" {
		p.done()
		fmt.Fprintf(std.Stderr, "exported %d entries to %s\n", n, *out)
	}
	return nil
}

// exportWACZ writes the WACZ of target's blogs to out.
func exportWACZ(ctx context.Context, target report.Target, out string, all bool, std IO) error {
	if out == "" {
		return &UsageError{errors.New("-format wacz needs -out FILE")}
	}
	if all {
		return &UsageError{errors.New("-format wacz holds the latest versions; -all-versions does not apply")}
	}
	p := newProgress(std.Stderr)
	defer p.done()
	n := 0
	err := writeOutput(out, std.Stdout, func(w io.Writer) error {
		var err error
		n, err = report.WriteWACZ(ctx, target, report.WACZOptions{Software: Build().Software(),
			Bag: func(rel string) { p.item("export", "AIPs read", rel) }}, w)
		return err
	})
	if err != nil {
		return err
	}
	p.done()
	fmt.Fprintf(std.Stderr, "exported %d pages to %s\n", n, out)
	return nil
}

// parseInterspersed parses args into fl allowing flags after positional
// arguments (ARCHIVE -format xml), and returns the positional ones.
func parseInterspersed(fl *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parse(fl, args); err != nil {
			return nil, err
		}
		args = fl.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// writeOutput calls write with stdout when path is empty, else with a
// temporary file beside path that is renamed to path only when write
// succeeds, so a failed or interrupted run leaves no partial file. The
// file gets 0644 under the umask, as a file created in place would (the
// temp file is made 0600).
func writeOutput(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "" {
		return write(stdout)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(underUmask(0o644)); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// outsideArchives refuses an output path inside the archive folder read
// (symbolic links resolved; an archive that is no folder has none) or
// inside any archive or bag (aip.Enclosing): a file written there would
// change a published bag or lie in the archive outside any bag.
func outsideArchives(path string, archive aip.Store) error {
	if l, ok := archive.(*aip.Local); ok {
		in, err := aip.Within(path, l.Root)
		if err != nil {
			return fmt.Errorf("-out %s: %w", path, err)
		}
		if in {
			return &UsageError{fmt.Errorf("-out %s: inside the archive %s; write it outside any archive", path, l.Root)}
		}
	}
	enc, err := aip.Enclosing(path)
	if err != nil {
		return fmt.Errorf("-out %s: %w", path, err)
	}
	if enc != "" {
		return &UsageError{fmt.Errorf("-out %s: inside %s, an archive or a bag; write it outside any archive", path, enc)}
	}
	return nil
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"
)

// Modes of -mode.
const (
	modeExtract = "extract"
	modeCrawl   = "crawl"
	modeServe   = "serve"
)

// config is the parsed command line.
type config struct {
	corpus   string
	mode     string
	jsonOut  string
	mdOut    string
	plotOut  string
	blogs    []string
	fixtures bool
	verbose  bool
	reps     int
	render   string // crawl mode: the crawler's render mode (never unless -render)
	command  string // the command line, for the report
	caFile   string // serve mode: where the replay's CA certificate goes
	// The gate (floors.go): the floors file, whether to raise its floors
	// from this run, and whether to lower them too.
	floors      string
	writeFloors bool
	forceFloors bool
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := Main(ctx, os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "eval:", err)
		os.Exit(1)
	}
}

// Main parses args, runs the evaluation and writes the outputs asked for.
func Main(ctx context.Context, args []string, stderr io.Writer) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if cfg.mode == modeServe {
		return runServe(ctx, cfg, os.Stdout)
	}
	ev, err := evaluate(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	cfg.command = commandLine(args)
	return writeOutputs(cfg, ev, stderr)
}

// commandLine is the command that reproduces a run, for the report.
func commandLine(args []string) string {
	return strings.Join(append([]string{"go", "run", "."}, args...), " ")
}

// parseFlags parses the command line.
func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := &config{}
	var blogs string
	fs.StringVar(&cfg.corpus, "corpus", "", "corpus folder (one folder per blog with blog.json and site/)")
	fs.StringVar(&cfg.mode, "mode", modeExtract, "extract, crawl, or serve (replay one blog over HTTPS behind a CONNECT proxy for other programs)")
	fs.StringVar(&cfg.jsonOut, "json", "", "write the JSON report here")
	fs.StringVar(&cfg.mdOut, "md", "", "write the Markdown report here (/dev/stdout works)")
	fs.StringVar(&cfg.plotOut, "plot", "", "write the SVG plot of cumulative extraction time here (extract mode)")
	fs.StringVar(&blogs, "blogs", "", "comma-separated blog names to evaluate (default: all)")
	fs.BoolVar(&cfg.fixtures, "fixtures", false, "also evaluate the project's own fixture blogs")
	fs.BoolVar(&cfg.verbose, "v", false, "log progress, blogharvest's misses and the crawler's warnings to stderr")
	fs.StringVar(&cfg.caFile, "ca", "", "serve mode: write the replay's CA certificate (PEM) here")
	fs.StringVar(&cfg.render, "render", "never", "crawl mode: the crawler's render mode (never, auto, always); with -v the renders per reason are logged")
	fs.StringVar(&cfg.floors, "floors", "", "check every blog's figures against the floors in this file (exit status 1, naming blog, figure, value and floor, when one falls below)")
	fs.BoolVar(&cfg.writeFloors, "write-floors", false, "with -floors: first raise the file's floors of this mode to this run's figures (never lowers; creates the file)")
	fs.BoolVar(&cfg.forceFloors, "force-floors", false, "with -write-floors: set the floors to this run's figures, lowering them too, and drop floors of figures not scored")
	fs.IntVar(&cfg.reps, "reps", 1, "extract mode: time each learn and extract call this many times and keep the fastest")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if blogs != "" {
		cfg.blogs = strings.Split(blogs, ",")
	}
	if cfg.mode != modeExtract && cfg.mode != modeCrawl && cfg.mode != modeServe {
		return nil, fmt.Errorf("-mode %q: want %s, %s or %s", cfg.mode, modeExtract, modeCrawl, modeServe)
	}
	if (cfg.writeFloors || cfg.forceFloors) && cfg.floors == "" {
		return nil, errors.New("-write-floors and -force-floors need -floors FILE")
	}
	if cfg.forceFloors && !cfg.writeFloors {
		return nil, errors.New("-force-floors needs -write-floors")
	}
	if cfg.corpus == "" && !cfg.fixtures {
		return nil, errors.New("nothing to evaluate: give -corpus DIR and/or -fixtures")
	}
	return cfg, nil
}

// evaluate runs the chosen mode over the fixtures and the corpus.
func evaluate(ctx context.Context, cfg *config, stderr io.Writer) (*evaluation, error) {
	ev := &evaluation{mode: cfg.mode, timeline: newTimeline(), started: time.Now()}
	var err error
	if cfg.mode == modeExtract {
		err = runExtract(ctx, cfg, ev, stderr)
	} else {
		err = runCrawl(ctx, cfg, ev, stderr)
	}
	ev.wall = time.Since(ev.started)
	return ev, err
}

// runExtract evaluates extract mode on the fixtures and the corpus.
func runExtract(ctx context.Context, cfg *config, ev *evaluation, stderr io.Writer) error {
	logf := progress(cfg, stderr)
	x := newExtractor(baselines(), ev.timeline, logf)
	x.reps = cfg.reps
	ev.systems = x.systems
	if cfg.fixtures {
		for _, name := range fixtureNames(cfg.blogs) {
			s, err := fixtureSamples(name)
			if err != nil {
				return err
			}
			logf("extract %s%s: %d posts", fixturePrefix, name, len(s))
			br := x.blog(fixturePrefix+name, s)
			br.fixture = true
			ev.blogs = append(ev.blogs, br)
		}
	}
	if cfg.corpus == "" {
		return nil
	}
	blogs, err := loadCorpus(cfg.corpus, cfg.blogs)
	if err != nil {
		return err
	}
	for _, b := range blogs {
		if err := ctx.Err(); err != nil {
			return err
		}
		s, skip, err := b.samples()
		if err != nil {
			return err
		}
		logf("extract %s: %d posts", b.Name, len(s))
		br := x.blog(b.Name, s)
		if skip != "" {
			br.skip = skip
		}
		ev.blogs = append(ev.blogs, br)
	}
	return nil
}

// progress returns a logger writing to stderr with -v, else discarding.
func progress(cfg *config, stderr io.Writer) func(format string, args ...any) {
	return func(format string, args ...any) {
		if cfg.verbose {
			fmt.Fprintf(stderr, format+"\n", args...)
		}
	}
}

// writeOutputs checks the floors (-floors), then writes the JSON,
// Markdown and SVG files asked for; a figure below its floor makes the
// error, once the outputs are written.
func writeOutputs(cfg *config, ev *evaluation, stderr io.Writer) error {
	r := buildReport(ev, cfg.corpus)
	r.Command = cfg.command
	if ev.mode == modeExtract {
		r.Reps = max(cfg.reps, 1)
	}
	gateErr := applyFloors(cfg, r)
	if g := r.Gate; g != nil {
		for _, c := range g.Changes {
			fmt.Fprintln(stderr, "floors:", c)
		}
		fmt.Fprintf(stderr, "floors %s, mode %s: %d figures checked, %d below their floor\n", g.Floors, r.Mode,
			g.Checked, len(g.Violations))
	}
	if err := writeReport(cfg, ev, r); err != nil {
		return err
	}
	return gateErr
}

// writeReport writes the JSON, Markdown and SVG files asked for.
func writeReport(cfg *config, ev *evaluation, r *report) error {
	if cfg.jsonOut != "" {
		data, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return fmt.Errorf("encode report: %w", err)
		}
		if err := os.WriteFile(cfg.jsonOut, append(data, '\n'), 0o644); err != nil {
			return fmt.Errorf("write json: %w", err)
		}
	}
	if cfg.mdOut != "" {
		if err := writeFile(cfg.mdOut, func(w io.Writer) error { return writeMarkdown(w, r, ev.systems) }); err != nil {
			return fmt.Errorf("write markdown: %w", err)
		}
	}
	if cfg.plotOut != "" && ev.mode == modeExtract {
		if err := writeFile(cfg.plotOut, func(w io.Writer) error { return writePlot(w, r.Curves, append(ev.systems, curveOursApply)) }); err != nil {
			return fmt.Errorf("write plot: %w", err)
		}
	}
	return nil
}

// writeFile creates path (or writes to /dev/stdout) with fn.
func writeFile(path string, fn func(io.Writer) error) error {
	if path == "-" || path == "/dev/stdout" {
		return fn(os.Stdout)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fn(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

package daemon

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
)

// Exit codes, decided here and nowhere else.
const (
	ExitOK       = 0 // success
	ExitFailure  = 1 // the command ran and found problems or failed
	ExitUsage    = 2 // bad flags, bad config, or a subcommand not available
	ExitSignaled = 3 // a second signal ended the process at once
)

// IO is what a command reads and writes besides files: the standard streams
// and, for the daemon, the channel that delivers SIGHUP.
type IO struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Reload <-chan os.Signal // nil: reloading is off
}

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, io IO) error
}

// commands lists the subcommands of DESIGN §3. Filled in init to break the
// initialisation cycle through usage.
var commands map[string]command

func init() {
	commands = map[string]command{
		"run":         {"run the daemon: schedule harvests and write AIPs", runRun},
		"crawl":       {"harvest blogs now, from a config or one -url", runCrawl},
		"learn":       {"learn and print the extraction rules of a blog", runLearn},
		"check":       {"verify AIPs: fixity, schemas, MARC lint", runCheck},
		"status":      {"show per-blog schedule state", runStatus},
		"demo":        {"harvest a bundled sample blog end to end", runDemo},
		"version":     {"print the version", runVersion},
		"export":      {"write archived posts and comments as a corpus (jsonl, txt, xml)", runExport},
		"report":      {"write one self-contained HTML report of a blog's archive", runReport},
		"worker":      {"crawl a cluster's tasks (NATS JetStream; needs the cluster key)", runWorker},
		"nkey":        {"make a cluster member's identity: an nkey seed file and its public key", runNkey},
		"import-opml": {"append the blogs of an OPML subscription list to a config", runImportOPML},
		"locate":      {"print the AIPs (every version) that hold a post URL", runLocate},
		"published":   {"list the bags published into an archive (its publication log), oldest first", runPublished},
	}
}

// UsageError is a command-line error: it maps to exit code 2.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// ErrProblems is returned by commands that ran to the end and found problems
// (check): it maps to exit code 1 without an extra message.
var ErrProblems = errors.New("problems found")

// Main runs the subcommand named by args[0] and returns the process exit
// code. It never calls os.Exit, so tests can run it in-process.
func Main(ctx context.Context, args []string, io IO) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage(io.Stderr)
		if len(args) == 0 {
			return ExitUsage
		}
		return ExitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(io.Stderr, "blogharvest: unknown command %q\n", args[0])
		usage(io.Stderr)
		return ExitUsage
	}
	// Every message goes to stderr; none may show the credentials of a URL
	// (an S3 archive, a blog, an origin): stderr is redacted as a whole,
	// stdout where a line names an argument (it may carry an export).
	io.Stderr = redactingWriter{io.Stderr}
	return exitCode(io.Stderr, args[0], cmd.run(ctx, args[1:], io))
}

func exitCode(stderr io.Writer, name string, err error) int {
	var ue *UsageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return ExitOK
	case errors.Is(err, ErrProblems):
		return ExitFailure
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "blogharvest %s: %v\n", name, err)
		return ExitUsage
	default:
		fmt.Fprintf(stderr, "blogharvest %s: %v\n", name, err)
		return ExitFailure
	}
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "blogharvest %s preserves blogs as OAIS Archival Information Packages.\n\nUsage:\n  blogharvest <command> [flags]\n\nCommands:\n", Build().Version)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-11s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun \"blogharvest <command> -h\" for a command's flags.")
}

// newFlagSet returns a FlagSet for a subcommand whose usage names it and its
// synopsis, writing to stderr.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: blogharvest %s %s\n\n%s.\n", name, synopsis, commands[name].summary)
		var b strings.Builder
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
		if b.Len() > 0 {
			fmt.Fprintf(stderr, "\nFlags:\n%s", b.String())
		}
	}
	return fs
}

// parse parses args into fs, turning flag errors into usage errors.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &UsageError{err}
	}
	return nil
}

// SignalContext returns a context cancelled by the first of sigs. A second
// signal prints a note to w and exits the process at once with ExitSignaled.
func SignalContext(parent context.Context, w io.Writer, sigs ...os.Signal) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, sigs...)
	go func() {
		select {
		case s := <-ch:
			fmt.Fprintf(w, "blogharvest: %v: shutting down (send again to exit at once)\n", s)
			cancel()
		case <-ctx.Done():
			signal.Stop(ch)
			return
		}
		s := <-ch
		fmt.Fprintf(w, "blogharvest: %v again: exiting now\n", s)
		os.Exit(ExitSignaled)
	}()
	return ctx, func() { signal.Stop(ch); cancel() }
}

func runVersion(ctx context.Context, args []string, io IO) error {
	fs := newFlagSet("version", "", io.Stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	fmt.Fprint(io.Stdout, Build())
	return nil
}

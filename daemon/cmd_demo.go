package daemon

import (
	"context"
	"fmt"
	goio "io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/aip/s3store"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// demoBlog is the bundled sample blog the demo serves. It comes from
// internal/fixture, which the production binary links for this command
// only (every fixture blog's generator: fixture.New picks the kind at run
// time); 0.8 % of the binary, doc/packages.md says why it stays.
const demoBlog = "wordpress"

func runDemo(ctx context.Context, args []string, io IO) error {
	fl := newFlagSet("demo", "[-out DIR] [-serve]", io.Stderr)
	out := fl.String("out", "demo-archive", "archive `dir` the demo writes into")
	serveOnly := fl.Bool("serve", false, "only serve the sample blog and print a config for trying run")
	addr := fl.String("addr", "", "`address` to serve the sample blog on (default: where this archive's demo blog was served before, else a free port)")
	if err := parse(fl, args); err != nil {
		return err
	}
	site, err := fixture.New(demoBlog)
	if err != nil {
		return err
	}
	ln, err := listenDemo(*out, *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: site.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	blogURL := "http://" + ln.Addr().String() + "/"
	if *serveOnly {
		fmt.Fprintf(io.Stdout, "serving the sample blog at %s (Ctrl-C to stop)\n\nTry the daemon with this blogs.yaml:\n\n%s", blogURL, demoConfig(blogURL, *out))
		<-ctx.Done()
		return nil
	}
	return demoHarvest(ctx, blogURL, *out, io)
}

// demoAddrFile, in an archive's .state folder, holds the address the demo
// served the sample blog on for that archive. The blog's address is part of
// every permalink and entry key: serving it on the same address again makes
// a second demo an update of the same blog, not a second copy of it.
const demoAddrFile = "demo-server"

// listenDemo listens where the sample blog of the archive out was served
// before (or on addr, which must then agree), else on addr or a free port
// of 127.0.0.1, and remembers the address in the archive.
func listenDemo(out, addr string) (net.Listener, error) {
	state := demoStateDir(out)
	prev, _ := os.ReadFile(filepath.Join(state, demoAddrFile))
	was := strings.TrimSpace(string(prev))
	switch {
	case was != "" && addr != "" && addr != was:
		return nil, &UsageError{fmt.Errorf("-addr %s: the sample blog of %s was served at %s, and its address is part "+
			"of every archived URL; use that address, or another -out", addr, out, was)}
	case was != "":
		addr = was
	case addr == "":
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil && was != "" {
		return nil, fmt.Errorf("the sample blog of %s was served at %s, and its address is part of every archived "+
			"URL; that port is busy now (%w): free it, or give -out a new folder", out, was, err)
	}
	if err != nil {
		return nil, err
	}
	if was == "" {
		if err := os.MkdirAll(state, 0o755); err != nil {
			ln.Close()
			return nil, err
		}
		err = writeOutput(filepath.Join(state, demoAddrFile), nil, func(w goio.Writer) error {
			_, err := fmt.Fprintln(w, ln.Addr().String())
			return err
		})
		if err != nil {
			ln.Close()
			return nil, err
		}
	}
	return ln, nil
}

func demoConfig(blogURL, out string) string {
	return fmt.Sprintf(`archive: %s
state: %s
listen: 127.0.0.1:8470
organization: "blogharvest demo"
blogs:
  - id: sample
    url: %s
    schedule: "@every 1m"
    delay: 10ms
`, out, demoState(out), blogURL)
}

// demoState is the schedule state of the demo archive out: kept in the
// archive, so that a second demo (or run with demo -serve's config) updates
// the blog from the first one's watermark.
func demoState(out string) string {
	return filepath.Join(demoStateDir(out), "schedule.db")
}

// demoStateDir is the folder of the demo's own state for the archive out:
// its .state folder, or for an S3 archive a folder of the user's cache
// named after the archive's URL.
func demoStateDir(out string) string {
	if !isS3(out) {
		return filepath.Join(out, ".state")
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "blogharvest", "demo", strings.NewReplacer("/", "_", ":", "_").Replace(out))
}

// demoHarvest crawls the sample blog into out, checks every AIP and prints
// a summary.
func demoHarvest(ctx context.Context, blogURL, out string, io IO) error {
	c, err := adHocConfig(blogURL, out, "sample", 5*time.Millisecond, 5000, "never", "blogharvest demo")
	if err != nil {
		return err
	}
	c.Log.Level = "warn"
	c.State = demoState(out)
	mode := "a new harvest"
	if v := latestBlogVersion(ctx, c, "sample"); v > 0 {
		mode = fmt.Sprintf("an update of the blog archived there (blog/v%d)", v)
	}
	fmt.Fprintf(io.Stdout, "serving the sample blog %q at %s\nharvesting it into %s: %s …\n", demoBlog, blogURL, out, mode)
	start := time.Now()
	st, err := crawlBlogs(ctx, c, c.Blogs, io, nil)
	if err != nil {
		return err
	}
	took := time.Since(start)
	if isS3(out) {
		written := st.Entries + st.Blogs
		fmt.Fprintf(io.Stdout, "S3 requests while harvesting: %d (%s)\n", s3store.ProcessRequests(), perBag(s3store.ProcessRequests(), written))
	}
	fmt.Fprintf(io.Stdout, "checking every AIP (BagIt fixity, METS/MARC/PREMIS schemas, MARC lint) …\n")
	sum, probs := checkArchive(ctx, c, nil)
	for _, p := range probs {
		fmt.Fprintln(io.Stdout, "  ", p)
	}
	abs, _ := filepath.Abs(out)
	if isS3(out) {
		abs = out
	}
	fmt.Fprintf(io.Stdout, "\nharvested in %s: %d entry AIP(s) written this run (new entries and new versions), %d unchanged, %d comments in them\n",
		took.Round(time.Millisecond), st.Entries, st.Unchanged, st.Comments)
	fmt.Fprintf(io.Stdout, "the archive holds %s\n  check: %d problem(s)\n", describeTally(sum), len(probs))
	v := latestBlogVersion(ctx, c, "sample")
	fmt.Fprintf(io.Stdout, "\nAIPs are under %s/sample/  (the latest Blog AIP is blog/v%d/; entries/<yyyy>/<entry-key>/v<N>/, requisites/v<N>/)\nverify them any time with: go run ./cmd/blogharvest check %s\n", abs, v, out)
	if len(probs) > 0 {
		return ErrProblems
	}
	return nil
}

// describeTally says what a tally counts, in the words of
// aip.TallyDefinition, for demo and check.
func describeTally(t aip.Tally) string {
	return fmt.Sprintf("%d blog(s) in %d Blog AIP version(s), %d entries in %d Entry AIP version(s), %d requisites package version(s); payload %d files, %s\n  (%s)",
		t.Blogs, t.BlogVersions, t.Entries, t.EntryVersions, t.RequisiteVersions, t.Files, humanBytes(t.Bytes), aip.TallyDefinition)
}

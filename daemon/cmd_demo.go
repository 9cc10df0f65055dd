package daemon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"path/filepath"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// demoBlog is the bundled sample blog the demo serves.
const demoBlog = "wordpress"

func runDemo(ctx context.Context, args []string, io IO) error {
	fl := newFlagSet("demo", "[-out DIR] [-serve]", io.Stderr)
	out := fl.String("out", "demo-archive", "archive `dir` the demo writes into")
	serveOnly := fl.Bool("serve", false, "only serve the sample blog and print a config for trying run")
	addr := fl.String("addr", "127.0.0.1:0", "with -serve: `address` to serve the sample blog on")
	if err := parse(fl, args); err != nil {
		return err
	}
	site, err := fixture.New(demoBlog)
	if err != nil {
		return err
	}
	listen := "127.0.0.1:0"
	if *serveOnly {
		listen = *addr
	}
	ln, err := net.Listen("tcp", listen)
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

func demoConfig(blogURL, out string) string {
	return fmt.Sprintf(`archive: %s
state: %s/.state/schedule.db
listen: 127.0.0.1:8470
organization: "blogharvest demo"
blogs:
  - id: sample
    url: %s
    schedule: "@every 1m"
    delay: 10ms
`, out, filepath.Dir(out+"/x"), blogURL)
}

// demoHarvest crawls the sample blog into out, checks every AIP and prints
// a summary.
func demoHarvest(ctx context.Context, blogURL, out string, io IO) error {
	fmt.Fprintf(io.Stdout, "serving the sample blog %q at %s\nharvesting it into %s …\n", demoBlog, blogURL, out)
	c, err := adHocConfig(blogURL, out, "sample", 5*time.Millisecond, 5000, "never", "blogharvest demo")
	if err != nil {
		return err
	}
	c.Log.Level = "warn"
	start := time.Now()
	st, err := crawlAdHoc(ctx, c, io)
	if err != nil {
		return err
	}
	took := time.Since(start)
	fmt.Fprintf(io.Stdout, "checking every AIP (BagIt fixity, METS/MARC/PREMIS schemas, MARC lint) …\n")
	probs := aip.Check(out)
	for _, p := range probs {
		fmt.Fprintln(io.Stdout, "  ", p)
	}
	sum, err := summarize(out)
	if err != nil {
		return err
	}
	abs, _ := filepath.Abs(out)
	fmt.Fprintf(io.Stdout, "\narchived in %s:\n  %d blog AIP(s), %d entry AIP(s) (%d written this run, %d unchanged), %d requisites package(s), %d comments this run\n  %d captured files, %s in bags\n  check: %d problem(s)\n",
		took.Round(time.Millisecond), sum.blogs, sum.entries, st.Entries, st.Unchanged, sum.requisites, st.Comments, sum.files, humanBytes(sum.bytes), len(probs))
	fmt.Fprintf(io.Stdout, "\nAIPs are under %s/sample/  (blog/v1/, entries/<yyyy>/<entry-key>/v<N>/, requisites/v<N>/)\nverify them any time with: go run ./cmd/blogharvest check %s\n", abs, out)
	if len(probs) > 0 {
		return ErrProblems
	}
	return nil
}

type archiveSummary struct {
	blogs, entries, files int
	requisites            int // requisites package versions
	bytes                 int64
}

// summarize counts the bags, captured files and bytes under root.
func summarize(root string) (archiveSummary, error) {
	var s archiveSummary
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".tmp" || d.Name() == ".state" {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == aip.LockFile && filepath.Dir(p) == filepath.Clean(root) {
			return nil // the archive's lock file, not part of any bag
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		s.bytes += info.Size()
		switch {
		case d.Name() == "bagit.txt" && filepath.Base(filepath.Dir(filepath.Dir(p))) == "blog":
			s.blogs++
		case d.Name() == "bagit.txt" && filepath.Base(filepath.Dir(filepath.Dir(p))) == "requisites":
			s.requisites++
		case d.Name() == "bagit.txt":
			s.entries++
		case filepath.Base(filepath.Dir(filepath.Dir(p))) == "objects":
			s.files++
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	return s, err
}

package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/aip/s3store"
	"github.com/blogharvest/blogharvest/report"
)

// s3SweepGrace is how old an unpublished staged object of an S3 archive
// must be before a starting writer removes it: longer than any bag write,
// so that a writer on another machine never loses a bag it is writing
// (doc/storage.md).
const s3SweepGrace = 6 * time.Hour

// isS3 reports whether the archive is an S3 archive (s3://bucket/prefix).
func isS3(archive string) bool { return s3store.IsURL(archive) }

// openS3Archive connects to the S3 archive of c (endpoint and credentials
// from the environment or c.ArchiveCredentials, never logged) and sweeps
// unpublished staged objects older than s3SweepGrace.
func openS3Archive(ctx context.Context, c *Config) (*s3store.Store, error) {
	st, err := connectS3(ctx, c.Archive, c.ArchiveCredentials)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if _, err := st.Sweep(ctx, s3SweepGrace); err != nil {
		return nil, fmt.Errorf("sweep unfinished AIPs: %w", err)
	}
	return st, nil
}

// connectS3 connects to the S3 archive (s3://bucket/prefix; endpoint and
// credentials from the environment or credFile, never logged) without
// changing anything in it.
func connectS3(ctx context.Context, archive, credFile string) (*s3store.Store, error) {
	cfg, err := s3store.FromEnv(archive, credFile)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	return s3store.New(ctx, cfg)
}

// resolveArchive returns what ARCHIVE[/BLOG-ID] on a command line names
// (report.ResolveIn of the store built here, once, for report and export
// to read through): a folder (aip.Local), or an S3 archive
// s3://bucket/prefix or one blog of it, s3://bucket/prefix/blog-id, read
// through its store (the endpoint and credentials from the environment)
// and never written.
func resolveArchive(ctx context.Context, arg string) (report.Target, error) {
	if !isS3(arg) {
		return resolveFolder(arg)
	}
	arg = strings.TrimRight(arg, "/")
	st, err := connectS3(ctx, arg, "")
	if err != nil {
		return report.Target{}, err
	}
	rest := strings.TrimPrefix(arg, "s3://")
	if i := strings.LastIndex(rest, "/"); i > 0 && report.IsBlogDir(st, ".") {
		parent, err := connectS3(ctx, "s3://"+rest[:i], "")
		if err != nil {
			return report.Target{}, err
		}
		return report.ResolveIn(parent, rest[i+1:])
	}
	return report.ResolveIn(st, ".")
}

// resolveFolder is resolveArchive of a folder: an archive (every blog in
// it) or one blog's folder <archive>/<blog-id>.
func resolveFolder(arg string) (report.Target, error) {
	p := filepath.Clean(arg)
	fi, err := os.Stat(p)
	if err != nil {
		return report.Target{}, fmt.Errorf("archive %s: %w", p, err)
	}
	if !fi.IsDir() {
		return report.Target{}, fmt.Errorf("archive %s: not a folder", p)
	}
	if report.IsBlogDir(&aip.Local{Root: p}, ".") {
		return report.ResolveIn(&aip.Local{Root: filepath.Dir(p)}, filepath.Base(p))
	}
	return report.ResolveIn(&aip.Local{Root: p}, ".")
}

// checkArchive checks the whole archive: aip.CheckTally of a folder, or
// aip.CheckStore through the store of an S3 archive.
func checkArchive(ctx context.Context, c *Config, bag func(dir string, t aip.Tally)) (aip.Tally, []error) {
	if !isS3(c.Archive) {
		return aip.CheckTally(c.Archive, bag)
	}
	st, err := openS3Archive(ctx, c)
	if err != nil {
		return aip.Tally{}, []error{err}
	}
	return aip.CheckStore(ctx, st, bag)
}

// archiveReader is a read-only connection to an archive, made once.
type archiveReader struct {
	once sync.Once
	s    aip.Store
}

// use makes s the Store read, unless one was opened already (the writer's
// store, set when the archive opens).
func (r *archiveReader) use(s aip.Store) { r.once.Do(func() { r.s = s }) }

// open returns the Store of c's archive, connecting at the first call.
func (r *archiveReader) open(c *Config, log *slog.Logger) aip.Store {
	r.once.Do(func() {
		s, err := readArchive(context.Background(), c)
		if err != nil && log != nil {
			log.Warn("the archive cannot be read", "archive", c.Archive, "err", err)
		}
		r.s = s
	})
	return r.s
}

// readArchive returns the Store that reads c's archive without changing
// it: the folder, or a connection to the S3 archive.
func readArchive(ctx context.Context, c *Config) (aip.Store, error) {
	if !isS3(c.Archive) {
		return &aip.Local{Root: c.Archive}, nil
	}
	st, err := connectS3(ctx, c.Archive, c.ArchiveCredentials)
	if err != nil {
		return nil, err
	}
	return st, nil
}

// perBag says how many requests each AIP written cost on average
// (requisites packages count with the AIP that needed them).
func perBag(requests int64, written int) string {
	if written == 0 {
		return "no AIP written"
	}
	return fmt.Sprintf("%.1f per Blog or Entry AIP written", float64(requests)/float64(written))
}

// latestBlogVersion returns the newest version of blog id's Blog AIP in
// c's archive, a folder or an S3 archive; 0 when none can be read.
func latestBlogVersion(ctx context.Context, c *Config, id string) int {
	st, err := readArchive(ctx, c)
	if err != nil {
		return 0
	}
	v, _ := aip.LatestVersionOf(st, id+"/blog")
	return v
}

package daemon

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/aip/s3store"
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
	cfg, err := s3store.FromEnv(c.Archive, c.ArchiveCredentials)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	st, err := s3store.New(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if _, err := st.Sweep(ctx, s3SweepGrace); err != nil {
		return nil, fmt.Errorf("sweep unfinished AIPs: %w", err)
	}
	return st, nil
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
	if !isS3(c.Archive) {
		v, _ := aip.LatestVersion(filepath.Join(c.Archive, id, "blog"))
		return v
	}
	st, err := openS3Archive(ctx, c)
	if err != nil {
		return 0
	}
	v, _ := aip.LatestVersionOf(st, id+"/blog")
	return v
}

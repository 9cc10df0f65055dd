package aip

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
)

// A blog's state is what a crawl leaves for the next update of the blog
// that no Blog AIP holds: a settled update writes no Blog AIP (it does
// not read the home page), and a Blog AIP whose content is unchanged gets
// no new version, so the state file of the latest Blog AIP
// (blogharvest.RoleState) can be older than the last crawl. The archive
// keeps the newest beside the bags, written through the Store so that it
// is the same on a folder and on S3:
//
//	<archive>/.state/<blog-id>/<yyyymmddThhmmss.nnnnnnnnnZ>.json
//
// one create-only object per write (PutRecord: whole or absent, never
// half written, on a folder a durable temporary file renamed into
// place), named by the time it was written; the older ones are removed
// once the new one is there, so that a reader (LatestBlogState) takes the
// last name of the listing. Its content is the caller's (harvest's
// Watch). It is no part of any bag: Check, the tally and the
// publication log do not see it, and losing it costs the next update
// only what the Blog AIP's state file no longer says.

// StateDir is the folder, at the archive root, of the blogs' states. It
// begins with a dot: no blog id can take it.
const StateDir = ".state"

// PutBlogState writes data as the newest state of blogID in the archive s
// (at is the time of the write, its name), then removes the older ones; a
// failed removal is no error (the newest is read first).
func PutBlogState(ctx context.Context, s Store, blogID string, at time.Time, data []byte) error {
	if err := blogharvest.ValidID(blogID); err != nil {
		return blogharvest.Permanent(fmt.Errorf("aip: blog id: %w", err))
	}
	dir := path.Join(StateDir, blogID)
	name := path.Join(dir, recordStamp(at)+".json")
	if err := s.PutRecord(ctx, name, data); err != nil {
		return fmt.Errorf("aip: state of %s: %w", blogID, err)
	}
	names, err := s.ListRecords(ctx, dir, "")
	if err != nil {
		return nil
	}
	for _, n := range names {
		if n < name && strings.HasSuffix(n, ".json") {
			s.Remove(ctx, n)
		}
	}
	return nil
}

// LatestBlogState returns the newest state of blogID the archive s keeps
// (PutBlogState); nil, and no error, when it keeps none.
func LatestBlogState(ctx context.Context, s Store, blogID string) ([]byte, error) {
	if err := blogharvest.ValidID(blogID); err != nil {
		return nil, blogharvest.Permanent(fmt.Errorf("aip: blog id: %w", err))
	}
	names, err := s.ListRecords(ctx, path.Join(StateDir, blogID), "")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("aip: state of %s: %w", blogID, err)
	}
	for i := len(names) - 1; i >= 0; i-- {
		if strings.HasSuffix(names[i], ".json") {
			data, err := s.ReadRecord(ctx, names[i])
			if err != nil {
				return nil, fmt.Errorf("aip: state of %s: %w", blogID, err)
			}
			return data, nil
		}
	}
	return nil, nil
}

// PutIdentityEvidence writes data, the ledger of a crawl that found the
// site at the blog's address no longer the blog archived (and archived
// nothing), beside the blog's state:
//
//	<archive>/.state/<blog-id>/identity-<yyyymmddThhmmss.nnnnnnnnnZ>.tsv
//
// create-only, one per such crawl, never removed by PutBlogState (which
// removes older states only) and never read as a state
// (LatestBlogState reads .json names only). It is no Blog AIP version:
// a new version of the Blog AIP would describe a stranger's site as the
// blog (doc/lifecycle.md).
func PutIdentityEvidence(ctx context.Context, s Store, blogID string, at time.Time, data []byte) error {
	if err := blogharvest.ValidID(blogID); err != nil {
		return blogharvest.Permanent(fmt.Errorf("aip: blog id: %w", err))
	}
	name := path.Join(StateDir, blogID, "identity-"+recordStamp(at)+".tsv")
	if err := s.PutRecord(ctx, name, data); err != nil {
		return fmt.Errorf("aip: identity evidence of %s: %w", blogID, err)
	}
	return nil
}

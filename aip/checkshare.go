package aip

import (
	"context"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// ShareOf returns the share, 0 to n-1, that the bag named name (its path
// relative to the archive root, slash-separated, such as
// "blog-1/entries/2024/key/v2") belongs to when an archive is read in n
// shares, as restic's --read-data-subset reads a repository: FNV-1a of the
// name modulo n. It depends on the name alone, so a bag keeps its share as
// the archive grows, and n audits that read shares 0, 1, …, n-1 in turn
// read every bag published before the first of them exactly once. n below
// 2 puts every bag in share 0.
func ShareOf(name string, n int) int {
	if n < 2 {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32() % uint32(n))
}

// BagCheck is the outcome of one bag's check in CheckShare.
type BagCheck struct {
	Name     string  // the bag's name in the store, such as "blog-1/blog/v3"
	Problems []error // what its check found; nil: the bag is sound
}

// CheckShare checks the bags at and below the folder dir of the archive s
// (".": the whole archive; a blog's folder) that keep selects by name
// (every bag when keep is nil) with the checks of Check, each bag read
// as an fs.FS: the bags of a Local store in place (folderFS), as
// CheckTally reads them, those of any other store through the store
// itself (fs.Sub: objects listed by the store, each read once), as
// CheckStore reads them, with no copy (only published bags are seen: a
// bag being written, under .tmp or staged without its marker, is not). bag, if not nil, is called after each bag with its name, its
// problems and the tally so far. CheckShare returns the tally and the
// problems that belong to no single bag: folders that cannot be read,
// symbolic links between bags, v<N> folders that are not bags (reported by
// the share their name falls in) and bags of the share that claim one
// identifier (DuplicateError; two such bags in different shares go
// unnoticed until a check reads both). It stops when ctx ends, returning
// ctx's error among the problems.
func CheckShare(ctx context.Context, s Store, dir string, keep func(name string) bool, bag func(BagCheck, Tally)) (Tally, []error) {
	if l, ok := s.(*Local); ok {
		return checkLocalShare(ctx, l.Root, dir, keep, bag)
	}
	return checkStoreShare(ctx, s, dir, keep, bag)
}

// checkLocalShare is CheckShare of the archive folder root, in place.
func checkLocalShare(ctx context.Context, root, dir string, keep func(string) bool, bag func(BagCheck, Tally)) (Tally, []error) {
	var t Tally
	var ids identityClaims
	var errs []error
	keep = orAll(keep)
	nameOf := func(p string) string {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return filepath.ToSlash(p)
		}
		return filepath.ToSlash(rel)
	}
	err := filepath.WalkDir(filepath.Join(root, filepath.FromSlash(dir)), func(p string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		name := nameOf(p)
		switch {
		case err != nil:
			errs = append(errs, err)
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			if keep(name) {
				target, _ := os.Readlink(p)
				errs = append(errs, &SymlinkError{Path: p, Target: target})
			}
			return nil
		case !d.IsDir():
			return nil
		case d.Name() == TmpDir && p != root:
			return filepath.SkipDir
		case name == PublicationsDir, name == StateDir:
			return filepath.SkipDir // the publication log, the blogs' states: no bag there (publog.go, blogstate.go)
		case isBag(folderFS(p)):
			if keep(name) {
				found := checkAIP(folderFS(p), folderAt(p), true, func(payload map[string]int64) {
					t.add(p, payload)
					ids.add(p, folderFS(p))
				})
				if bag != nil {
					bag(BagCheck{Name: name, Problems: found}, t)
				}
			}
			return filepath.SkipDir
		}
		if _, ok := versionNumber(d.Name()); ok && keep(name) {
			errs = append(errs, &NotBagError{Path: p})
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	return t, append(errs, ids.errors()...)
}

// checkStoreShare is CheckShare through the Store s (CheckStore's way).
func checkStoreShare(ctx context.Context, s Store, dir string, keep func(string) bool, bag func(BagCheck, Tally)) (Tally, []error) {
	var t Tally
	var errs []error
	var ids identityClaims
	keep = orAll(keep)
	err := fs.WalkDir(s, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, fmt.Errorf("check %s: %w", Location(s, p), err))
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !d.IsDir() || p == "." {
			return nil
		}
		if p == PublicationsDir || p == StateDir {
			return fs.SkipDir // the publication log and the blogs' states hold no bag (publog.go, blogstate.go)
		}
		ents, err := s.ReadDir(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("check %s: %w", Location(s, p), err))
			return fs.SkipDir
		}
		if !storeIsBag(ents) {
			if _, ok := versionNumber(d.Name()); ok && keep(p) {
				errs = append(errs, &NotBagError{Path: Location(s, p)})
			}
			return nil
		}
		if !keep(p) {
			return fs.SkipDir
		}
		sub, err := fs.Sub(s, p) // the bag as a file system: listed from the store, each object read by one GET
		if err != nil {
			errs = append(errs, fmt.Errorf("check %s: %w", Location(s, p), err))
			return fs.SkipDir
		}
		found := checkAIP(sub, storeAt(s, p), true, func(payload map[string]int64) {
			t.add(Location(s, p), payload)
			ids.add(Location(s, p), sub)
		})
		if bag != nil {
			bag(BagCheck{Name: path.Clean(p), Problems: found}, t)
		}
		return fs.SkipDir
	})
	if err != nil {
		errs = append(errs, err)
	}
	return t, append(errs, ids.errors()...)
}

// orAll returns keep, or a selection of every bag when it is nil.
func orAll(keep func(string) bool) func(string) bool {
	if keep == nil {
		return func(string) bool { return true }
	}
	return keep
}

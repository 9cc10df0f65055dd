package aip

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
)

// CheckStore is Check of the whole archive kept in s, read through the
// Store (for an S3 archive: through the markers, so only published bags
// are seen, whole). Each bag is copied into a temporary folder (one at a
// time: disk use is bounded by the largest bag) and checked there as
// Check checks it, every problem naming the bag's location in s. It also
// fails a published bag whose objects are not all readable with the size
// its store recorded, a v<N> folder that is not a bag, and bags that
// claim one identifier (DuplicateError).
func CheckStore(ctx context.Context, s Store, bag func(dir string, t Tally)) (Tally, []error) {
	var errs []error
	t, rest := checkStoreShare(ctx, s, ".", func(string) bool { return true }, func(b BagCheck, t Tally) {
		errs = append(errs, b.Problems...)
		if bag != nil {
			bag(Location(s, b.Name), t)
		}
	})
	return t, append(errs, rest...)
}

// storeIsBag reports whether a folder's entries are a bag's: a bagit.txt
// or a payload manifest.
func storeIsBag(ents []fs.DirEntry) bool {
	for _, e := range ents {
		if e.Name() == bagitTxt || strings.HasPrefix(e.Name(), "manifest-") && strings.HasSuffix(e.Name(), ".txt") {
			return true
		}
	}
	return false
}

// copyOut copies the bag dir of s into the folder local, checking each
// object's size against the size s lists for it.
func copyOut(s Store, dir, local string) error {
	var errs []error
	err := fs.WalkDir(s, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		dst := filepath.Join(local, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(p, dir), "/")))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		in, err := s.Open(p)
		if err != nil {
			errs = append(errs, &MissingError{Path: Location(s, p), Manifest: "the store's record of the bag"})
			return nil
		}
		defer in.Close()
		out, err := os.Create(dst)
		if err != nil {
			return err
		}
		n, err := io.Copy(out, in)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("check %s: %w", Location(s, p), err))
		case n != info.Size():
			errs = append(errs, &FormatError{Path: Location(s, p), Reason: fmt.Sprintf("the store recorded %d bytes, %d were read", info.Size(), n)})
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// relocate returns err with every string field Path of the typed check
// errors moved from the temporary folder from to the store location to.
func relocate(err error, from, to string) error {
	v := reflect.ValueOf(err)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return errors.New(strings.ReplaceAll(err.Error(), from, to))
	}
	f := v.Elem().FieldByName("Path")
	if f.IsValid() && f.Kind() == reflect.String && f.CanSet() {
		rel, rerr := filepath.Rel(from, f.String())
		if rerr == nil && filepath.IsLocal(rel) {
			f.SetString(to + "/" + path.Clean(filepath.ToSlash(rel)))
		} else if rerr == nil && rel == "." {
			f.SetString(to)
		}
	}
	return err
}

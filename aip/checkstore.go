package aip

import (
	"context"
	"io/fs"
	"strings"
)

// CheckStore is Check of the whole archive kept in s, read through the
// Store (for an S3 archive: through the markers, so only published bags
// are seen, whole). Each bag is read in place through s as an fs.FS
// (fs.Sub: nothing is copied, no temporary file is made) and checked as
// Check checks it, every problem naming its location in s. It also fails
// a published bag whose objects are not all readable with the size its
// store recorded, a v<N> folder that is not a bag, and bags that claim
// one identifier (DuplicateError).
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

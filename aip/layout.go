package aip

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/blogharvest/blogharvest"
)

// TmpDir is the folder under the archive root where bags are built before
// they are renamed into place. Sweep empties it.
const TmpDir = ".tmp"

// Undated is the year folder of entries without a creation date.
const Undated = "undated"

// BlogDir returns <root>/<blog-id>/blog, the folder holding the versions
// of a blog's AIP. It fails when blogID is not a valid blog id.
func BlogDir(root, blogID string) (string, error) {
	if err := blogharvest.ValidID(blogID); err != nil {
		return "", blogharvest.Permanent(fmt.Errorf("aip: blog id: %w", err))
	}
	return filepath.Join(root, blogID, "blog"), nil
}

// EntryDir returns <root>/<blog-id>/entries/<yyyy>/<entry-key>, the folder
// holding the versions of an entry's AIP. yyyy is the UTC year of the
// entry's creation date, or "undated"; entry-key is blogharvest.EntryKey of
// its URL and title, so no part of the path comes raw from the web.
func EntryDir(root string, e *blogharvest.Entry) (string, error) {
	if err := blogharvest.ValidID(e.BlogID); err != nil {
		return "", blogharvest.Permanent(fmt.Errorf("aip: blog id: %w", err))
	}
	return filepath.Join(root, e.BlogID, "entries", entryYear(e), blogharvest.EntryKey(e.URL, e.Title)), nil
}

// EntryDirIn returns the store name of the folder holding the versions of
// e's AIP in s: the folder of its entry key under any year (Undated
// included) that holds a version already, else the folder of the key of
// one of its aliases that does (in the order of e.Aliases), else
// EntryDir's. One post is one entry whatever its date says at each
// capture: an entry archived undated and dated later (or the other way
// round, or moved across a year by its zone) gets a new version in the
// folder it has, never a second folder under the same identifier. Nor
// whatever its address: a post that moved (another platform or URL
// scheme) and names the URL it was archived under among its aliases
// (harvest's moves.go) gets a new version in that URL's folder.
func EntryDirIn(s fs.ReadDirFS, e *blogharvest.Entry) (string, error) {
	dir, _, err := entryDirOf(s, e)
	return dir, err
}

// entryDirOf is EntryDirIn, with the alias of e whose folder holds e's
// versions ("" when it is e.URL's folder or a new one).
func entryDirOf(s fs.ReadDirFS, e *blogharvest.Entry) (string, string, error) {
	dir, err := EntryDir("", e)
	if err != nil {
		return "", "", err
	}
	dir = filepath.ToSlash(dir)
	if n, err := LatestVersionOf(s, dir); err != nil || n > 0 {
		return dir, "", err
	}
	entries := path.Join(e.BlogID, "entries")
	years, err := s.ReadDir(entries)
	if errors.Is(err, fs.ErrNotExist) {
		return dir, "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("aip: entry folder: %w", err)
	}
	for i, u := range append([]string{e.URL}, e.Aliases...) {
		if i > 0 && u == e.URL {
			continue
		}
		key := blogharvest.EntryKey(u, e.Title)
		for _, y := range years {
			if !y.IsDir() || i == 0 && y.Name() == path.Base(path.Dir(dir)) {
				continue
			}
			other := path.Join(entries, y.Name(), key)
			if n, err := LatestVersionOf(s, other); err != nil || n > 0 {
				if i == 0 {
					u = ""
				}
				return other, u, err
			}
		}
	}
	return dir, "", nil
}

// entryYear returns the four-digit year folder of e, or Undated.
func entryYear(e *blogharvest.Entry) string {
	y := e.Created.UTC().Year()
	if e.Created.IsZero() || y < 1 || y > 9999 {
		return Undated
	}
	return fmt.Sprintf("%04d", y)
}

// LatestVersion returns the highest N of the v<N> folders in dir, or 0 when
// dir holds none or does not exist. Other names are ignored.
func LatestVersion(dir string) (int, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("aip: latest version: %w", err)
	}
	return latestOf(ents), nil
}

// latestOf returns the highest N of the v<N> folders among ents (links
// and files are not versions), or 0.
func latestOf(ents []fs.DirEntry) int {
	latest := 0
	for _, e := range ents {
		if n, ok := versionNumber(e.Name()); ok && e.IsDir() && n > latest {
			latest = n
		}
	}
	return latest
}

// versionNumber parses "v<N>" with N ≥ 1 and no leading zeros.
func versionNumber(name string) (int, bool) {
	digits, ok := strings.CutPrefix(name, "v")
	if !ok || digits == "" || digits[0] == '0' {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil && n > 0
}

// versionName returns "v<n>".
func versionName(n int) string { return "v" + strconv.Itoa(n) }

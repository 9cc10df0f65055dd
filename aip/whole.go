package aip

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// bagFile is one file a Writer put into a temp bag.
type bagFile struct {
	rel  string // path in the bag, slash-separated
	size int64
	body []byte // a tag file's content; nil for payload files
}

// bagFiles is everything a Writer put into a temp bag.
type bagFiles []bagFile

// bytes returns the bytes written.
func (bf bagFiles) bytes() int64 {
	var n int64
	for _, f := range bf {
		n += f.size
	}
	return n
}

// verify checks, right before the bag in dir is published, that it is
// still whole: exactly the files written (regular files, no symlink, nothing
// added or removed), each payload file with its size, each tag file (the
// manifests among them) byte for byte. Payload files are not hashed again:
// they were hashed while written and fsynced, and reading them back would
// only read the page cache; what can still go wrong before the rename is
// another process deleting, truncating or adding files, which this sees.
func (bf bagFiles) verify(dir string) error {
	found, problems := scanTemp(dir)
	for _, f := range bf {
		size, ok := found[f.rel]
		delete(found, f.rel)
		switch {
		case !ok:
			problems = append(problems, f.rel+" is missing")
		case size != f.size:
			problems = append(problems, fmt.Sprintf("%s has %d bytes, %d were written", f.rel, size, f.size))
		case f.body != nil:
			if data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.rel))); err != nil || !bytes.Equal(data, f.body) {
				problems = append(problems, f.rel+" was changed")
			}
		}
	}
	for _, rel := range sortedKeys(found) {
		problems = append(problems, rel+" was added")
	}
	if len(problems) > 0 {
		return fmt.Errorf("bag %s is no longer whole, not published: %s", dir, strings.Join(problems, "; "))
	}
	return nil
}

// scanTemp returns the regular files under dir with their sizes, and a
// problem for anything else (a symlink, a device, an unreadable folder).
func scanTemp(dir string) (map[string]int64, []string) {
	found := map[string]int64{}
	var problems []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			problems = append(problems, fmt.Sprintf("%s is not a regular file (%v)", rel, d.Type()))
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		found[rel] = info.Size()
		return nil
	})
	if err != nil {
		problems = append(problems, err.Error())
	}
	return found, problems
}

package aip

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
)

// TallyDefinition says, in words, what a Tally counts. The demo, check and
// the report state it next to their figures so that all three mean the
// same thing.
const TallyDefinition = "payload = every file under data/ of every bag version " +
	"(METS, captured files, WARC, logs), as each bag's Payload-Oxum counts it; tag files excluded"

// Tally counts the AIPs of an archive, or of the part of it checked: the
// one definition of sizes and counts that check, demo and report share
// (TallyDefinition).
type Tally struct {
	Blogs, Entries              int   // distinct blogs and entries with at least one version
	BlogVersions, EntryVersions int   // Blog and Entry AIPs: bags, every version
	RequisiteVersions           int   // versions of the blogs' requisites packages (requisites.go)
	Files                       int   // payload files: every file under data/ of every bag
	Bytes                       int64 // their bytes
	folders                     map[string]bool
}

// Bags is the number of bags counted, every version of every AIP.
func (t *Tally) Bags() int { return t.BlogVersions + t.EntryVersions + t.RequisiteVersions }

// add counts the bag dir, whose payload (data/… path → size) was read.
func (t *Tally) add(dir string, payload map[string]int64) {
	if t.folders == nil {
		t.folders = map[string]bool{}
	}
	parent := filepath.Dir(filepath.Clean(dir))
	isBlog := filepath.Base(parent) == "blog"
	switch {
	case filepath.Base(parent) == requisitesDir:
		t.RequisiteVersions++
	case isBlog:
		t.BlogVersions++
	default:
		t.EntryVersions++
	}
	if !t.folders[parent] && filepath.Base(parent) != requisitesDir {
		t.folders[parent] = true
		if isBlog {
			t.Blogs++
		} else {
			t.Entries++
		}
	}
	for _, n := range payload {
		t.Files++
		t.Bytes += n
	}
}

// TallyArchive counts the bags at and below dir of the archive s (".":
// the whole archive; a blog's folder; one bag) without checking them, as
// CheckTally counts them; a .tmp folder is skipped and symbolic links are
// not followed (nor counted). A missing dir counts nothing.
func TallyArchive(s Store, dir string) (Tally, error) {
	var t Tally
	err := fs.WalkDir(s, dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case !d.IsDir():
			return nil
		case d.Name() == TmpDir && p != dir, p == PublicationsDir, p == StateDir:
			return fs.SkipDir // the publication log and the blogs' states hold no bag (publog.go, blogstate.go)
		}
		ents, err := s.ReadDir(p)
		if err != nil || !storeIsBag(ents) {
			return err
		}
		payload := map[string]int64{}
		err = fs.WalkDir(s, path.Join(p, "data"), func(q string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
				return err
			}
			info, err := d.Info()
			if err == nil {
				payload[strings.TrimPrefix(q, p+"/")] = info.Size()
			}
			return err
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		t.add(p, payload)
		return fs.SkipDir
	})
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	return t, err
}

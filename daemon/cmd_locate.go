package daemon

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
)

// runLocate prints the AIPs of an archive that hold a post URL, one line
// per version, oldest first: the bag's location, v<N>, its identifier
// (METS OBJID), its Bagging-Date and, when the blog's ledger led there
// from another address, how. Exit 1 when none does.
func runLocate(ctx context.Context, args []string, std IO) error {
	fl := newFlagSet("locate", "ARCHIVE (a folder or s3://bucket/prefix) URL", std.Stderr)
	pos, err := parseInterspersed(fl, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return &UsageError{errors.New("name one archive and one URL")}
	}
	canon, err := harvest.Canonical(pos[1])
	if err != nil {
		return &UsageError{fmt.Errorf("%s: not an http(s) URL: %w", pos[1], err)}
	}
	st, done, err := openArchiveArg(ctx, pos[0], false)
	if err != nil {
		return err
	}
	defer done()
	found, err := locate(st, canon)
	if err != nil {
		return err
	}
	if len(found) == 0 {
		msg := fmt.Sprintf("no AIP of %s holds %s", pos[0], canon)
		if canon != pos[1] {
			msg += " (the canonical form of " + pos[1] + ", as the crawler names pages)"
		}
		fmt.Fprintln(std.Stderr, msg)
		return ErrProblems
	}
	for _, f := range found {
		line := fmt.Sprintf("%s\tv%d\t%s\t%s", aip.Location(st, f.path), f.version, f.identifier, f.bagged)
		if f.note != "" {
			line += "\t" + f.note
		}
		fmt.Fprintln(std.Stdout, line)
	}
	return nil
}

// located is one AIP version holding a URL.
type located struct {
	path, identifier, bagged, note string
	version                        int
}

// locate finds the AIP versions of st holding the page canon (a
// canonical URL): the Entry AIP named after it (its key ends in its
// URLHash; its bag-info's External-Identifier is canon), else the entry
// a blog's latest ledger sends it to (a redirect, a duplicate, a
// canonical link; at most 5 hops), else a Blog AIP whose home page it
// is. Versions oldest first.
func locate(st aip.Store, canon string) ([]located, error) {
	blogs, err := st.ReadDir(".")
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, b := range blogs {
		if b.IsDir() && blogharvest.ValidID(b.Name()) == nil {
			ids = append(ids, b.Name())
		}
	}
	seen := map[string]bool{}
	for hop, u, note := 0, canon, ""; hop < 5 && u != "" && !seen[u]; hop++ {
		seen[u] = true
		for _, id := range ids {
			if out, err := entryVersions(st, id, u, note); err != nil || len(out) > 0 {
				return out, err
			}
			if out, err := movedEntryVersions(st, id, u, note); err != nil || len(out) > 0 {
				return out, err
			}
		}
		next := ""
		for _, id := range ids {
			if to, fate := ledgerTarget(st, id, u); to != "" {
				next, note = to, fmt.Sprintf("%s is a %s of %s in %s's ledger", canon, fate, to, id)
				break
			}
		}
		u = next
	}
	for _, id := range ids {
		dir := id + "/blog"
		if out := versionsIn(st, dir, canon, ""); len(out) > 0 {
			return out, nil
		}
	}
	return nil, nil
}

// entryVersions returns the versions of blog id's entry whose permalink
// is u, found by the URLHash ending its key in any year folder.
func entryVersions(st aip.Store, id, u, note string) ([]located, error) {
	years, err := st.ReadDir(id + "/entries")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	suffix := "-" + blogharvest.URLHash(u)
	for _, y := range years {
		ents, err := st.ReadDir(id + "/entries/" + y.Name())
		if err != nil {
			continue
		}
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), suffix) {
				if out := versionsIn(st, path.Join(id, "entries", y.Name(), e.Name()), u, note); len(out) > 0 {
					return out, nil
				}
			}
		}
	}
	return nil, nil
}

// movedEntryVersions returns the versions of blog id's entry whose
// permalink is u when the entry's folder is named after another URL (a
// post that moved keeps the folder of the URL it was first archived
// under): the URL the latest Blog AIP's state file gives for u
// (harvest.MovedFrom), else the entry key the blog's latest ledger gives
// u's row (fate entry), names it.
func movedEntryVersions(st aip.Store, id, u, note string) ([]located, error) {
	key := ""
	if ab, err := aip.LatestBlog(st, id); err == nil && ab != nil {
		if old := harvest.MovedFrom(ab.State)[u]; old != "" {
			key = blogharvest.URLHash(old)
		}
	}
	if row := ledgerRow(st, id, u); key == "" && len(row) >= 3 && row[1] == "entry" && row[2] != "" {
		if _, hash, ok := cutLast(row[2], "-"); ok {
			key = hash
		}
	}
	if key == "" || key == blogharvest.URLHash(u) {
		return nil, nil
	}
	years, err := st.ReadDir(id + "/entries")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	for _, y := range years {
		ents, err := st.ReadDir(id + "/entries/" + y.Name())
		if err != nil {
			continue
		}
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), "-"+key) {
				if out := versionsIn(st, path.Join(id, "entries", y.Name(), e.Name()), u, note); len(out) > 0 {
					return out, nil
				}
			}
		}
	}
	return nil, nil
}

// cutLast slices s around the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// versionsIn returns the versions in dir whose External-Identifier is u.
func versionsIn(st aip.Store, dir, u, note string) []located {
	latest, _ := aip.LatestVersionOf(st, dir)
	var out []located
	for v := 1; v <= latest; v++ {
		bag := path.Join(dir, "v"+strconv.Itoa(v))
		info, err := fs.ReadFile(st, bag+"/bag-info.txt")
		if err != nil {
			continue
		}
		f := bagInfoFields(info)
		if f["External-Identifier"] != u {
			continue
		}
		out = append(out, located{path: bag, version: v, identifier: aip.ObjID(u, v), bagged: f["Bagging-Date"], note: note})
	}
	return out
}

// bagInfoFields reads bag-info.txt's labels and values (the first of each).
func bagInfoFields(data []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if _, dup := out[k]; ok && !dup {
			out[k] = strings.TrimSpace(v)
		}
	}
	return out
}

// ledgerTarget returns where blog id's latest ledger sends u: the target
// of a redirect, duplicate, stub or canonical fate; "" when it does not.
func ledgerTarget(st aip.Store, id, u string) (target, fate string) {
	f := ledgerRow(st, id, u)
	if len(f) < 3 {
		return "", ""
	}
	switch f[1] {
	case "redirect", "duplicate", "stub":
		target, _, _ := strings.Cut(f[2], " ") // "<url> (the post moved: …)": a URL holds no space
		return target, f[1]
	}
	return "", ""
}

// ledgerRow returns the columns of u's row in blog id's latest ledger,
// nil when it has none.
func ledgerRow(st aip.Store, id, u string) []string {
	v, _ := aip.LatestVersionOf(st, id+"/blog")
	if v == 0 {
		return nil
	}
	data, err := fs.ReadFile(st, path.Join(id, "blog", "v"+strconv.Itoa(v), "data", "logs", "ledger.tsv"))
	if err != nil {
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if f := strings.Split(sc.Text(), "\t"); len(f) >= 3 && f[0] == u {
			return f
		}
	}
	return nil
}

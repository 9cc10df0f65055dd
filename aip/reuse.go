package aip

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/warc"
)

// ArchivedMedia returns the media files of the latest version of e's AIP
// in the archive s (EntryDir, LatestVersionOf), for an update to reuse
// instead of fetching them again: each with its URL, media type, sha256,
// size, its content and the provenance of its original capture (capture
// time, HTTP status and headers as the response record of that version's
// WARC holds them, and that record's id as Reused). The content is the
// object in s (File.Stored: read through the Store, never by a path, in
// a folder without following links) and, when s is not a Local folder,
// the verified bytes as Body too, as a fetch would give them. Only files whose bytes match the sha256 of the
// capture log and of the WARC record are returned; a file that does not
// verify is left out (the update fetches it again). No AIP yet: nil, no
// error.
func ArchivedMedia(s Store, e *blogharvest.Entry) ([]blogharvest.File, error) {
	return archivedFiles(s, e, blogharvest.RoleMedia)
}

// ArchivedCaptures is ArchivedMedia and, verified alike, the comment
// feeds (blogharvest.RoleCommentFeed) of the latest version: an update
// reads the comments archived before from them instead of asking for the
// post's comment feed again (harvest.Options.Archived).
func ArchivedCaptures(s Store, e *blogharvest.Entry) ([]blogharvest.File, error) {
	return archivedFiles(s, e, blogharvest.RoleMedia, blogharvest.RoleCommentFeed)
}

// archivedFiles returns the verified files of the given roles of the
// latest version of e's AIP (see ArchivedMedia and verifiedFiles).
func archivedFiles(s Store, e *blogharvest.Entry, roles ...blogharvest.Role) ([]blogharvest.File, error) {
	dir, err := EntryDirIn(s, e)
	if err != nil {
		return nil, err
	}
	n, err := LatestVersionOf(s, dir)
	if err != nil || n == 0 {
		return nil, err
	}
	var earlier []string // where a capture the latest version reused has its record, newest first
	for v := n - 1; v >= 1; v-- {
		earlier = append(earlier, path.Join(dir, versionName(v)))
	}
	out, err := verifiedFiles(s, path.Join(dir, versionName(n)), roles, earlier)
	if err != nil {
		return nil, fmt.Errorf("aip: archived media of %s: %w", e.URL, err)
	}
	return out, nil
}

// ArchivedBlog is what the latest Blog AIP of a blog holds for the next
// crawl to start from (harvest.StateFrom): its verified captures (feed
// pages, robots.txt, sitemaps, the home page) with their original
// headers, and the learned rules.
type ArchivedBlog struct {
	Bag   string             // the bag's location: its folder, or its URL in an object store
	Files []blogharvest.File // verified captures, as ArchivedMedia returns them
	Rules []byte             // the learned rules (data/objects/log/*.json), nil when none
	State []byte             // what the crawl left for the next update (data/objects/state/*.json, blogharvest.RoleState), nil when none
}

// LatestBlog returns what the latest Blog AIP of blogID in the archive s
// holds; nil, and no error, when there is none. Nothing is read through a
// symbolic link.
func LatestBlog(s Store, blogID string) (*ArchivedBlog, error) {
	dir, err := BlogDir("", blogID)
	if err != nil {
		return nil, err
	}
	dir = filepath.ToSlash(dir)
	n, err := LatestVersionOf(s, dir)
	if err != nil || n == 0 {
		return nil, err
	}
	bag := path.Join(dir, versionName(n))
	files, err := verifiedFiles(s, bag, []blogharvest.Role{blogharvest.RoleFeed, blogharvest.RoleRobots,
		blogharvest.RoleSitemap, blogharvest.RolePage, blogharvest.RoleCommentFeed}, nil)
	if err != nil {
		return nil, fmt.Errorf("aip: blog AIP %s: %w", Location(s, bag), err)
	}
	b := &ArchivedBlog{Bag: Location(s, bag), Files: files}
	b.Rules = firstJSON(s, path.Join(bag, "data/objects", roleDir(blogharvest.RoleLog)), func(data []byte) bool {
		return bytes.Contains(data, []byte(`"`))
	})
	b.State = firstJSON(s, path.Join(bag, "data/objects", roleDir(blogharvest.RoleState)), func([]byte) bool { return true })
	return b, nil
}

// firstJSON returns the first *.json file of the folder dir of s that ok
// accepts, nil when none (or none can be read).
func firstJSON(s Store, dir string, ok func([]byte) bool) []byte {
	ents, _ := s.ReadDir(dir)
	for _, ent := range ents {
		if !strings.HasSuffix(ent.Name(), ".json") {
			continue
		}
		if data, err := fs.ReadFile(s, path.Join(dir, ent.Name())); err == nil && ok(data) {
			return data
		}
	}
	return nil
}

// verifiedFiles returns the verified files of the given roles of one bag
// (see ArchivedMedia). A file the bag holds as a reused capture (no
// record in its own WARC) is verified against its record in the first of
// the earlier bags (newest first) whose WARC holds it; ReusedIn is the
// OBJID of the bag holding the record. Nothing is read through a symbolic link (Local
// opens as nofollow.go does): a link on the way to the bag or among the
// files to reuse fails with a *SymlinkError naming it. The WARC is
// streamed (warc.Scan): only the response records of the files to reuse
// are read, none larger than the largest of those files plus
// warc.MaxHTTPHeader, and no payload is kept.
func verifiedFiles(s Store, bag string, roles []blogharvest.Role, earlier []string) ([]blogharvest.File, error) {
	lines, err := fs.ReadFile(s, path.Join(bag, "data", captureLog))
	if err != nil {
		return nil, err
	}
	var wanted []captureLine
	var largest int64
	for _, c := range parseCaptureLog(lines) {
		if _, ok := roleOf(c.path, roles); ok {
			wanted = append(wanted, c)
			largest = max(largest, c.size)
		}
	}
	if len(wanted) == 0 {
		return nil, nil
	}
	records, err := scanEntryWARC(s, bag, wanted, largest+warc.MaxHTTPHeader)
	if err != nil {
		return nil, err
	}
	in := map[string]string{} // record id → OBJID of the bag holding it
	own := BagObjID(s, bag)
	for _, r := range records {
		in[r.ID] = own
	}
	for _, eb := range earlier {
		var missing []captureLine
		for _, c := range wanted {
			if responseFor(records, c.url, c.sha256) == nil {
				missing = append(missing, c)
			}
		}
		if len(missing) == 0 {
			break
		}
		recs, err := scanEntryWARC(s, eb, missing, largest+warc.MaxHTTPHeader)
		if err != nil {
			continue // an earlier bag unreadable: its captures are fetched again
		}
		id := BagObjID(s, eb)
		for _, r := range recs {
			in[r.ID] = id
		}
		records = append(records, recs...)
	}
	_, isLocal := s.(*Local)
	var out []blogharvest.File
	for _, c := range wanted {
		role, _ := roleOf(c.path, roles)
		r := responseFor(records, c.url, c.sha256)
		if r == nil || !fs.ValidPath(c.path) {
			continue
		}
		name := path.Join(bag, c.path)
		sum, body, err := readSHA256(s, name, !isLocal, c.size)
		if se := (*SymlinkError)(nil); errors.As(err, &se) {
			return nil, err
		}
		if err != nil || sum != c.sha256 {
			continue
		}
		f := blogharvest.File{URL: c.url, Role: role, MediaType: r.Header.Get("Content-Type"),
			SHA256: c.sha256, Size: c.size, Captured: r.Date, Status: r.Status, Header: r.Header, Reused: r.ID, ReusedIn: in[r.ID]}
		f.Stored = &blogharvest.Stored{FS: s, Name: name}
		if !isLocal {
			f.Body = body // the verified bytes: the Writer reads them again from memory, not by a second GET
		}
		out = append(out, f)
	}
	return out, nil
}

// roleOf returns the role among roles whose payload folder holds the
// bag path p (data/objects/<role dir>/…).
func roleOf(p string, roles []blogharvest.Role) (blogharvest.Role, bool) {
	for _, r := range roles {
		if strings.HasPrefix(p, "data/objects/"+roleDir(r)+"/") {
			return r, true
		}
	}
	return "", false
}

// captureLine is one line of a bag's capture log.
type captureLine struct {
	sha256, path, url string
	size              int64
}

// parseCaptureLog reads the lines of a capture log (captureLog in
// assemble.go); comments and malformed lines are skipped.
func parseCaptureLog(data []byte) []captureLine {
	var out []captureLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 6 || strings.HasPrefix(f[0], "#") {
			continue
		}
		size, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil {
			continue
		}
		out = append(out, captureLine{sha256: f[2], size: size, path: f[4], url: f[5]})
	}
	return out
}

// scanEntryWARC streams the bag's WARC (warc.Scan) and returns the
// response records, payloads not kept, of the capture lines wanted (by URL
// and payload sha256), each at most max bytes; it stops once it has them
// all. Records that do not verify are left out.
func scanEntryWARC(s Store, bag string, wanted []captureLine, max int64) ([]warc.Record, error) {
	dir := path.Join(bag, "data", warcDir)
	ents, err := s.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".warc.gz") {
			names = append(names, e.Name())
		}
	}
	if len(names) != 1 {
		return nil, fmt.Errorf("%s: want one WARC, found %d", Location(s, bag), len(names))
	}
	f, err := s.Open(path.Join(dir, names[0]))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	urls := map[string]bool{}
	missing := map[string]bool{} // url and sha256 of each capture not found yet
	for _, c := range wanted {
		urls[c.url] = true
		missing[c.url+" "+c.sha256] = true
	}
	var recs []warc.Record
	want := func(r warc.Record) bool { return r.Type == "response" && urls[r.TargetURI] }
	err = warc.Scan(bufio.NewReaderSize(f, 64<<10), max, want, func(r warc.Record) error {
		recs = append(recs, r)
		delete(missing, r.TargetURI+" "+r.PayloadSHA256)
		if len(missing) == 0 {
			return warc.ErrStop
		}
		return nil
	})
	if err != nil && len(recs) == 0 {
		return nil, fmt.Errorf("%s: %w", names[0], err)
	}
	return recs, nil // a record that did not verify, or too large, is not reused: its file is fetched again
}

// objIDAttr finds the OBJID of a METS document's root element.
var objIDAttr = regexp.MustCompile(`<mets:mets[^>]*\sOBJID="([^"]+)"`)

// BagObjID returns the OBJID of the METS of the bag at bag (a folder of
// s; its first 16 KiB read), "" when it cannot be read.
func BagObjID(s Store, bag string) string {
	f, err := s.Open(path.Join(bag, "data", metsName))
	if err != nil {
		return ""
	}
	defer f.Close()
	head, _ := io.ReadAll(io.LimitReader(f, 16<<10))
	if m := objIDAttr.FindSubmatch(head); m != nil {
		return string(m[1])
	}
	return ""
}

// responseFor returns the response record of url whose payload has the
// given sha256, or nil.
func responseFor(recs []warc.Record, url, sum string) *warc.Record {
	for i := range recs {
		r := &recs[i]
		if r.Type == "response" && r.TargetURI == url && r.PayloadSHA256 == sum {
			return r
		}
	}
	return nil
}

// readSHA256 returns the lowercase hex sha256 of the object name of s
// and, with keep, its bytes (size, if known, sizes the buffer).
func readSHA256(s Store, name string, keep bool, size int64) (string, []byte, error) {
	f, err := s.Open(name)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	h := sha256.New()
	var buf bytes.Buffer
	w := io.Writer(h)
	if keep {
		buf.Grow(int(min(max(size, 0), 64<<20)))
		w = io.MultiWriter(h, &buf)
	}
	if _, err := io.Copy(w, f); err != nil {
		return "", nil, err
	}
	if !keep {
		return hex.EncodeToString(h.Sum(nil)), nil, nil
	}
	return hex.EncodeToString(h.Sum(nil)), buf.Bytes(), nil
}

package aip

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/warc"
)

// ArchivedMedia returns the media files of the latest version of e's AIP
// under root (EntryDir, LatestVersion), for an update to reuse instead of
// fetching them again: each with its URL, media type, sha256, size, the
// payload file on disk as Path, and the provenance of its original
// capture (capture time, HTTP status and headers as the response record
// of that version's WARC holds them, and that record's id as Reused).
// Only files whose bytes on disk match the sha256 of the capture log and
// of the WARC record are returned; a file that does not verify is left
// out (the update fetches it again). No AIP yet: nil, no error.
func ArchivedMedia(root string, e *blogharvest.Entry) ([]blogharvest.File, error) {
	return archivedFiles(root, e, blogharvest.RoleMedia)
}

// ArchivedCaptures is ArchivedMedia and, verified alike, the comment
// feeds (blogharvest.RoleCommentFeed) of the latest version: an update
// reads the comments archived before from them instead of asking for the
// post's comment feed again (harvest.Options.Archived).
func ArchivedCaptures(root string, e *blogharvest.Entry) ([]blogharvest.File, error) {
	return archivedFiles(root, e, blogharvest.RoleMedia, blogharvest.RoleCommentFeed)
}

// archivedFiles returns the verified files of the given roles of the
// latest version of e's AIP (see ArchivedMedia).
func archivedFiles(root string, e *blogharvest.Entry, roles ...blogharvest.Role) ([]blogharvest.File, error) {
	dir, err := EntryDir(root, e)
	if err != nil {
		return nil, err
	}
	n, err := LatestVersion(dir)
	if err != nil || n == 0 {
		return nil, err
	}
	out, err := verifiedFiles(filepath.Join(dir, versionName(n)), roles)
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
	Bag   string             // the bag's directory
	Files []blogharvest.File // verified captures, as ArchivedMedia returns them
	Rules []byte             // the learned rules (data/objects/log/*.json), nil when none
}

// LatestBlog returns what the latest Blog AIP of blogID under root holds;
// nil, and no error, when there is none.
func LatestBlog(root, blogID string) (*ArchivedBlog, error) {
	dir, err := BlogDir(root, blogID)
	if err != nil {
		return nil, err
	}
	n, err := LatestVersion(dir)
	if err != nil || n == 0 {
		return nil, err
	}
	bag := filepath.Join(dir, versionName(n))
	files, err := verifiedFiles(bag, []blogharvest.Role{blogharvest.RoleFeed, blogharvest.RoleRobots,
		blogharvest.RoleSitemap, blogharvest.RolePage, blogharvest.RoleCommentFeed})
	if err != nil {
		return nil, fmt.Errorf("aip: blog AIP %s: %w", bag, err)
	}
	b := &ArchivedBlog{Bag: bag, Files: files}
	logs, _ := filepath.Glob(filepath.Join(bag, "data", "objects", roleDir(blogharvest.RoleLog), "*.json"))
	for _, p := range logs {
		if data, err := os.ReadFile(p); err == nil && bytes.Contains(data, []byte(`"`)) {
			b.Rules = data
			break
		}
	}
	return b, nil
}

// verifiedFiles returns the verified files of the given roles of one bag (see
// ArchivedMedia).
func verifiedFiles(bag string, roles []blogharvest.Role) ([]blogharvest.File, error) {
	lines, err := os.ReadFile(filepath.Join(bag, "data", captureLog))
	if err != nil {
		return nil, err
	}
	records, err := readEntryWARC(bag)
	if err != nil {
		return nil, err
	}
	var out []blogharvest.File
	for _, c := range parseCaptureLog(lines) {
		role, ok := roleOf(c.path, roles)
		if !ok {
			continue
		}
		r := responseFor(records, c.url, c.sha256)
		if r == nil {
			continue
		}
		p := filepath.Join(bag, filepath.FromSlash(c.path))
		if sum, err := fileSHA256(p); err != nil || sum != c.sha256 {
			continue
		}
		out = append(out, blogharvest.File{URL: c.url, Role: role, MediaType: r.Header.Get("Content-Type"),
			Path: p, SHA256: c.sha256, Size: c.size, Captured: r.Date, Status: r.Status, Header: r.Header,
			Reused: r.ID})
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

// readEntryWARC reads the records of a bag's WARC; every record's
// digests are verified.
func readEntryWARC(bag string) ([]warc.Record, error) {
	names, err := filepath.Glob(filepath.Join(bag, "data", filepath.FromSlash(warcDir), "*.warc.gz"))
	if err != nil || len(names) != 1 {
		return nil, fmt.Errorf("%s: want one WARC, found %d", bag, len(names))
	}
	data, err := os.ReadFile(names[0])
	if err != nil {
		return nil, err
	}
	recs, err := warc.Read(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path.Base(names[0]), err)
	}
	return recs, nil
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

// fileSHA256 returns the lowercase hex sha256 of the file at p.
func fileSHA256(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

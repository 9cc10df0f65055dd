package aip

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/blogharvest/blogharvest"
)

// Kinds of AIP, written to mets/@TYPE.
const (
	kindBlog  = "Blog"
	kindEntry = "Entry"
	// kindRequisites is the blog's requisites package (requisites.go).
	kindRequisites = "Requisites"
)

// Paths inside the payload (relative to data/).
const (
	metsName   = "METS.xml"
	captureLog = "logs/capture.log"
	ledgerLog  = "logs/ledger.tsv" // the crawl ledger of a Blog AIP (blogharvest.RoleLedger)
)

// pkg is an AIP assembled in memory before it is written.
type pkg struct {
	kind      string
	blogID    string
	key       string // entry-key, or "blog"
	permalink string
	// recordURL is the URL whose RecordID names the record across its
	// versions: the permalink, or for an entry whose folder was found
	// under one of its aliases (a post that moved: EntryDirIn) that
	// alias, the URL it was archived under first.
	recordURL string
	// prevPermalink is the newest earlier version's External-Identifier
	// (the permalink it was written under, older than permalink for a post
	// that moved), for the relationship naming the version replaced.
	prevPermalink string
	dir           string // the folder holding the versions
	version       int
	// blogVersion is, for an Entry, the newest version of its blog's AIP
	// when the entry is written (0: none yet).
	blogVersion int
	blog        *blogharvest.Blog
	entry       *blogharvest.Entry
	// again writes a new version even when the content digest is the
	// newest version's (Writer.WriteBlogAgain).
	again bool
	// requisites are the page requisites of a Blog or Entry AIP: their
	// first captures live in the blog's requisites package (origins).
	requisites []*blogharvest.File
	origins    map[string]origin // by payload sha256
	// refetched are the requisites whose fetch p's WARC records as a
	// revisit record (their payload already stored); claimed the fetchKeys
	// p holds for them until it is written (requisites.go).
	refetched []*blogharvest.File
	claimed   []string
	// embeds are the URLs of all the page's requisites (own ones too), in
	// the order found: the outlinks of the page's metadata record.
	embeds []string
	// own are the requisites an Entry's article names itself (its own
	// pictures' other sizes): response records in its WARC only.
	own []*blogharvest.File
	// requisitesURL is RequisitesPermalink of the blog, once origins are set.
	requisitesURL string

	items   []*item         // payload, METS.xml first once assembled
	temps   []string        // temporary files the items read (a large METS.xml), removed once the package is written
	pooled  []*bytes.Buffer // buffers the items' bodies are in (METS.xml), back to their pool once the package is written
	warcBuf *bytes.Buffer   // the buffer the WARC's body is in, back to warcBuffers once the package is written
	used    map[string]bool
	digest  string // content digest, "v2:sha256:<hex>" (digest.go)
}

// item is one payload file.
type item struct {
	rel    string            // path under data/, slash-separated
	file   *blogharvest.File // the captured file; nil for METS.xml and logs
	body   []byte            // content in memory; nil when src is set
	src    string            // content on local disk, or the object src of from
	from   fs.FS             // the store an archived file is read from (File.Stored); nil: src is a file path
	root   string            // the archive root: a src under it is opened without following links
	size   int64
	sha256 string
	sha512 string
	group  string // METS fileGrp USE
	mime   string
	warcID string // WARC-Record-ID of the record holding the same bytes, if any (warcfile.go)
	// generated is set for the files the packager writes (memItem): their
	// format is identified once per kind (formats.go).
	generated bool
}

// addFiles names and hashes the captured files. A file whose recorded
// SHA256 or Size does not match its bytes fails the write, permanently.
func (p *pkg) addFiles(root string, files []blogharvest.File) error {
	p.used = map[string]bool{}
	for i := range files {
		f := &files[i]
		if f.Role == blogharvest.RoleRequisite && p.kind != kindRequisites {
			p.embeds = append(p.embeds, f.URL)
		}
		if f.Role == blogharvest.RoleRequisite && p.entry != nil && namedIn(p.entry.Content, f.URL) {
			p.own = append(p.own, f) // the post's own picture: kept with the post (requisites.go)
			continue
		}
		if f.Role == blogharvest.RoleRequisite && p.kind != kindRequisites {
			if f.Body != nil {
				f.Sum()
			} else if f.SHA256 == "" {
				return blogharvest.Permanent(fmt.Errorf("aip: requisite %s: no body and no sha256", f.URL))
			}
			p.requisites = append(p.requisites, f)
			continue
		}
		rel := path.Join("objects", uniqueName(p.used, roleDir(f.Role)+"/"+objectName(f)))
		if f.Role == blogharvest.RoleLedger && !p.used[ledgerLog] {
			rel = ledgerLog
			p.used[ledgerLog] = true
		}
		it := &item{rel: rel, file: f, body: f.Body, src: f.Path, root: root, group: fileGroup(f.Role), mime: f.MediaType}
		if f.Body == nil && f.Stored != nil {
			it.src, it.from = f.Stored.Name, f.Stored.FS // reused from an earlier version: read through its store
		}
		if err := it.hash(); err != nil {
			return blogharvest.Transient(fmt.Errorf("aip: %s: %w", f.URL, err))
		}
		if f.SHA256 != "" && f.SHA256 != it.sha256 || f.Body == nil && f.Size != 0 && f.Size != it.size {
			return blogharvest.Permanent(fmt.Errorf("aip: file %s: recorded sha256 %s size %d, content has %s size %d",
				f.URL, f.SHA256, f.Size, it.sha256, it.size))
		}
		p.items = append(p.items, it)
	}
	return nil
}

// hash computes the size and digests of the item's content.
func (it *item) hash() error {
	h256, h512 := sha256.New(), sha512.New()
	w := io.MultiWriter(h256, h512)
	if it.src != "" {
		f, err := it.openSrc()
		if err != nil {
			return err
		}
		defer f.Close()
		if it.size, err = io.Copy(w, f); err != nil {
			return err
		}
	} else {
		w.Write(it.body)
		it.size = int64(len(it.body))
	}
	it.sha256, it.sha512 = hex.EncodeToString(h256.Sum(nil)), hex.EncodeToString(h512.Sum(nil))
	return nil
}

// openSrc opens the item's src: an object of the store it was loaded
// from (media reused from an earlier version, through the Store: a folder
// never through a symbolic link), a file below the archive root through
// OpenFile, any other file (the crawl's own) as it is.
func (it *item) openSrc() (io.ReadCloser, error) {
	if it.from != nil {
		return it.from.Open(it.src)
	}
	if rel, err := relBelow(it.root, it.src); it.root != "" && err == nil && filepath.IsLocal(rel) {
		return OpenFile(it.root, it.src)
	}
	return os.Open(it.src)
}

// readSrc returns the content of the item's src, opened as openSrc does.
func (it *item) readSrc() ([]byte, error) {
	f, err := it.openSrc()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// memItem returns a generated payload item holding body.
func memItem(rel string, body []byte, group, mime string) *item {
	it := &item{rel: rel, body: body, group: group, mime: mime, generated: true}
	it.hash() // in memory: cannot fail
	return it
}

// fileGroup maps a role onto the METS fileGrp USE of DESIGN §7.
func fileGroup(r blogharvest.Role) string {
	switch r {
	case blogharvest.RolePage, blogharvest.RoleRequisite:
		return "original"
	case blogharvest.RoleRendered, blogharvest.RoleScreenshot:
		return "rendered"
	case blogharvest.RoleMedia:
		return "media"
	}
	return "metadata"
}

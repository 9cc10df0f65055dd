package report

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/marc"
	"github.com/blogharvest/blogharvest/warc"
)

// WACZVersion is the version of the WACZ specification WriteWACZ follows.
const WACZVersion = "1.1.1"

// WACZOptions describe a WACZ package.
type WACZOptions struct {
	Title    string    // datapackage.json title; if empty, the blog ids
	Software string    // name and version of the software
	Created  time.Time // datapackage.json created; if zero, now
	// Bag, when set, is called with each bag's folder as it is read.
	Bag func(rel string)
	// Entry, when set, is one Entry AIP version of the target (its folder
	// in the archive, such as "blog-1/entries/2024/key/v2"): the WACZ
	// holds it and its blog's requisites packages only, the entry as it
	// looked at that capture.
	Entry string
}

// waczBag is one AIP version whose WARC goes into the WACZ.
type waczBag struct {
	store     aip.Store // the archive, nothing in it read through a link
	dir, name string    // the bag, and its WARC's name under archive/
	// reused marks an earlier version of an entry, there for the records
	// of the captures the entry's version reuses (not a page of its own).
	reused bool
}

// reusedBags returns the earlier versions of the entry whose version n is
// in the folder dir that hold records of captures version n reuses: those
// whose OBJID its METS requires (aip: a reused capture is not copied into
// the new version's WARC; its METS names the version holding the record).
func reusedBags(s aip.Store, dir string, n int) []waczBag {
	mets, err := fs.ReadFile(s, path.Join(dir, fmt.Sprintf("v%d", n), "data", "METS.xml"))
	if err != nil || !bytes.Contains(mets, []byte(">reused capture<")) {
		return nil
	}
	var bags []waczBag
	for v := 1; v < n; v++ {
		bag := path.Join(dir, fmt.Sprintf("v%d", v))
		if id := aip.BagObjID(s, bag); id != "" && bytes.Contains(mets, []byte(">"+id+"<")) {
			bags = append(bags, waczBag{store: s, dir: bag, name: strings.ReplaceAll(bag, "/", "-") + ".warc.gz", reused: true})
		}
	}
	return bags
}

// WriteWACZ writes the blogs of t as one WACZ 1.1.1 file (a ZIP, every
// member stored) to w: archive/ holds the WARC of the latest version of the
// Blog AIP and of every Entry AIP (with the earlier versions of an entry
// holding the records of captures its latest version reuses, reusedBags),
// and of every version of the blog's
// requisites packages (each version adds to the others; the entries'
// pages need them, found by URL), each renamed after its bag
// (<blog>-<path of the bag>.warc.gz); indexes/index.cdxj merges the
// bags' CDXJ indexes (SURT keys, sorted), their filenames rewritten;
// pages/pages.jsonl lists the home page and every entry with its capture
// time and title; datapackage.json lists every member with its sha256 and
// size; datapackage-digest.json holds the digest of datapackage.json. It
// returns the number of pages listed.
func WriteWACZ(ctx context.Context, t Target, o WACZOptions, w io.Writer) (int, error) {
	z := &waczWriter{zw: zip.NewWriter(w), o: o}
	var index []string
	var pages []waczPage
	for _, blog := range t.Blogs {
		bags, err := waczBags(t.Store, blog)
		if o.Entry != "" {
			if blog != strings.SplitN(o.Entry, "/", 2)[0] {
				continue
			}
			bags, err = waczEntryBags(t.Store, o.Entry)
		}
		if err != nil {
			return 0, err
		}
		for _, b := range bags {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			if o.Bag != nil {
				o.Bag(b.name)
			}
			lines, page, err := z.addBag(b)
			if err != nil {
				return 0, err
			}
			index = append(index, lines...)
			if page != nil {
				pages = append(pages, *page)
			}
		}
	}
	slices.Sort(index)
	if err := z.add("indexes/index.cdxj", []byte(strings.Join(index, ""))); err != nil {
		return 0, err
	}
	if err := z.add("pages/pages.jsonl", pagesJSONL(pages)); err != nil {
		return 0, err
	}
	if err := z.datapackage(t, pages); err != nil {
		return 0, err
	}
	return len(pages), z.zw.Close()
}

// waczBags returns the bags of a blog whose WARCs the WACZ holds: every
// requisites version, the latest Blog AIP, the latest of every entry.
func waczBags(s aip.Store, blog string) ([]waczBag, error) {
	var bags []waczBag
	add := func(dir string, v int) {
		bag := path.Join(dir, fmt.Sprintf("v%d", v))
		bags = append(bags, waczBag{store: s, dir: bag, name: strings.ReplaceAll(bag, "/", "-") + ".warc.gz"})
	}
	req := path.Join(blog, "requisites")
	n, err := aip.LatestVersionOf(s, req)
	if err != nil {
		return nil, err
	}
	for v := 1; v <= n; v++ {
		add(req, v)
	}
	blogDir := path.Join(blog, "blog")
	if n, err := aip.LatestVersionOf(s, blogDir); err != nil {
		return nil, err
	} else if n > 0 {
		add(blogDir, n)
	}
	entries := path.Join(blog, "entries")
	years, err := readNames(s, entries)
	if err != nil {
		return nil, err
	}
	for _, y := range years {
		keys, err := readNames(s, path.Join(entries, y))
		if err != nil {
			return nil, err
		}
		for _, k := range keys {
			dir := path.Join(entries, y, k)
			if n, err := aip.LatestVersionOf(s, dir); err != nil {
				return nil, err
			} else if n > 0 {
				add(dir, n)
				bags = append(bags, reusedBags(s, dir, n)...)
			}
		}
	}
	return bags, nil
}

// waczEntryBags returns the bags of WACZOptions.Entry: every requisites
// version of its blog, then the entry's bag and the earlier versions
// holding the records of the captures it reuses (reusedBags).
func waczEntryBags(s aip.Store, entry string) ([]waczBag, error) {
	if fi, err := s.Stat(path.Join(entry, "bagit.txt")); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("wacz: %s is not a bag of the archive", aip.Location(s, entry))
	}
	blog := strings.SplitN(entry, "/", 2)[0]
	req := path.Join(blog, "requisites")
	n, err := aip.LatestVersionOf(s, req)
	if err != nil {
		return nil, err
	}
	var bags []waczBag
	for v := 1; v <= n; v++ {
		bag := path.Join(req, fmt.Sprintf("v%d", v))
		bags = append(bags, waczBag{store: s, dir: bag, name: strings.ReplaceAll(bag, "/", "-") + ".warc.gz"})
	}
	bags = append(bags, waczBag{store: s, dir: entry, name: strings.ReplaceAll(entry, "/", "-") + ".warc.gz"})
	if v, err := strconv.Atoi(strings.TrimPrefix(path.Base(entry), "v")); err == nil {
		bags = append(bags, reusedBags(s, path.Dir(entry), v)...)
	}
	return bags, nil
}

// waczPage is one line of pages/pages.jsonl.
type waczPage struct {
	ID    string `json:"id"`
	URL   string `json:"url"`
	TS    string `json:"ts"`
	Title string `json:"title,omitempty"`
}

// pagesJSONL returns pages/pages.jsonl: the header line, then the pages.
func pagesJSONL(pages []waczPage) []byte {
	var b strings.Builder
	b.WriteString(`{"format":"json-pages-1.0","id":"pages","title":"All Pages"}` + "\n")
	for _, p := range pages {
		js, _ := json.Marshal(p)
		b.Write(js)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// waczWriter writes the members of a WACZ and remembers their digests.
type waczWriter struct {
	zw        *zip.Writer
	o         WACZOptions
	resources []waczResource
}

// waczResource is one member as datapackage.json lists it.
type waczResource struct {
	Name  string `json:"name"`
	Path  string `json:"path"`
	Hash  string `json:"hash"`
	Bytes int64  `json:"bytes"`
}

// create starts a stored member at path.
func (z *waczWriter) create(member string) (io.Writer, error) {
	return z.zw.CreateHeader(&zip.FileHeader{Name: member, Method: zip.Store, Modified: z.created()})
}

// add writes a member from memory.
func (z *waczWriter) add(member string, data []byte) error {
	w, err := z.create(member)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	z.resources = append(z.resources, waczResource{Name: path.Base(member), Path: member,
		Hash: "sha256:" + hex.EncodeToString(sum[:]), Bytes: int64(len(data))})
	return nil
}

// addBag copies a bag's WARC into archive/ and returns its CDXJ lines
// (filename rewritten) and, for a Blog or Entry AIP, its page.
func (z *waczWriter) addBag(b waczBag) ([]string, *waczPage, error) {
	warcDir := path.Join(b.dir, "data", "objects", "warc")
	ents, err := b.store.ReadDir(warcDir)
	if err != nil {
		return nil, nil, fmt.Errorf("wacz: %w", err)
	}
	var warcs []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".warc.gz") {
			warcs = append(warcs, path.Join(warcDir, e.Name()))
		}
	}
	if len(warcs) != 1 {
		return nil, nil, fmt.Errorf("wacz: %s: %d WARC files, want 1", aip.Location(b.store, b.dir), len(warcs))
	}
	if err := z.copyFile("archive/"+b.name, b.store, warcs[0]); err != nil {
		return nil, nil, err
	}
	data, err := fs.ReadFile(b.store, path.Join(b.dir, "data", "logs", "index.cdxj"))
	if err != nil {
		return nil, nil, fmt.Errorf("wacz: %w", err)
	}
	lines, err := warc.ParseIndex(data)
	if err != nil {
		return nil, nil, fmt.Errorf("wacz: %s: %w", aip.Location(b.store, b.dir), err)
	}
	var out []string
	for _, l := range lines {
		l.Filename = b.name
		js, _ := json.Marshal(l.CDXEntry)
		out = append(out, fmt.Sprintf("%s %s %s\n", l.SURT, l.Timestamp, js))
	}
	if b.reused {
		return out, nil, nil
	}
	return out, bagPage(b.store, b.dir, lines), nil
}

// bagPage returns the page of a Blog or Entry AIP: its permalink
// (External-Identifier), the capture time of its response record and its
// title (bagTitle); nil for a requisites package.
func bagPage(s aip.Store, dir string, lines []warc.Line) *waczPage {
	info, err := fs.ReadFile(s, path.Join(dir, "bag-info.txt"))
	if err != nil {
		return nil
	}
	var permalink string
	for _, l := range strings.Split(string(info), "\n") {
		if v, ok := strings.CutPrefix(l, "External-Identifier: "); ok {
			permalink = strings.TrimSpace(v)
		}
	}
	for _, l := range lines {
		if l.URL != permalink || l.Status != "200" {
			continue
		}
		ts, err := time.Parse("20060102150405", l.Timestamp)
		if err != nil {
			return nil
		}
		p := &waczPage{ID: l.Timestamp + "/" + permalink, URL: permalink, TS: ts.UTC().Format(time.RFC3339),
			Title: bagTitle(s, dir)}
		return p
	}
	return nil
}

// bagTitle returns the title of the record of the Blog or Entry AIP at dir
// (245 $a of its blog or entry MARC record, read back), "" when it has
// none or the METS cannot be read.
func bagTitle(s aip.Store, dir string) string {
	data, err := fs.ReadFile(s, path.Join(dir, "data", "METS.xml"))
	if err != nil {
		return ""
	}
	recs, err := MARCRecords(data)
	if err != nil {
		return ""
	}
	for _, r := range recs {
		if t := recordType(r); t == marc.TypeBlog || t == marc.TypeBlogPost {
			if v := marc.Attributes(r)["title"]; len(v) > 0 {
				return v[0]
			}
		}
	}
	return ""
}

// copyFile copies the file src of the archive s (read without following
// links) into the member member, hashing it.
func (z *waczWriter) copyFile(member string, s aip.Store, src string) error {
	f, err := s.Open(src)
	if err != nil {
		return fmt.Errorf("wacz: %w", err)
	}
	defer f.Close()
	w, err := z.create(member)
	if err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), f)
	if err != nil {
		return fmt.Errorf("wacz: %s: %w", aip.Location(s, src), err)
	}
	z.resources = append(z.resources, waczResource{Name: path.Base(member), Path: member,
		Hash: "sha256:" + hex.EncodeToString(h.Sum(nil)), Bytes: n})
	return nil
}

func (z *waczWriter) created() time.Time {
	if z.o.Created.IsZero() {
		z.o.Created = time.Now()
	}
	return z.o.Created.UTC().Truncate(time.Second)
}

// datapackage writes datapackage.json and datapackage-digest.json.
func (z *waczWriter) datapackage(t Target, pages []waczPage) error {
	title := z.o.Title
	if title == "" {
		title = strings.Join(t.Blogs, ", ")
	}
	dp := map[string]any{
		"profile": "data-package", "wacz_version": WACZVersion, "title": title,
		"created": z.created().Format(time.RFC3339), "software": z.o.Software, "resources": z.resources,
	}
	if len(pages) > 0 {
		dp["mainPageURL"], dp["mainPageDate"] = pages[0].URL, pages[0].TS
	}
	js, err := json.MarshalIndent(dp, "", "  ")
	if err != nil {
		return err
	}
	w, err := z.create("datapackage.json")
	if err != nil {
		return err
	}
	if _, err := w.Write(js); err != nil {
		return err
	}
	sum := sha256.Sum256(js)
	digest, _ := json.MarshalIndent(map[string]string{"path": "datapackage.json", "hash": "sha256:" + hex.EncodeToString(sum[:])}, "", "  ")
	w, err = z.create("datapackage-digest.json")
	if err != nil {
		return err
	}
	_, err = w.Write(digest)
	return err
}

package report

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"reflect"
	"strconv"
	"strings"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/marc"
)

// Post is one archived entry (a post or a page) as the corpus sees it: its
// record read back from the latest (or a given) version of its AIP. A
// field tagged marc holds the crosswalk's attribute of that name
// (marc.Attributes of the entry record: the first value, or all for a
// list), so the crosswalk's table is the one place that says where it is.
type Post struct {
	Blog       string    `json:"blog" xml:"blog,attr"`
	AIP        string    `json:"aip" xml:"aip,attr"` // the bag's folder, relative to the archive root, with slashes
	Version    int       `json:"version" xml:"version,attr"`
	Kind       string    `json:"kind,omitempty" xml:"kind,attr,omitempty" marc:"kind"`
	Permalink  string    `json:"permalink" xml:"permalink" marc:"uri"`
	Title      string    `json:"title,omitempty" xml:"title,omitempty" marc:"title"`
	Author     string    `json:"author,omitempty" xml:"author,omitempty" marc:"author"`
	Created    string    `json:"created,omitempty" xml:"created,omitempty" marc:"date_created"`
	Modified   string    `json:"modified,omitempty" xml:"modified,omitempty" marc:"date_modified"`
	Language   string    `json:"language,omitempty" xml:"language,omitempty"`
	Categories []string  `json:"categories,omitempty" xml:"category,omitempty" marc:"categories"`
	Tags       []string  `json:"tags,omitempty" xml:"tag,omitempty" marc:"tags"`
	Text       string    `json:"text" xml:"text"`
	Comments   []Comment `json:"comments,omitempty" xml:"comment,omitempty"`
	// GUID and Aliases are the entry's feed guid and its other URLs, for
	// finding a post again after a move (the daemon's index of archived
	// posts); not exported.
	GUID    string   `json:"-" xml:"-" marc:"alt_identifier"`
	Aliases []string `json:"-" xml:"-" marc:"aliases"`
}

// Comment is one archived comment of a Post; a field tagged marc holds
// the attribute of that name of the comment record, as in Post.
type Comment struct {
	ID        string `json:"id" xml:"id,attr"` // the record's 001
	Permalink string `json:"permalink,omitempty" xml:"permalink,omitempty" marc:"uri"`
	Author    string `json:"author,omitempty" xml:"author,omitempty" marc:"author"`
	Subject   string `json:"subject,omitempty" xml:"subject,omitempty" marc:"subject"`
	Added     string `json:"added,omitempty" xml:"added,omitempty" marc:"date_added"`
	Modified  string `json:"modified,omitempty" xml:"modified,omitempty" marc:"date_modified"`
	Parent    string `json:"parent,omitempty" xml:"parent,omitempty" marc:"is_child_of_comment"` // URI of the comment it answers
	ParentID  string `json:"parent_id,omitempty" xml:"parent-id,omitempty"`                      // 001 of that comment's record
	Text      string `json:"text" xml:"text"`
}

// Options say which AIPs Walk visits.
type Options struct {
	// AllVersions visits every version v1…vN of each entry, oldest first;
	// otherwise only the latest.
	AllVersions bool
	// Bag, when set, is called with each bag's folder (relative to the
	// archive root) before it is read, e.g. for a progress display.
	Bag func(rel string)
}

// Target is what a path on the command line names: an archive, read
// through its aip.Store (a folder, or an S3-compatible store), and the
// blogs of it to read.
type Target struct {
	Store aip.Store
	Blogs []string
}

// ResolveIn returns the Target of the archive s: every blog in it when
// blog is ".", else the blog whose folder blog is. The caller opens the
// store (a folder's aip.Local, an S3 archive's s3store.Store: daemon's
// resolveArchive); report builds none.
func ResolveIn(s aip.Store, blog string) (Target, error) {
	if blog != "." {
		if !IsBlogDir(s, blog) {
			return Target{}, fmt.Errorf("archive %s: %s is not a blog folder (no %s/blog or %s/entries in it)", s, blog, blog, blog)
		}
		return Target{Store: s, Blogs: []string{blog}}, nil
	}
	names, err := readNames(s, ".")
	if err != nil {
		return Target{}, fmt.Errorf("archive %s: %w", s, err)
	}
	t := Target{Store: s}
	for _, n := range names {
		if !strings.HasPrefix(n, ".") && IsBlogDir(s, n) {
			t.Blogs = append(t.Blogs, n)
		}
	}
	if len(t.Blogs) == 0 {
		return Target{}, fmt.Errorf("archive %s: no blog folders (<blog-id>/blog or <blog-id>/entries) in it", s)
	}
	return t, nil
}

// IsBlogDir reports whether the folder dir of s looks like a blog's
// folder, <archive>/<blog-id>: it holds a blog or an entries folder.
func IsBlogDir(s aip.Store, dir string) bool {
	for _, sub := range []string{"blog", "entries"} {
		if fi, err := s.Stat(path.Join(dir, sub)); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

// readNames returns the names in the folder dir of s, sorted; a missing
// dir has none. Nothing is read through a symbolic link (aip.Local), and a
// link among the names fails with a *aip.SymlinkError naming it.
func readNames(s aip.Store, dir string) ([]string, error) {
	ents, err := s.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		if e.Type()&fs.ModeSymlink != 0 {
			target, _ := fs.ReadLink(s, path.Join(dir, e.Name())) // a store without links has none to read
			return nil, &aip.SymlinkError{Path: aip.Location(s, path.Join(dir, e.Name())), Target: target}
		}
		names = append(names, e.Name())
	}
	return names, nil
}

// Walk calls fn with every archived entry of t, blog by blog, year by
// year, entry folder by entry folder, in name order. It holds one entry at
// a time (and the names of one folder), so memory does not grow with the
// archive. An AIP whose METS cannot be read stops the walk with an error
// naming its location.
func Walk(ctx context.Context, t Target, o Options, fn func(*Post) error) error {
	for _, blog := range t.Blogs {
		entries := path.Join(blog, "entries")
		years, err := readNames(t.Store, entries)
		if err != nil {
			return err
		}
		for _, y := range years {
			keys, err := readNames(t.Store, path.Join(entries, y))
			if err != nil {
				return err
			}
			for _, k := range keys {
				if err := ctx.Err(); err != nil {
					return err
				}
				if err := walkEntry(t.Store, blog, path.Join(entries, y, k), o, fn); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// walkEntry reads the versions of one entry folder that o asks for.
func walkEntry(s aip.Store, blog, dir string, o Options, fn func(*Post) error) error {
	latest, err := aip.LatestVersionOf(s, dir)
	if err != nil || latest == 0 {
		return err
	}
	first := latest
	if o.AllVersions {
		first = 1
	}
	for v := first; v <= latest; v++ {
		bag := path.Join(dir, "v"+strconv.Itoa(v))
		if v != latest {
			if _, err := s.Stat(bag); errors.Is(err, fs.ErrNotExist) {
				continue
			}
		}
		if o.Bag != nil {
			o.Bag(bag)
		}
		p, err := ReadPost(s, bag)
		if err != nil {
			return err
		}
		p.Blog, p.AIP, p.Version = blog, bag, v
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// ReadPost reads the entry and its comments from the METS document of the
// Entry AIP bag of the archive s (no symbolic link is followed). Blog, AIP
// and Version are left for the caller.
func ReadPost(s aip.Store, bag string) (*Post, error) {
	name := path.Join(bag, "data", "METS.xml")
	data, err := fs.ReadFile(s, name)
	where := aip.Location(s, name)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", where, err)
	}
	recs, err := MARCRecords(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	var p *Post
	for _, r := range recs {
		a := marc.Attributes(r)
		switch recordType(r) {
		case marc.TypeBlogPost:
			if p != nil {
				return nil, fmt.Errorf("%s: more than one entry record", where)
			}
			p = postFrom(r, a)
		case marc.TypeComment:
			if p == nil {
				p = &Post{}
			}
			p.Comments = append(p.Comments, commentFrom(r, a))
		}
	}
	if p == nil || p.Permalink == "" {
		return nil, fmt.Errorf("%s: no entry record with a URI (980 $a %s, 520 $u)", where, marc.TypeBlogPost)
	}
	return p, nil
}

// recordType returns 980 $a.
func recordType(r *marc.Record) string {
	if f := r.Fields("980"); len(f) > 0 {
		return f[0].Value('a')
	}
	return ""
}

// postFrom reads the entry record r, whose attributes are a.
func postFrom(r *marc.Record, a map[string][]string) *Post {
	p := &Post{Language: language(r), Text: text(a)}
	fromAttributes(p, a)
	return p
}

// commentFrom reads the comment record r, whose attributes are a.
func commentFrom(r *marc.Record, a map[string][]string) Comment {
	c := Comment{Text: text(a)}
	fromAttributes(&c, a)
	c.ID, _ = r.ControlValue("001")
	for _, f := range r.Fields("773") {
		if f.Value('3') == "is_child_of_comment" {
			c.ParentID = f.Value('w')
		}
	}
	return c
}

// text is the plain text of a record's full_content.
func text(a map[string][]string) string {
	return PlainText(strings.Join(a["full_content"], ""), first(a["full_content_format"]))
}

// fromAttributes sets each field of the struct *dst tagged marc:"attr" to
// a[attr]: the first value for a string, all of them for a []string.
func fromAttributes(dst any, a map[string][]string) {
	v := reflect.ValueOf(dst).Elem()
	for i := 0; i < v.NumField(); i++ {
		attr := v.Type().Field(i).Tag.Get("marc")
		if attr == "" {
			continue
		}
		if f := v.Field(i); f.Kind() == reflect.String {
			f.SetString(first(a[attr]))
		} else {
			f.Set(reflect.ValueOf(a[attr]))
		}
	}
}

// language returns the record's language: 041 $a, else the MARC code in
// 008/35-37 unless undetermined.
func language(r *marc.Record) string {
	if f := r.Fields("041"); len(f) > 0 && f[0].Value('a') != "" {
		return f[0].Value('a')
	}
	if v, ok := r.ControlValue("008"); ok && len(v) == 40 {
		if code := strings.TrimSpace(v[35:38]); code != "und" && code != "|||" && code != "" {
			return code
		}
	}
	return ""
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

// MARCRecords returns the MARC records of the dmdSecs of a METS document,
// in document order. Records that declare the MARC namespace themselves
// (as blogharvest writes them) are cut out of the document directly, which
// spares tokenising the PREMIS sections; any other layout is read with an
// XML decoder.
func MARCRecords(mets []byte) ([]*marc.Record, error) {
	var out []*marc.Record
	rest := mets
	for {
		i := bytes.Index(rest, recordStart)
		if i < 0 {
			break
		}
		j := bytes.Index(rest[i:], recordEnd)
		if j < 0 {
			return nil, errors.New("METS: MARC record not closed")
		}
		r, err := marc.ParseMARCXML(rest[i : i+j+len(recordEnd)])
		if err != nil {
			return nil, fmt.Errorf("METS: %w", err)
		}
		out = append(out, r)
		rest = rest[i+j+len(recordEnd):]
	}
	if len(out) > 0 {
		return out, nil
	}
	return decodeRecords(mets)
}

var (
	recordStart = []byte(`<record xmlns="` + marcNS + `"`)
	recordEnd   = []byte(`</record>`)
)

// decodeRecords finds the MARC records of mets with an XML decoder.
func decodeRecords(mets []byte) ([]*marc.Record, error) {
	d := xml.NewDecoder(bytes.NewReader(mets))
	var out []*marc.Record
	for {
		start := d.InputOffset()
		tok, err := d.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("METS: %w", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Space != marcNS || se.Name.Local != "record" {
			continue
		}
		if err := d.Skip(); err != nil {
			return nil, fmt.Errorf("METS: MARC record: %w", err)
		}
		r, err := marc.ParseMARCXML(redeclare(mets[start:d.InputOffset()]))
		if err != nil {
			return nil, fmt.Errorf("METS: %w", err)
		}
		out = append(out, r)
	}
}

const marcNS = "http://www.loc.gov/MARC21/slim"

// redeclare rewrites a record element whose MARC namespace was declared on
// an ancestor (<marc:record …> or <record …> under a default namespace)
// into one that declares it itself.
func redeclare(raw []byte) []byte {
	s := string(raw)
	if i := strings.IndexByte(s, ':'); strings.HasPrefix(s, "<") && i > 0 && i < strings.IndexAny(s, " >") {
		prefix := s[1:i]
		s = strings.ReplaceAll(s, "<"+prefix+":", "<")
		s = strings.ReplaceAll(s, "</"+prefix+":", "</")
	}
	return []byte(strings.Replace(s, "<record", `<record xmlns="`+marcNS+`"`, 1))
}

package daemon

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"go.yaml.in/yaml/v3"
)

// runImportOPML appends the blogs of an OPML subscription list to a
// config file, keeping the file's comments and layout: the new blogs are
// written as text after the last line of its blogs list.
func runImportOPML(ctx context.Context, args []string, std IO) error {
	fl := newFlagSet("import-opml", "FILE.opml CONFIG.yaml [-dry-run]", std.Stderr)
	dry := fl.Bool("dry-run", false, "print what would be appended; change nothing")
	pos, err := parseInterspersed(fl, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return &UsageError{errors.New("name one OPML file and one config file")}
	}
	opmlFile, cfgFile := pos[0], pos[1]
	feeds, err := readOPML(opmlFile)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if _, err := ParseConfig(cfgFile, data); err != nil && !onlyNoBlogs(err) {
		return fmt.Errorf("the config is not valid before the import; fix it first:\n%w", err)
	}
	existing, err := registered(data)
	if err != nil {
		return err
	}
	added, refused := planImport(feeds, existing, opmlFile, cfgFile)
	for _, r := range refused {
		fmt.Fprintln(std.Stderr, r)
	}
	if len(added) == 0 {
		fmt.Fprintf(std.Stderr, "nothing to add: %d outline(s) with a feed in %s, %d refused\n", len(feeds), opmlFile, len(refused))
		if len(refused) > 0 {
			return ErrProblems
		}
		return nil
	}
	out, err := appendBlogs(data, added, opmlFile)
	if err != nil {
		return err
	}
	if _, err := ParseConfig(cfgFile, out); err != nil {
		return fmt.Errorf("the config would not be valid with the imported blogs; nothing written:\n%w", err)
	}
	if *dry {
		fmt.Fprintf(std.Stdout, "%s", out[len(data):])
	} else if err := replaceFile(cfgFile, out); err != nil {
		return err
	}
	verb := "added"
	if *dry {
		verb = "would add"
	}
	fmt.Fprintf(std.Stderr, "%s %d blog(s) to %s from %s; %d refused\n", verb, len(added), cfgFile, opmlFile, len(refused))
	if len(refused) > 0 {
		return ErrProblems
	}
	return nil
}

// onlyNoBlogs reports whether err says only that the config registers no
// blog: a config made to be filled by an import.
func onlyNoBlogs(err error) bool {
	var ce *ConfigError
	if !errors.As(err, &ce) {
		return false
	}
	for _, p := range ce.Problems {
		if p.Key != "blogs" {
			return false
		}
	}
	return true
}

// opmlFeed is one outline of an OPML file with a feed (xmlUrl).
type opmlFeed struct {
	line        int
	title       string
	feed, home  string
	homeGuessed bool // no htmlUrl: the feed's origin
}

// readOPML reads the outlines with an xmlUrl at any depth (categories
// nest them), each with its line.
func readOPML(file string) ([]opmlFeed, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := xml.NewDecoder(io.LimitReader(f, 64<<20))
	dec.Strict = false
	dec.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		if l := strings.ToLower(label); l == "utf-8" || l == "us-ascii" || l == "iso-8859-1" || l == "latin1" {
			return r, nil // OPML files are UTF-8 in practice; a Latin-1 label is read as such by the bytes below 0x80
		}
		return nil, fmt.Errorf("encoding %q: save the OPML file as UTF-8", label)
	}
	var feeds []opmlFeed
	sawOPML := false
	dec.Entity = xml.HTMLEntity // exports carry &eacute; and the like
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: not an OPML file: %w", file, err)
		}
		line, _ := dec.InputPos() // the end of the start tag: its line for a one-line outline
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch strings.ToLower(se.Name.Local) {
		case "opml":
			sawOPML = true
		case "outline":
			a := map[string]string{}
			for _, at := range se.Attr {
				a[strings.ToLower(at.Name.Local)] = strings.TrimSpace(at.Value)
			}
			if a["xmlurl"] == "" {
				continue // a category
			}
			o := opmlFeed{line: line, title: a["title"], feed: a["xmlurl"], home: a["htmlurl"]}
			if o.title == "" {
				o.title = a["text"]
			}
			if o.home == "" {
				if u, err := url.Parse(o.feed); err == nil && u.Host != "" {
					o.home, o.homeGuessed = u.Scheme+"://"+u.Host+"/", true
				}
			}
			feeds = append(feeds, o)
		}
	}
	if !sawOPML {
		return nil, fmt.Errorf("%s: not an OPML file (no <opml> element)", file)
	}
	return feeds, nil
}

// registeredBlog is a blog of the config, with its line.
type registeredBlog struct {
	line          int
	id, url, feed string
}

// registered reads the blogs of the config data with their lines.
func registered(data []byte) ([]registeredBlog, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	if len(root.Content) == 0 {
		return nil, nil
	}
	seq := seqNode(root.Content[0], "blogs")
	if seq == nil {
		return nil, nil
	}
	var out []registeredBlog
	for _, item := range seq.Content {
		b := registeredBlog{line: item.Line}
		if v := mapValue(item, "id"); v != nil {
			b.id = v.Value
		}
		if v := mapValue(item, "url"); v != nil {
			b.url = v.Value
		}
		if v := mapValue(item, "feed"); v != nil {
			b.feed = v.Value
		}
		out = append(out, b)
	}
	return out, nil
}

// sameAddress reports whether two URLs name one page once canonical.
func sameAddress(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	ca, err1 := harvest.Canonical(a)
	cb, err2 := harvest.Canonical(b)
	if err1 != nil || err2 != nil {
		return a == b
	}
	return strings.TrimSuffix(ca, "/") == strings.TrimSuffix(cb, "/")
}

// planImport decides the blogs to add (with their ids) and the refusals:
// a feed or home page already registered (in the config, or earlier in
// the OPML file), a URL that is not http(s), an id taken by another blog
// both from the title and from the host.
func planImport(feeds []opmlFeed, existing []registeredBlog, opmlFile, cfgFile string) (added []Blog, refused []string) {
	type known struct {
		where         string
		id, url, feed string
	}
	var all []known
	for _, b := range existing {
		all = append(all, known{fmt.Sprintf("%s line %d", cfgFile, b.line), b.id, b.url, b.feed})
	}
	for _, o := range feeds {
		at := fmt.Sprintf("%s line %d", opmlFile, o.line)
		if err := checkHTTPURL(o.feed); err != nil {
			hint := ""
			if strings.HasPrefix(o.feed, "feed:") {
				hint = " (a feed: address: write it as https:// in the OPML file)"
			}
			refused = append(refused, fmt.Sprintf("%s: %q: xmlUrl %v%s: not imported", at, o.title, err, hint))
			continue
		}
		if err := checkHTTPURL(o.home); err != nil {
			refused = append(refused, fmt.Sprintf("%s: %q: htmlUrl %v: not imported", at, o.title, err))
			continue
		}
		dup := ""
		for _, k := range all {
			switch {
			case sameAddress(o.feed, k.feed) || sameAddress(o.feed, k.url):
				dup = fmt.Sprintf("its feed %s is already registered, as blog %s at %s", o.feed, k.id, k.where)
			case !o.homeGuessed && sameAddress(o.home, k.url):
				dup = fmt.Sprintf("its home page %s is already registered, as blog %s at %s", o.home, k.id, k.where)
			}
			if dup != "" {
				break
			}
		}
		if dup != "" {
			refused = append(refused, fmt.Sprintf("%s: %q: a duplicate: %s; not imported", at, o.title, dup))
			continue
		}
		id, why := "", ""
		for _, cand := range candidateIDs(o) {
			taken := ""
			for _, k := range all {
				if k.id == cand {
					taken = k.where
				}
			}
			if taken == "" {
				id = cand
				break
			}
			why += fmt.Sprintf(" id %s is taken by the blog at %s;", cand, taken)
		}
		if id == "" {
			refused = append(refused, fmt.Sprintf("%s: %q:%s not imported (add it by hand with an id of your choice)", at, o.title, why))
			continue
		}
		added = append(added, Blog{ID: id, URL: o.home, Feed: o.feed})
		all = append(all, known{at, id, o.home, o.feed})
	}
	return added, refused
}

// candidateIDs returns the ids a feed may take, best first: a slug of
// its title, then of its home page's host (without www.), then the host
// slug with the URL hash of the feed.
func candidateIDs(o opmlFeed) []string {
	var out []string
	add := func(s string) {
		s = strings.Trim(s, "-")
		if len(s) > blogharvest.MaxIDLen {
			s = strings.Trim(s[:blogharvest.MaxIDLen], "-")
		}
		if s != "" && blogharvest.ValidID(s) == nil {
			out = append(out, s)
		}
	}
	add(blogharvest.Slug(o.title))
	host := ""
	if u, err := url.Parse(o.home); err == nil {
		host = strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	}
	add(blogharvest.Slug(host))
	add(blogharvest.Slug(host) + "-" + blogharvest.URLHash(o.feed))
	return out
}

// appendBlogs returns the config data with the blogs added after the
// last line of its blogs list, in its indentation (a blogs key is added
// at the end when there is none).
func appendBlogs(data []byte, blogs []Blog, opmlFile string) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	doc := root.Content[0]
	lines := strings.SplitAfter(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1], "\n") {
		lines[n-1] += "\n"
	}
	indent, after := "  ", len(lines) // insert after line `after` (1-based); default: at the end
	gap := "\n"                       // a blank line between the list's items and the imported ones
	v := mapValue(doc, "blogs")
	switch {
	case v == nil:
		lines = append(lines, "\nblogs:\n")
		after, gap = len(lines), ""
	case v.Kind == yaml.SequenceNode && v.Style&yaml.FlowStyle != 0:
		return nil, fmt.Errorf("blogs is written as a flow list ([…]) at line %d: write it as a block list (- id: …) to import into it", v.Line)
	case v.Kind == yaml.SequenceNode && len(v.Content) > 0:
		first := v.Content[0]
		indent = strings.Repeat(" ", max(first.Column-3, 0))
		after = lastLine(v)
	case v.Kind == yaml.ScalarNode && (v.Tag == "!!null" || v.Value == ""):
		after, gap = lineOf(doc, "blogs"), ""
	default:
		return nil, fmt.Errorf("blogs at line %d is not a list", v.Line)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s# imported from %s\n", gap, indent, filepath.Base(opmlFile))
	for _, bl := range blogs {
		fmt.Fprintf(&b, "%s- id: %s\n", indent, bl.ID)
		fmt.Fprintf(&b, "%s  url: %s\n", indent, strconv.Quote(bl.URL))
		fmt.Fprintf(&b, "%s  feed: %s\n", indent, strconv.Quote(bl.Feed))
	}
	out := strings.Join(lines[:after], "") + b.String() + strings.Join(lines[after:], "")
	return []byte(out), nil
}

// lastLine returns the last line any node below n starts on, and the
// line its last scalar ends on (a block scalar spans more).
func lastLine(n *yaml.Node) int {
	last := n.Line
	if n.Kind == yaml.ScalarNode {
		last += strings.Count(strings.TrimRight(n.Value, "\n"), "\n")
		if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			last++
		}
	}
	for _, c := range n.Content {
		last = max(last, lastLine(c))
	}
	return last
}

// replaceFile writes data to path atomically (a temp file beside it,
// fsynced, renamed over it), keeping path's mode.
func replaceFile(path string, data []byte) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = io.Copy(f, bytes.NewReader(data))
	if err == nil {
		err = f.Chmod(info.Mode().Perm())
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

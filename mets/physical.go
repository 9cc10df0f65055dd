package mets

import (
	"net/url"
	"slices"
	"strings"
)

// IDs of the two structMaps Marshal writes; a document may not use them.
const (
	LogicalMapID  = "structmap-logical"
	PhysicalMapID = "structmap-physical"
)

// physicalDiv returns the root div of the physical structMap: a
// "Directory" labelled with the document's label, holding a "Directory"
// div per folder of the files' paths and an "Item" div per file with its
// single fptr, folders and files sorted by name. This is the layout
// Archivematica writes and its METS library (metsrw) reads.
func (d *Document) physicalDiv() *Div {
	label := d.Label
	if label == "" {
		label = "package"
	}
	root := &Div{Type: "Directory", Label: label}
	n := 0
	for _, g := range d.FileGroups {
		n += len(g.Files)
	}
	files := make([]File, 0, n)
	for _, g := range d.FileGroups {
		files = append(files, g.Files...)
	}
	slices.SortStableFunc(files, func(a, b File) int { return strings.Compare(a.Href, b.Href) })
	fptrs := make([]string, len(files)) // each Item's single fptr, cut from one slice
	for i, f := range files {
		dir, rest := root, f.Href
		for {
			p, after, ok := strings.Cut(rest, "/")
			if !ok {
				break
			}
			dir, rest = dir.subdir(unescape(p)), after
		}
		fptrs[i] = f.ID
		dir.Children = append(dir.Children, Div{Type: "Item", Label: unescape(rest), Fptrs: fptrs[i : i+1 : i+1]})
	}
	return root
}

// subdir returns the "Directory" child of div labelled name, adding it
// when missing.
func (div *Div) subdir(name string) *Div {
	for i := range div.Children {
		if c := &div.Children[i]; c.Type == "Directory" && c.Label == name {
			return c
		}
	}
	div.Children = append(div.Children, Div{Type: "Directory", Label: name})
	return &div.Children[len(div.Children)-1]
}

// unescape returns the path segment s unescaped, or s if it is not valid
// escaped text.
func unescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

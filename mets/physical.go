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
	var files []File
	for _, g := range d.FileGroups {
		files = append(files, g.Files...)
	}
	slices.SortStableFunc(files, func(a, b File) int { return strings.Compare(a.Href, b.Href) })
	for _, f := range files {
		parts := strings.Split(f.Href, "/")
		dir := root
		for _, p := range parts[:len(parts)-1] {
			dir = dir.subdir(unescape(p))
		}
		dir.Children = append(dir.Children, Div{Type: "Item", Label: unescape(parts[len(parts)-1]), Fptrs: []string{f.ID}})
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

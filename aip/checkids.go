package aip

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// DuplicateError reports bags of an archive that claim one identifier:
// two bags with the same Internal-Sender-Identifier, or the versions of
// one entry (the same blog id and entry key) in two folders, as a post
// archived once dated and once undated would be. One post is one entry:
// its versions belong in one folder.
type DuplicateError struct {
	Identifier string   // the Internal-Sender-Identifier, or "<blog-id>/<entry-key>"
	Paths      []string // the bags or folders that claim it, sorted
}

// Error implements error.
func (e *DuplicateError) Error() string {
	return fmt.Sprintf("%s: %d bags or folders claim one identifier %s", strings.Join(e.Paths, ", "), len(e.Paths), e.Identifier)
}

// identityClaims collects what the bags of an archive claim to be, for
// DuplicateError.
type identityClaims struct {
	senders map[string][]string            // Internal-Sender-Identifier → bag locations
	entries map[string]map[string][]string // "<blog-id>/<entry-key>" → folder of its versions → bags
}

// add records the bag at location, read as fsys: its
// Internal-Sender-Identifier and, for an entry, the folder of its
// versions. A bag without the field claims nothing (CheckBag reports what
// it lacks).
func (c *identityClaims) add(location string, fsys fs.FS) {
	data, err := fs.ReadFile(fsys, bagInfoTxt)
	if err != nil {
		return
	}
	sender := ""
	for _, f := range parseBagInfo(data) {
		if f.label == "Internal-Sender-Identifier" {
			sender = f.value
		}
	}
	if sender == "" {
		return
	}
	if c.senders == nil {
		c.senders = map[string][]string{}
		c.entries = map[string]map[string][]string{}
	}
	c.senders[sender] = append(c.senders[sender], location)
	parts := strings.Split(sender, "/")
	if len(parts) == 3 && parts[1] != "blog" {
		id := parts[0] + "/" + parts[1]
		if c.entries[id] == nil {
			c.entries[id] = map[string][]string{}
		}
		folder := path.Dir(filepath.ToSlash(location))
		c.entries[id][folder] = append(c.entries[id][folder], location)
	}
}

// errors returns a DuplicateError per identifier more than one bag, or
// one entry's versions in more than one folder, claim.
func (c *identityClaims) errors() []error {
	var errs []error
	for _, id := range sortedKeys(c.senders) {
		if locs := c.senders[id]; len(locs) > 1 {
			sort.Strings(locs)
			errs = append(errs, &DuplicateError{Identifier: id, Paths: locs})
		}
	}
	for _, id := range sortedKeys(c.entries) {
		if folders := c.entries[id]; len(folders) > 1 {
			errs = append(errs, &DuplicateError{Identifier: id, Paths: sortedKeys(folders)})
		}
	}
	return errs
}

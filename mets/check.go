package mets

import (
	"errors"
	"fmt"
)

// Check reports every structural problem of d that would make its METS
// invalid or inconsistent: missing required values, malformed or duplicate
// IDs, and references (ADMID, DMDID, FILEID, linking identifiers) to IDs the
// document does not define. It returns nil when d can be marshalled.
//
// With DmdSource set, Check asks it for its sections (Marshal checks them
// as it writes them instead).
func (d *Document) Check() error {
	var s idSet
	if d.Created.IsZero() {
		s.errs = append(s.errs, errors.New("document: zero Created time"))
	}
	for _, m := range d.DmdSecs {
		s.add("dmdSec", m.ID)
	}
	if d.DmdSource != nil {
		if err := d.DmdSource(func(m DmdSec) error { s.add("dmdSec", m.ID); return nil }); err != nil {
			s.errs = append(s.errs, err)
		}
	}
	d.addOtherIDs(&s)
	d.checkRefs(&s)
	return errors.Join(s.errs...)
}

// idCount is about the number of IDs the document defines, a size hint
// for the set that checks them (the comments' dmdSecs of DmdSource not
// counted): the set grew from nothing, rehashing, for every document.
func (d *Document) idCount() int {
	n := 2 + len(d.DmdSecs)
	for _, a := range d.AmdSecs {
		n += 1 + len(a.Objects) + len(a.Rights) + len(a.Events) + len(a.Agents)
	}
	for _, g := range d.FileGroups {
		n += len(g.Files)
	}
	return n + 1 + len(d.StructMap.Children)
}

// addOtherIDs records every ID the document defines but its dmdSecs'.
func (d *Document) addOtherIDs(s *idSet) {
	s.add("structMap", LogicalMapID)
	s.add("structMap", PhysicalMapID)
	for _, a := range d.AmdSecs {
		s.add("amdSec", a.ID)
		for _, o := range a.Objects {
			s.add("object", o.ID)
		}
		for _, r := range a.Rights {
			s.add("rights", r.ID)
		}
		for _, e := range a.Events {
			s.add("event", e.ID)
		}
		for _, ag := range a.Agents {
			s.add("agent", ag.ID)
		}
	}
	for _, g := range d.FileGroups {
		what := fmt.Sprintf("fileGrp %q file", g.Use) // once a group, not once a file
		for _, f := range g.Files {
			s.add(what, f.ID)
		}
	}
	d.StructMap.addIDs(s)
}

// addIDs records the IDs of div and its descendants (a div's ID is optional).
func (div *Div) addIDs(s *idSet) {
	if div.ID != "" {
		s.add("div", div.ID)
	}
	for i := range div.Children {
		div.Children[i].addIDs(s)
	}
}

// checkRefs checks that every reference names a defined ID.
func (d *Document) checkRefs(s *idSet) {
	for _, a := range d.AmdSecs {
		for _, e := range a.Events {
			for _, o := range e.Objects {
				s.ref("event ", e.ID, o)
			}
			for _, ag := range e.Agents {
				s.ref("event ", e.ID, ag.ID)
			}
		}
		for _, r := range a.Rights {
			for _, o := range r.Objects {
				s.ref("rights ", r.ID, o)
			}
		}
	}
	amd := make(map[string]bool, len(d.AmdSecs))
	for _, a := range d.AmdSecs {
		amd[a.ID] = true
	}
	for _, g := range d.FileGroups {
		for _, f := range g.Files {
			for _, a := range f.AdmIDs {
				if !amd[a] {
					s.errs = append(s.errs, fmt.Errorf("file %s: ADMID %q names no amdSec", f.ID, a))
				}
			}
		}
	}
	d.StructMap.checkRefs(s)
}

// checkRefs checks the DMDID, ADMID and FILEID references of div and below.
func (div *Div) checkRefs(s *idSet) {
	for _, lists := range [][]string{div.DmdIDs, div.AdmIDs, div.Fptrs} {
		for _, id := range lists {
			if !s.seen[id] { // the message made only for a missing ID: a Sprintf per reference was a tenth of Marshal's allocations
				s.ref(fmt.Sprintf("div %q", div.Label), "", id)
			}
		}
	}
	for i := range div.Children {
		div.Children[i].checkRefs(s)
	}
}

package mets

import (
	"errors"
	"fmt"
)

// Check reports every structural problem of d that would make its METS
// invalid or inconsistent: missing required values, malformed or duplicate
// IDs, and references (ADMID, DMDID, FILEID, linking identifiers) to IDs the
// document does not define. It returns nil when d can be marshalled.
func (d *Document) Check() error {
	var s idSet
	if d.Created.IsZero() {
		s.errs = append(s.errs, errors.New("document: zero Created time"))
	}
	d.addIDs(&s)
	d.checkRefs(&s)
	return errors.Join(s.errs...)
}

// addIDs records every ID the document defines.
func (d *Document) addIDs(s *idSet) {
	for _, m := range d.DmdSecs {
		s.add("dmdSec", m.ID)
	}
	if !d.AmdSec.empty() {
		s.add("amdSec", d.AmdSec.id())
	}
	for _, o := range d.AmdSec.Objects {
		s.add("object", o.ID)
	}
	for _, e := range d.AmdSec.Events {
		s.add("event", e.ID)
	}
	for _, a := range d.AmdSec.Agents {
		s.add("agent", a.ID)
	}
	for _, g := range d.FileGroups {
		for _, f := range g.Files {
			s.add(fmt.Sprintf("fileGrp %q file", g.Use), f.ID)
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
	for _, e := range d.AmdSec.Events {
		for _, o := range e.Objects {
			s.ref("event "+e.ID, o)
		}
		for _, a := range e.Agents {
			s.ref("event "+e.ID, a.ID)
		}
	}
	for _, g := range d.FileGroups {
		for _, f := range g.Files {
			for _, a := range f.AdmIDs {
				s.ref("file "+f.ID, a)
			}
		}
	}
	d.StructMap.checkRefs(s)
}

// checkRefs checks the DMDID, ADMID and FILEID references of div and below.
func (div *Div) checkRefs(s *idSet) {
	for _, lists := range [][]string{div.DmdIDs, div.AdmIDs, div.Fptrs} {
		for _, id := range lists {
			s.ref(fmt.Sprintf("div %q", div.Label), id)
		}
	}
	for i := range div.Children {
		div.Children[i].checkRefs(s)
	}
}

func (a *AmdSec) empty() bool { return len(a.Objects)+len(a.Events)+len(a.Agents) == 0 }

func (a *AmdSec) id() string {
	if a.ID == "" {
		return "amd"
	}
	return a.ID
}

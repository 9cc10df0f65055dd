package aip_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/mets"
)

// premisObject is what the tests read of a PREMIS object.
type premisObject struct {
	ID   string `xml:"objectIdentifier>objectIdentifierValue"`
	Rels []struct {
		Type    string `xml:"relationshipType"`
		SubType string `xml:"relationshipSubType"`
		Related string `xml:"relatedObjectIdentifier>relatedObjectIdentifierValue"`
	} `xml:"relationship"`
}

// premisObjects returns the PREMIS objects and event identifiers of the
// METS document of the bag at dir in a.
func premisObjects(t *testing.T, a *testArchive, dir string) (objects []premisObject, events []string) {
	t.Helper()
	data, err := a.read(dir, "data/METS.xml")
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return objects, events
		}
		if err != nil {
			t.Fatal(err)
		}
		se, ok := tok.(xml.StartElement)
		switch {
		case ok && se.Name.Space == mets.NSPREMIS && se.Name.Local == "object":
			var o premisObject
			if err := d.DecodeElement(&o, &se); err != nil {
				t.Fatal(err)
			}
			objects = append(objects, o)
		case ok && se.Name.Space == mets.NSPREMIS && se.Name.Local == "eventIdentifierValue":
			var v string
			d.DecodeElement(&v, &se)
			events = append(events, v)
		}
	}
}

// TestIdentifiersAndRelationships writes the blog, the entry, and a changed
// entry: every PREMIS object and event identifier is a urn:uuid: used once
// across the three AIPs; the package entity of each Entry AIP is part of
// the blog (its version-independent id and its AIP's OBJID), and v2
// replaces v1.
func TestIdentifiersAndRelationships(t *testing.T) {
	forEachBackend(t, testIdentifiersAndRelationships)
}

func testIdentifiersAndRelationships(t *testing.T, a *testArchive) {
	w, ctx := a.W, context.Background()
	blog, err := w.WriteBlog(ctx, fixtureBlog())
	if err != nil {
		t.Fatal(err)
	}
	e := fixtureEntry()
	v1, err := w.WriteEntry(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	e.Title += " (revised)"
	v2, err := w.WriteEntry(ctx, e)
	if err != nil || v2.Version != 2 {
		t.Fatalf("second version: %+v, %v", v2, err)
	}
	seen := map[string]string{}
	entities := map[string]premisObject{}
	for _, r := range []aip.Result{blog, v1, v2} {
		bag := r.Dir
		objects, events := premisObjects(t, a, bag)
		var ids []string
		for _, o := range objects {
			ids = append(ids, o.ID)
			if r != blog && o.ID == aip.ObjID(e.URL, r.Version) {
				entities[path.Base(a.name(bag))] = o
			}
		}
		for _, id := range append(ids, events...) {
			if !strings.HasPrefix(id, "urn:uuid:") {
				t.Errorf("%s: identifier %q is not a urn:uuid:", bag, id)
			}
			if other, dup := seen[id]; dup {
				t.Errorf("identifier %s used in %s and %s", id, other, bag)
			}
			seen[id] = bag
		}
	}
	const blogURL = "https://garden.example.org/"
	partOf := []string{"is part of " + aip.RecordID(blogURL), "is part of " + aip.ObjID(blogURL, 1)}
	want := map[string][]string{
		"v1": partOf,
		"v2": append(slices.Clone(partOf), "replaces "+aip.ObjID(e.URL, 1)),
	}
	for v, rels := range want {
		var got []string
		for _, r := range entities[v].Rels {
			got = append(got, r.SubType+" "+r.Related)
		}
		if !slices.Equal(got, rels) {
			t.Errorf("%s relationships %q, want %q", v, got, rels)
		}
	}
}

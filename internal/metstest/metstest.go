// Package metstest checks METS documents for tests with readers the project
// did not write: Archivematica's METS library (metsrw, through
// ../shared/tools/metsrw-read) and a plain encoding/xml reading of the
// PREMIS events linked to each file.
package metstest

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// MetsrwRead runs tool (the path of ../shared/tools/metsrw-read as seen from
// the test's folder) on docs and returns the payload paths it lists for
// each document. It skips the test when the tool or python3-lxml is
// missing, and fails it when the tool cannot read a document.
func MetsrwRead(t testing.TB, tool string, docs ...string) map[string][]string {
	t.Helper()
	if _, err := os.Stat(tool); err != nil {
		t.Skipf("%s absent: metsrw not run", tool)
	}
	if err := exec.Command("/usr/bin/python3", "-c", "import lxml").Run(); err != nil {
		t.Skip("python3-lxml not installed: metsrw not run")
	}
	out, err := exec.Command(tool, docs...).CombinedOutput()
	if err != nil {
		t.Fatalf("metsrw-read: %v\n%s", err, out)
	}
	listed := map[string][]string{}
	doc := ""
	for _, line := range strings.Split(string(out), "\n") {
		if f, ok := strings.CutPrefix(line, "  "); ok {
			if parts := strings.Split(f, "\t"); len(parts) == 3 {
				listed[doc] = append(listed[doc], parts[1])
			}
		} else if name, _, ok := strings.Cut(line, ": "); ok {
			doc = name
		}
	}
	return listed
}

// MetsrwListsPayload runs MetsrwRead on docs, the METS.xml of bags, and
// fails the test unless metsrw lists exactly each bag's payload files.
func MetsrwListsPayload(t testing.TB, tool string, docs ...string) {
	t.Helper()
	listed := MetsrwRead(t, tool, docs...)
	for _, d := range docs {
		want, err := Payload(d)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(want)
		if got := slices.Sorted(slices.Values(listed[d])); !slices.Equal(got, want) {
			t.Errorf("metsrw lists in %s\n%v\nwant the payload\n%v", d, got, want)
		}
	}
}

// Payload returns the payload paths of the bag whose METS.xml is metsPath,
// relative to data/ (METS.xml itself excluded), from its SHA-256 manifest.
func Payload(metsPath string) ([]string, error) {
	bag := filepath.Dir(filepath.Dir(metsPath))
	m, err := os.ReadFile(filepath.Join(bag, "manifest-sha256.txt"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(m)), "\n") {
		_, p, _ := strings.Cut(line, " ")
		p = strings.TrimPrefix(strings.TrimSpace(p), "data/")
		if p != "METS.xml" {
			out = append(out, p)
		}
	}
	return out, nil
}

// FileEvents returns, for each file of a METS document (by its FLocat
// href), the PREMIS event types of the amdSecs (or digiprovMDs) its ADMID
// names.
func FileEvents(metsXML []byte) (map[string][]string, error) {
	var doc struct {
		AmdSecs []struct {
			ID       string `xml:"ID,attr"`
			Digiprov []struct {
				ID    string `xml:"ID,attr"`
				Event []struct {
					Type string `xml:"eventType"`
				} `xml:"mdWrap>xmlData>event"`
			} `xml:"digiprovMD"`
		} `xml:"amdSec"`
		Files []struct {
			AdmID string `xml:"ADMID,attr"`
			Href  struct {
				Href string `xml:"http://www.w3.org/1999/xlink href,attr"`
			} `xml:"FLocat"`
		} `xml:"fileSec>fileGrp>file"`
	}
	if err := xml.NewDecoder(bytes.NewReader(metsXML)).Decode(&doc); err != nil {
		return nil, err
	}
	events := map[string][]string{}
	for _, a := range doc.AmdSecs { // an ADMID may name an amdSec, or (METS allows it, metsrw not) a digiprovMD
		for _, md := range a.Digiprov {
			for _, e := range md.Event {
				typ := strings.TrimSpace(e.Type)
				events[a.ID] = append(events[a.ID], typ)
				events[md.ID] = append(events[md.ID], typ)
			}
		}
	}
	out := map[string][]string{}
	for _, f := range doc.Files {
		if f.AdmID == "" {
			return nil, fmt.Errorf("file %s has no ADMID", f.Href.Href)
		}
		for _, id := range strings.Fields(f.AdmID) {
			out[f.Href.Href] = append(out[f.Href.Href], events[id]...)
		}
	}
	return out, nil
}

// CheckProvenance checks the events of every file of the METS document at
// metsPath: a file generated(href) says the software made carries a
// creation event and no capture event; every other file a capture event and
// no creation event; every file a format identification event.
func CheckProvenance(t testing.TB, metsPath string, generated func(href string) bool) {
	t.Helper()
	data, err := os.ReadFile(metsPath)
	if err != nil {
		t.Fatal(err)
	}
	files, err := FileEvents(data)
	if err != nil {
		t.Fatalf("%s: %v", metsPath, err)
	}
	for href, evs := range files {
		want, not := "capture", "creation"
		if generated(href) {
			want, not = "creation", "capture"
		}
		has := map[string]bool{}
		for _, e := range evs {
			has[e] = true
		}
		if !has[want] || has[not] || !has["format identification"] {
			t.Errorf("%s: %s has events %v, want %s and format identification, no %s", metsPath, href, evs, want, not)
		}
	}
}

// Generated reports whether a payload path of a blogharvest AIP holds a
// file the software made: logs (and a CDXJ index), the rendered DOM,
// screenshots, learned rules, a WARC file (assembled from captured
// exchanges, not itself served), and in an Entry AIP (entry) the feed's
// item (the Blog AIP holds the feed pages as served).
func Generated(href string, entry bool) bool {
	for _, p := range []string{"logs/", "objects/rendered/", "objects/screenshot/", "objects/log/", "objects/warc/"} {
		if strings.HasPrefix(href, p) {
			return true
		}
	}
	return entry && strings.HasPrefix(href, "objects/feed/")
}

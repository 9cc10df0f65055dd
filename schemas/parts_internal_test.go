package schemas

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPartsAgreeWithWhole validates every document of testdata both whole
// and in parts: the parts find a problem exactly when the whole does, and
// on the same lines.
func TestPartsAgreeWithWhole(t *testing.T) {
	files, _ := filepath.Glob("testdata/*/*.xml")
	if len(files) < 10 {
		t.Fatalf("%d documents in testdata", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		whole := validateWhole(data)
		parts := ValidateReaderParts(data)
		lines := func(ps []Problem) []int {
			var out []int
			for _, p := range ps {
				out = append(out, p.Line)
			}
			slices.Sort(out)
			return slices.Compact(out)
		}
		if (len(whole) == 0) != (len(parts) == 0) || !slices.Equal(lines(whole), lines(parts)) {
			t.Errorf("%s:\nwhole: %v\nparts: %v", f, whole, parts)
		} else {
			t.Logf("%s: %d problems whole, %d in parts %v", f, len(whole), len(parts), parts)
		}
	}
}

// ValidateReaderParts validates data in parts, whatever its size.
func ValidateReaderParts(data []byte) []Problem {
	old := wholeUpTo
	defer func() { wholeUpTo = old }()
	wholeUpTo = -1
	return ValidateReader(bytes.NewReader(data))
}

// big returns the valid testdata METS with n more dmdSecs and, in its
// entry's div, n comment divs naming them, in threads of depth (each
// comment of a thread answering the one before), change applied to the
// text of copy i of each; tail is written in the entry's div after them.
func big(t *testing.T, n, depth int, tail string, change func(i int, dmd, div string) (string, string)) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/valid/mets-marc-premis.xml")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	sec := s[strings.Index(s, "  <mets:dmdSec") : strings.Index(s, "</mets:dmdSec>\n")+len("</mets:dmdSec>\n")]
	var secs, divs strings.Builder
	open := 0
	for i := range n {
		dmd := strings.Replace(sec, `ID="dmd-1"`, fmt.Sprintf(`ID="dmd-c%d"`, i), 1)
		div := fmt.Sprintf("\n<mets:div TYPE=\"Comment\" ID=\"div-c%d\" DMDID=\"dmd-c%d\">", i, i)
		if change != nil {
			dmd, div = change(i, dmd, div)
		}
		secs.WriteString(dmd)
		divs.WriteString(div)
		if open++; open == depth || i == n-1 {
			divs.WriteString(strings.Repeat("</mets:div>", open))
			open = 0
		}
	}
	s = strings.Replace(s, sec, sec+secs.String(), 1)
	s = strings.Replace(s, `<mets:fptr FILEID="file-1"/></mets:div>`, `<mets:fptr FILEID="file-1"/>`+divs.String()+tail+"</mets:div>", 1)
	return []byte(s)
}

// TestPartsAgreeOnLargeDocuments validates documents of 600 comments
// (several batches of parts, threads 10 deep) whole and in parts,
// valid and with a problem planted far in: a bad MARC indicator, an ID
// defined twice in different batches, a DMDID naming nothing, an fptr
// after a child div, text between divs, a dmdSec after the amdSecs.
func TestPartsAgreeOnLargeDocuments(t *testing.T) {
	const n = 600
	cases := map[string]func(i int, dmd, div string) (string, string){
		"valid": nil,
		"indicator": func(i int, dmd, div string) (string, string) {
			if i == 450 {
				dmd = strings.Replace(dmd, `ind1="0"`, `ind1="#"`, 1)
			}
			return dmd, div
		},
		"duplicate ID": func(i int, dmd, div string) (string, string) {
			if i == 550 {
				dmd = strings.Replace(dmd, `ID="dmd-c550"`, `ID="dmd-c3"`, 1)
				div = strings.Replace(div, `DMDID="dmd-c550"`, `DMDID="dmd-c3"`, 1)
			}
			return dmd, div
		},
		"dangling DMDID": func(i int, dmd, div string) (string, string) {
			if i == 300 {
				div = strings.Replace(div, `DMDID="dmd-c300"`, `DMDID="dmd-none"`, 1)
			}
			return dmd, div
		},
		"fptr after div": nil,
		"text": func(i int, dmd, div string) (string, string) {
			if i == 200 {
				div = "stray text" + div
			}
			return dmd, div
		},
	}
	for name, change := range cases {
		lines := func(ps []Problem) []int {
			var out []int
			for _, p := range ps {
				out = append(out, p.Line)
			}
			slices.Sort(out)
			return slices.Compact(out)
		}
		tail := ""
		if name == "fptr after div" {
			tail = `<mets:fptr FILEID="file-1"/>`
		}
		doc := big(t, n, 10, tail, change)
		whole := validateWhole(doc)
		parts := ValidateReaderParts(doc)
		batchBytes = 4 << 10 // many batches: an ID defined twice is in two of them
		small := ValidateReaderParts(doc)
		batchBytes = 256 << 10
		if !slices.Equal(lines(parts), lines(small)) {
			t.Errorf("%s: in parts of 256 KiB: %v; of 4 KiB: %v", name, parts, small)
		}
		if (len(whole) == 0) != (len(parts) == 0) || !slices.Equal(lines(whole), lines(parts)) || (name == "valid") != (len(parts) == 0) {
			t.Errorf("%s (%d bytes):\nwhole: %v\nparts: %v", name, len(doc), whole, parts)
		} else {
			t.Logf("%s (%d bytes): %v", name, len(doc), parts)
		}
	}
}

// TestPartsDeepThread: a thread of 600 comments each answering the one
// before is a structMap 600 divs deep, more than helium parses (it stops
// at a depth of 256: "exceeded max depth"); in parts it is valid, and
// Validate and ValidateReader turn to the parts for a document under
// 1 MiB that nests too deep (before, such an entry was refused as not
// well-formed).
func TestPartsDeepThread(t *testing.T) {
	doc := big(t, 600, 600, "", nil)
	if whole := validateWhole(doc); len(whole) == 0 || !strings.Contains(whole[0].Message, "depth") {
		t.Logf("helium now parses the deep document whole: %v", whole)
	}
	if parts := ValidateReaderParts(doc); len(parts) > 0 {
		t.Errorf("in parts: %v", parts)
	}
	if len(doc) > wholeUpTo {
		t.Fatalf("%d bytes: not a small document", len(doc))
	}
	if ps := Validate(doc); len(ps) > 0 {
		t.Errorf("Validate: %v", ps)
	}
	if ps := ValidateReader(bytes.NewReader(doc)); len(ps) > 0 {
		t.Errorf("ValidateReader: %v", ps)
	}
	bad := bytes.Replace(doc, []byte(`DMDID="dmd-c500"`), []byte(`DMDID="dmd-none"`), 1)
	if ps := Validate(bad); len(ps) != 1 || !strings.Contains(ps[0].Message, "dmd-none") {
		t.Errorf("Validate of a deep document with a dangling DMDID: %v", ps)
	}
}

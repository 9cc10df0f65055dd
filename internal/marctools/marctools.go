// Package marctools checks MARC records with tools this project did not
// write, for tests: yaz-marcdump (Index Data's YAZ, Debian yaz) converts
// MARCXML to ISO 2709 and back, and MARC::Lint (Debian libmarc-lint-perl)
// lints the ISO 2709 records. Available says whether both are installed, so
// a test can skip cleanly without them.
package marctools

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/blogharvest/blogharvest/marc"
)

//go:embed marclint.pl
var lintScript []byte

// Available returns nil when yaz-marcdump and perl with MARC::Lint and
// MARC::File::USMARC are installed, else an error saying what is missing.
func Available() error {
	if _, err := exec.LookPath("yaz-marcdump"); err != nil {
		return errors.New("yaz-marcdump not installed (Debian: apt-get install yaz)")
	}
	if out, err := exec.Command("perl", "-MMARC::Lint", "-MMARC::File::USMARC", "-e", "1").CombinedOutput(); err != nil {
		return fmt.Errorf("perl MARC::Lint not installed (Debian: apt-get install libmarc-lint-perl): %v %s", err, out)
	}
	return nil
}

// Collection returns recs as one MARCXML <collection> document.
func Collection(recs []*marc.Record) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(xml.Header + `<collection xmlns="` + marc.Namespace + `">` + "\n")
	for i, r := range recs {
		x, err := r.MarshalMARCXML()
		if err != nil {
			return nil, fmt.Errorf("record %d: %w", i, err)
		}
		b.Write(x)
	}
	b.WriteString("</collection>\n")
	return b.Bytes(), nil
}

// yaz runs yaz-marcdump with args over the file in, returning its standard
// output; anything on standard error is an error, since yaz-marcdump reports
// problems there but still exits 0.
func yaz(in string, args ...string) ([]byte, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("yaz-marcdump", append(args, in)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil || stderr.Len() > 0 {
		return nil, fmt.Errorf("yaz-marcdump %s %s: %v: %s", strings.Join(args, " "), filepath.Base(in), err, stderr.Bytes())
	}
	return stdout.Bytes(), nil
}

// RoundTrip converts recs to ISO 2709 and back to MARCXML with
// yaz-marcdump, in dir, and returns the ISO 2709 bytes and the records read
// back with marc.ParseCollection.
func RoundTrip(dir string, recs []*marc.Record) (iso []byte, back []*marc.Record, err error) {
	coll, err := Collection(recs)
	if err != nil {
		return nil, nil, err
	}
	xmlPath, isoPath := filepath.Join(dir, "records.xml"), filepath.Join(dir, "records.mrc")
	if err := os.WriteFile(xmlPath, coll, 0o644); err != nil {
		return nil, nil, err
	}
	if iso, err = yaz(xmlPath, "-i", "marcxml", "-o", "marc"); err != nil {
		return nil, nil, err
	}
	if err := os.WriteFile(isoPath, iso, 0o644); err != nil {
		return nil, nil, err
	}
	out, err := yaz(isoPath, "-i", "marc", "-o", "marcxml")
	if err != nil {
		return nil, nil, err
	}
	back, err = marc.ParseCollection(out)
	return iso, back, err
}

// Warning is one line of MARC::Lint's output: the record's 001 and the
// warning as MARC::Lint words it ("100: Field is not repeatable.").
type Warning struct {
	ID, Text string
}

// Lint runs MARC::Lint over ISO 2709 records, in dir, and returns every
// warning (the decoder's too, prefixed "decode: ").
func Lint(dir string, iso []byte) ([]Warning, error) {
	script, isoPath := filepath.Join(dir, "marclint.pl"), filepath.Join(dir, "lint.mrc")
	if err := os.WriteFile(script, lintScript, 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(isoPath, iso, 0o644); err != nil {
		return nil, err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("perl", script, isoPath)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("MARC::Lint: %v: %s", err, stderr.Bytes())
	}
	var ws []Warning
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		id, text, _ := strings.Cut(sc.Text(), "\t")
		ws = append(ws, Warning{ID: id, Text: text})
	}
	if stderr.Len() > 0 { // perl's own warnings: report them, they are findings too
		for _, l := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
			ws = append(ws, Warning{ID: "?", Text: "perl: " + l})
		}
	}
	return ws, sc.Err()
}

// FromMETS returns the MARC records of the dmdSecs of a METS document.
func FromMETS(path string) ([]*marc.Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Dmd []struct {
			ID   string `xml:"ID,attr"`
			Data struct {
				Inner []byte `xml:",innerxml"`
			} `xml:"mdWrap>xmlData"`
		} `xml:"dmdSec"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []*marc.Record
	for _, d := range doc.Dmd {
		r, err := marc.ParseMARCXML(bytes.TrimSpace(d.Data.Inner))
		if err != nil {
			return nil, fmt.Errorf("%s: dmdSec %s: %w", path, d.ID, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// ArchiveRecords returns the MARC records of every METS.xml under root,
// skipping the archive's .tmp and .state folders.
func ArchiveRecords(root string) ([]*marc.Record, error) {
	var out []*marc.Record
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".tmp" || d.Name() == ".state") {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() != "METS.xml" {
			return nil
		}
		recs, err := FromMETS(p)
		out = append(out, recs...)
		return err
	})
	return out, err
}

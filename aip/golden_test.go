package aip_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/internal/metstest"
)

var update = flag.Bool("update", false, "rewrite testdata/valid and testdata/broken")

// validRoot is the archive of known-good AIPs written by the Writer.
const validRoot = "testdata/valid"

// writeFixtures writes the fixture Blog and Entry into a new archive at root.
func writeFixtures(t testing.TB, root string) (entry, blog aip.Result) {
	t.Helper()
	w := &aip.Writer{Root: root, Organization: "Example Library", OrgCode: "XxEL", Software: "blogharvest 0.1.0", Now: fixedNow, ValidateEvery: 1}
	entry, err := w.WriteEntry(context.Background(), fixtureEntry())
	if err != nil {
		t.Fatal(err)
	}
	if blog, err = w.WriteBlog(context.Background(), fixtureBlog()); err != nil {
		t.Fatal(err)
	}
	w.Close()
	for _, n := range []string{aip.TmpDir, aip.LockFile} { // the writer's, not the archive's content
		if err := os.RemoveAll(filepath.Join(root, n)); err != nil {
			t.Fatal(err)
		}
	}
	return entry, blog
}

// TestValidGolden writes the fixtures and compares every file with
// testdata/valid (refreshed with -update), then checks the goldens.
func TestValidGolden(t *testing.T) {
	if *update {
		os.RemoveAll(validRoot)
		writeFixtures(t, validRoot)
	}
	got := t.TempDir()
	writeFixtures(t, got)
	want, have := readTree(t, validRoot), readTree(t, got)
	for name, data := range want {
		if !bytes.Equal(data, have[name]) {
			t.Errorf("%s differs from the golden (run with -update if intended)", name)
		}
	}
	for name := range have {
		if _, ok := want[name]; !ok {
			t.Errorf("%s written but not in the golden", name)
		}
	}
	for _, err := range aip.Check(validRoot) {
		t.Errorf("Check: %v", err)
	}
}

// TestValidGoldenExternalTools checks the golden bags with tools that share
// no code with ours: xmllint against the official schemas, and sha256sum -c
// and sha512sum -c over the manifests.
func TestValidGoldenExternalTools(t *testing.T) {
	bags := goldenBags(t)
	if _, err := exec.LookPath("xmllint"); err == nil {
		for _, b := range bags {
			out, err := exec.Command("xmllint", "--noout", "--nonet", "--schema", "../schemas/driver.xsd",
				filepath.Join(b, "data", "METS.xml")).CombinedOutput()
			if err != nil {
				t.Errorf("xmllint %s: %v\n%s", b, err, out)
			}
		}
	} else {
		t.Log("xmllint not installed: skipped")
	}
	for _, tool := range []string{"sha256sum", "sha512sum"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Logf("%s not installed: skipped", tool)
			continue
		}
		for _, b := range bags {
			for _, m := range []string{"manifest", "tagmanifest"} {
				cmd := exec.Command(tool, "--strict", "-c", m+"-"+tool[:6]+".txt")
				cmd.Dir = b
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("%s -c %s in %s: %v\n%s", tool, m, b, err, out)
				}
			}
		}
	}
}

// goldenBags returns the bag folders under testdata/valid.
func goldenBags(t *testing.T) []string {
	t.Helper()
	var bags []string
	filepath.WalkDir(validRoot, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "bagit.txt" {
			bags = append(bags, filepath.Dir(p))
		}
		return err
	})
	if len(bags) != 2 {
		t.Fatalf("testdata/valid holds %d bags, want 2 (run with -update)", len(bags))
	}
	return bags
}

// readTree returns every file under root by slash path.
func readTree(t testing.TB, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == aip.PublicationsDir {
			return fs.SkipDir // the publication log: times of this run (TestPublicationLog)
		}
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		data, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return out
}

// TestValidGoldenMetsrw reads every golden METS with Archivematica's METS
// library (../shared/tools/metsrw-read; skipped without ../shared or
// python3-lxml) and checks it lists every payload file of the bag.
func TestValidGoldenMetsrw(t *testing.T) {
	var docs []string
	for _, b := range goldenBags(t) {
		docs = append(docs, filepath.Join(b, "data", "METS.xml"))
	}
	metstest.MetsrwListsPayload(t, "../../shared/tools/metsrw-read", docs...)
}

// TestValidGoldenProvenance: in the golden METS no file the software made
// (logs, rendered DOM, screenshot, learned rules, the entry's feed item) is
// linked to a capture event; each has a creation event instead, and every
// captured file a capture event.
func TestValidGoldenProvenance(t *testing.T) {
	for _, b := range goldenBags(t) {
		entry := strings.Contains(b, "entries")
		metstest.CheckProvenance(t, filepath.Join(b, "data", "METS.xml"), func(href string) bool {
			return metstest.Generated(href, entry)
		})
	}
}

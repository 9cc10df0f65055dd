package aip

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shortcutStateReset starts the shortcut and the identification memo
// afresh, and leaves them so for the next test.
func shortcutStateReset(t *testing.T) {
	reset := func() {
		html5.mu.Lock()
		html5.seen, html5.confirmed, html5.name, html5.version, html5.off = 0, 0, "", "", false
		html5.mu.Unlock()
		known.mu.Lock()
		known.m = nil
		known.mu.Unlock()
	}
	reset()
	t.Cleanup(reset)
}

// capturedPage returns a captured page item (not generated) of type
// text/html.
func capturedPage(name string, body []byte) *item {
	it := memItem("objects/page/"+name, body, "original", "text/html; charset=UTF-8")
	it.generated = false
	return it
}

// TestHTML5ShortcutAgreesWithSiegfried compares, for every HTML page of
// the fixture blogs and of ../shared/corpus (when present) and for pages
// made to tempt the shortcut (other doctypes, other formats' signatures,
// leading bytes), the shortcut's answer with siegfried's: wherever the
// shortcut answers, siegfried says the same (PUID, name, version, basis),
// and it answers for every page siegfried calls fmt/471 by its first
// signature at offset 0. It fails if html5Offset accepts a doctype siegfried reads
// otherwise (e.g. "<!DOCTYPE Html>", fmt/96).
func TestHTML5ShortcutAgreesWithSiegfried(t *testing.T) {
	shortcutStateReset(t)
	tail := "<html><head><title>x</title></head><body>" + strings.Repeat("<p>words</p>\n", 200) + "</body></html>\n"
	var made []string
	for _, lead := range []string{"<!DOCTYPE html>", "<!doctype html>", "<!DOCTYPE HTML>", "<!doctype HTML>",
		"<!DOCTYPE Html>", "<!Doctype html>", "<!DOCTYPE html >", "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\">",
		"\n<!DOCTYPE html>", "\r\n<!DOCTYPE html>", "   <!DOCTYPE html>", "    <!DOCTYPE html>", "\ufeff<!DOCTYPE html>",
		"\ufeff\n<!DOCTYPE html>", "x<!DOCTYPE html>", "<?xml version=\"1.0\"?>\n<!DOCTYPE html>",
		"<!DOCTYPE html>\n<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"></svg>"} {
		for _, end := range []string{"", "%%EOF\n", "</html>", "\x00\x00IEND\xaeB`\x82"} {
			made = append(made, lead+tail+end)
		}
	}
	compare := func(name string, raw []byte) (short bool) {
		it := capturedPage("page.html", raw)
		off := it.html5Candidate()
		want, err := it.siegfried()
		if err != nil {
			t.Fatalf("%s: siegfried: %v", name, err)
		}
		if off < 0 {
			if want.puid == html5PUID && want.basis == html5Basis(0) {
				t.Errorf("%s: siegfried says %s (%s) but the shortcut does not take it", name, want.puid, want.basis)
			}
			return false
		}
		got := format{puid: html5PUID, name: "Hypertext Markup Language", version: "5", basis: html5Basis(off)}
		if got != want {
			t.Errorf("%s: shortcut %+v, siegfried %+v", name, got, want)
		}
		return true
	}
	shortcuts, pages := 0, 0
	for _, raw := range made {
		if compare(fmt.Sprintf("made page %.60q", raw), []byte(raw)) {
			shortcuts++
		}
		pages++
	}
	every := 1 // with the race detector, one page in 8 of the fixtures and corpus
	if raceBuild {
		every = 8
	}
	n := 0
	for _, dir := range []string{"../testdata/blogs", "../../shared/corpus"} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(p) != ".html" {
				return nil
			}
			if n++; n%every != 0 {
				return nil
			}
			raw, err := os.ReadFile(p)
			if err != nil || len(raw) == 0 {
				return err
			}
			if compare(p, raw) {
				shortcuts++
			}
			pages++
			return nil
		})
	}
	t.Logf("%d pages, %d taken by the shortcut, all as siegfried identifies them", pages, shortcuts)
	if shortcuts == 0 {
		t.Fatal("no page took the shortcut")
	}
}

// TestHTML5ShortcutSkipsTheScan shows the shortcut at work through
// identify: after html5Checked pages confirmed by siegfried, an HTML5 page
// is not scanned (a page whose bytes after the doctype hold a PDF gets the
// fmt/471 answer all the same, which siegfried also gives, but without a
// scan), the self-check's page (one in html5Every) is, and a .html file not
// declared text/html or a generated one never takes the shortcut.
func TestHTML5ShortcutSkipsTheScan(t *testing.T) {
	shortcutStateReset(t)
	page := func(i int) *item {
		return capturedPage("p.html", []byte("<!DOCTYPE html><html><body><p>post "+strings.Repeat("x", i)+"</p></body></html>"))
	}
	for i := range html5Checked {
		before := siegfriedScans.Load()
		if f, err := page(i).identify(); err != nil || f.puid != html5PUID {
			t.Fatalf("page %d: %+v, %v", i, f, err)
		}
		if siegfriedScans.Load() == before {
			t.Fatalf("page %d of the first %d: not scanned by siegfried", i, html5Checked)
		}
	}
	scanned := 0
	for i := html5Checked; i < html5Checked+html5Every; i++ {
		before := siegfriedScans.Load()
		f, err := page(i).identify()
		if err != nil || f.puid != html5PUID || f.name != "Hypertext Markup Language" || f.version != "5" || f.basis != html5Basis(0) {
			t.Fatalf("page %d: %+v, %v", i, f, err)
		}
		if siegfriedScans.Load() != before {
			scanned++
		}
	}
	if scanned != 1 {
		t.Errorf("%d of %d pages after the first ones scanned, want 1 (one in %d)", scanned, html5Every, html5Every)
	}
	other := memItem("objects/page/q.html", []byte("<!DOCTYPE html><p>generated</p>"), "original", "text/html")
	xml := capturedPage("r.html", []byte("<!DOCTYPE html><p>declared xml</p>"))
	xml.mime = "application/xml"
	for _, it := range []*item{other, xml} {
		if it.html5Candidate() >= 0 {
			t.Errorf("%s (generated %v, %s) is a shortcut candidate", it.rel, it.generated, it.mime)
		}
	}
}

// TestHTML5ShortcutTurnsOff shows the self-check: when siegfried disagrees
// with the shortcut's prediction (here, the prediction made wrong on
// purpose by a false offset), the shortcut is off for the rest of the
// process and later pages go through siegfried.
func TestHTML5ShortcutTurnsOff(t *testing.T) {
	shortcutStateReset(t)
	it := capturedPage("p.html", []byte("<!DOCTYPE html><p>a</p>"))
	if _, err := it.identifyHTML5(7); err != nil { // siegfried says offset 0
		t.Fatal(err)
	}
	html5.mu.Lock()
	off := html5.off
	html5.mu.Unlock()
	if !off {
		t.Fatal("siegfried disagreed and the shortcut is still on")
	}
	for i := range html5Checked + 3 {
		before := siegfriedScans.Load()
		if _, err := capturedPage("p.html", []byte("<!DOCTYPE html><p>"+strings.Repeat("b", i)+"</p>")).identify(); err != nil {
			t.Fatal(err)
		}
		if siegfriedScans.Load() == before {
			t.Fatalf("page %d after the disagreement: not scanned", i)
		}
	}
}

// TestIdentifyKnownContent shows that a file whose content and name were
// identified before in the process is not scanned again, and that the same
// bytes under another name (siegfried reads the extension) are.
func TestIdentifyKnownContent(t *testing.T) {
	shortcutStateReset(t)
	body := []byte(`{"rules": [1, 2, 3]}`)
	a := memItem("objects/log/file.json", body, "", "application/json")
	a.generated = false
	first, err := a.identify()
	if err != nil {
		t.Fatal(err)
	}
	before := siegfriedScans.Load()
	b := memItem("objects/log/file.json", body, "", "application/json")
	b.generated = false
	if second, err := b.identify(); err != nil || second != first || siegfriedScans.Load() != before {
		t.Errorf("same content and name: %+v, %v, scans %d → %d; want %+v without a scan", second, err, before, siegfriedScans.Load(), first)
	}
	c := memItem("objects/log/file.txt", body, "", "text/plain")
	c.generated = false
	if _, err := c.identify(); err != nil || siegfriedScans.Load() == before {
		t.Errorf("same content, another name: not scanned (%v)", err)
	}
}

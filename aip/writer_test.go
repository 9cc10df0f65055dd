package aip_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
)

// newWriter returns a Writer on a fresh archive with the fixed clock.
func newWriter(t testing.TB) *aip.Writer {
	return &aip.Writer{Root: t.TempDir(), Organization: "Example Library", Software: "blogharvest 0.1.0", Now: fixedNow,
		ValidateEvery: 1}
}

func TestVersions(t *testing.T) {
	w := newWriter(t)
	ctx := context.Background()
	e := fixtureEntry()
	r1, err := w.WriteEntry(ctx, e)
	if err != nil || !r1.Written || r1.Version != 1 || r1.Bytes == 0 {
		t.Fatalf("first write: %+v, %v", r1, err)
	}
	v1 := readTree(t, r1.Dir)

	// A re-capture: new capture times, new clock, same content.
	later := fixtureEntry()
	later.Captured = later.Captured.Add(24 * time.Hour)
	for i := range later.Files {
		later.Files[i].Captured = later.Files[i].Captured.Add(24 * time.Hour)
	}
	later.Problems = nil
	w.Now = func() time.Time { return clock.Add(24 * time.Hour) }
	r2, err := w.WriteEntry(ctx, later)
	if err != nil || r2.Written || r2.Version != 1 || r2.Dir != r1.Dir {
		t.Fatalf("unchanged re-capture: %+v, %v; want nothing written", r2, err)
	}

	// A new comment: a new version, the old one untouched.
	later.Comments = append(later.Comments, blogharvest.Comment{ID: "comment-4", Author: "Oskar Falk",
		Content: "Same here.", ContentFormat: "text/plain", ParentID: "comment-3"})
	r3, err := w.WriteEntry(ctx, later)
	if err != nil || !r3.Written || r3.Version != 2 || filepath.Dir(r3.Dir) != filepath.Dir(r1.Dir) {
		t.Fatalf("new comment: %+v, %v; want v2", r3, err)
	}
	if n, err := aip.LatestVersion(filepath.Dir(r1.Dir)); n != 2 || err != nil {
		t.Errorf("LatestVersion = %d, %v", n, err)
	}
	after := readTree(t, r1.Dir)
	for name, data := range v1 {
		if string(after[name]) != string(data) {
			t.Errorf("v1 changed: %s", name)
		}
	}
	for _, err := range aip.Check(w.Root) {
		t.Error(err)
	}
}

func TestEditedMediaMakesVersion(t *testing.T) {
	w := newWriter(t)
	e := fixtureEntry()
	if _, err := w.WriteEntry(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	e.Files[1] = file(e.Files[1].URL, blogharvest.RoleMedia, "image/png", "\x89PNG\r\n\x1a\nnew", 200)
	r, err := w.WriteEntry(context.Background(), e)
	if err != nil || r.Version != 2 {
		t.Fatalf("replaced image: %+v, %v; want v2", r, err)
	}
}

// TestShuffledGalleryNoVersion: a gallery the blog shows in random order
// (WordPress orderby="rand") is no edit: the same pictures in another
// order, captured in that order, make no new version; a picture more does.
func TestShuffledGalleryNoVersion(t *testing.T) {
	w := newWriter(t)
	ctx := context.Background()
	pics := []string{"bridge", "beach", "boardwalk"}
	entry := func(order ...int) *blogharvest.Entry {
		e := fixtureEntry()
		var b strings.Builder
		b.WriteString(`<p>Holiday pictures.</p><div class="gallery">`)
		for _, k := range order {
			u := "https://garden.example.org/" + pics[k] + ".png"
			b.WriteString(`<figure class="gallery-item"><img src="` + u + `" alt="` + pics[k] + `"><figcaption>` + pics[k] + `</figcaption></figure>`)
			e.Files = append(e.Files, file(u, blogharvest.RoleMedia, "image/png", "\x89PNG "+pics[k], 200))
		}
		e.Content = b.String() + `</div>`
		return e
	}
	if r, err := w.WriteEntry(ctx, entry(0, 1, 2)); err != nil || r.Version != 1 {
		t.Fatalf("first write: %+v, %v", r, err)
	}
	if r, err := w.WriteEntry(ctx, entry(2, 0, 1)); err != nil || r.Written {
		t.Fatalf("shuffled gallery: %+v, %v; want nothing written", r, err)
	}
	if r, err := w.WriteEntry(ctx, entry(2, 0)); err != nil || r.Version != 2 {
		t.Fatalf("a picture removed: %+v, %v; want v2", r, err)
	}
}

func TestLatestVersion(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"v1", "v2", "v10", "v010", "v0", "vx", "x3"} {
		os.Mkdir(filepath.Join(dir, n), 0o755)
	}
	os.WriteFile(filepath.Join(dir, "v99"), nil, 0o644) // a file, not a version
	if n, err := aip.LatestVersion(dir); n != 10 || err != nil {
		t.Errorf("LatestVersion = %d, %v; want 10", n, err)
	}
	if n, err := aip.LatestVersion(filepath.Join(dir, "none")); n != 0 || err != nil {
		t.Errorf("LatestVersion(missing) = %d, %v; want 0, nil", n, err)
	}
}

// TestHostileNames writes records whose URLs, titles and file names try to
// escape the archive or smuggle odd bytes into names.
func TestHostileNames(t *testing.T) {
	w := newWriter(t)
	e := fixtureEntry()
	e.URL = "https://evil.example/../../../etc/passwd/%2e%2e%2f%2e%2e%2fboot/"
	e.Title = "../../" + strings.Repeat("Ünïcødé ☃ ", 40)
	hostile := []string{
		"https://evil.example/../../etc/passwd", "https://evil.example/%2e%2e%2f%2e%2e%2fshadow",
		"https://evil.example/..", "https://evil.example/.htaccess", "https://evil.example/a%00b.png",
		"https://evil.example/" + strings.Repeat("x", 500) + ".png", "https://evil.example/CON.txt",
		"https://evil.example/dir/", "https://evil.example/%E2%80%AEgnp.exe", "https://evil.example/a%2Fb%5Cc.jpg",
		"https://evil.example/same.png", "https://evil.example/same.png?v=2", "not a url at all",
	}
	for _, u := range hostile {
		e.Files = append(e.Files, file(u, blogharvest.RoleMedia, "image/png", u, 200))
	}
	r, err := w.WriteEntry(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(w.Root, r.Dir)
	if !regexp.MustCompile(`^garden/entries/2024/[a-z0-9-]{1,60}-[0-9a-f]{8}/v1$`).MatchString(filepath.ToSlash(rel)) {
		t.Errorf("bag at %s", rel)
	}
	safe := regexp.MustCompile(`^[a-z0-9_][a-z0-9._-]{0,79}$`)
	files := readTree(t, w.Root)
	for name := range files {
		if name == aip.LockFile {
			continue // the archive's lock, at its root
		}
		if !strings.HasPrefix(name, filepath.ToSlash(rel)+"/") && !strings.HasPrefix(name, ".tmp/") {
			t.Errorf("file outside the bag: %s", name)
		}
		if base := filepath.Base(name); base != "METS.xml" && !safe.MatchString(base) {
			t.Errorf("unsafe name %q", base)
		}
	}
	media, _ := filepath.Glob(filepath.Join(r.Dir, "data/objects/media/*"))
	if len(media) != 2+len(hostile) {
		t.Errorf("%d media files, want %d (one per capture, none overwritten)", len(media), 2+len(hostile))
	}
	for _, err := range aip.Check(w.Root) {
		t.Error(err)
	}
}

func TestRejectsInvalidRecords(t *testing.T) {
	w := newWriter(t)
	for name, breakIt := range map[string]func(e *blogharvest.Entry){
		"blog id traversal": func(e *blogharvest.Entry) { e.BlogID = "../x" },
		"control character": func(e *blogharvest.Entry) { e.Title = "a\x00b" },
		"wrong sha256":      func(e *blogharvest.Entry) { e.Files[0].SHA256 = strings.Repeat("0", 64) },
		"comment cycle": func(e *blogharvest.Entry) {
			e.Comments[0].ParentID = "comment-2"
		},
	} {
		e := fixtureEntry()
		breakIt(e)
		_, err := w.WriteEntry(context.Background(), e)
		if err == nil || blogharvest.IsTransient(err) {
			t.Errorf("%s: err = %v, want a permanent error", name, err)
		}
	}
	if files := readTree(t, w.Root); len(files) != 0 {
		t.Errorf("rejected records left files: %v", len(files))
	}
	if _, err := w.WriteBlog(context.Background(), &blogharvest.Blog{ID: "Bad/ID", URL: "https://x.example/"}); err == nil {
		t.Error("blog with a bad id written")
	}
}

func TestFilesOnDisk(t *testing.T) {
	w := newWriter(t)
	e := fixtureEntry()
	big := filepath.Join(t.TempDir(), "video.mp4")
	body := strings.Repeat("frame ", 100000)
	os.WriteFile(big, []byte(body), 0o644)
	f := file("https://garden.example.org/video.mp4", blogharvest.RoleMedia, "video/mp4", body, 200)
	f.Body, f.Path = nil, big
	e.Files = append(e.Files, f)
	r, err := w.WriteEntry(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(r.Dir, "data/objects/media/video.mp4"))
	if string(got) != body {
		t.Error("file from Path not copied intact")
	}
	for _, err := range aip.Check(r.Dir) {
		t.Error(err)
	}
}

func TestConcurrentWriters(t *testing.T) {
	w := newWriter(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := fixtureEntry()
			e.URL = e.URL + "part-" + string(rune('a'+i)) + "/"
			if _, err := w.WriteEntry(context.Background(), e); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for _, err := range aip.Check(w.Root) {
		t.Error(err)
	}
}

func TestSweep(t *testing.T) {
	root := t.TempDir()
	lock, err := aip.LockArchive(root)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := aip.Sweep(lock); err != nil {
		t.Fatalf("Sweep of an archive without .tmp: %v", err)
	}
	left := filepath.Join(root, aip.TmpDir, "garden-x-v1-123", "data")
	os.MkdirAll(left, 0o755)
	os.WriteFile(filepath.Join(left, "METS.xml"), []byte("<half"), 0o644)
	if err := aip.Sweep(lock); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(filepath.Join(root, aip.TmpDir)); len(ents) != 0 {
		t.Errorf(".tmp still holds %d entries", len(ents))
	}
}

func TestCanceled(t *testing.T) {
	w := newWriter(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := w.WriteEntry(ctx, fixtureEntry()); err == nil {
		t.Fatal("write with a canceled context succeeded")
	}
	if v, _ := aip.LatestVersion(filepath.Join(w.Root, "garden/entries/2024")); v != 0 {
		t.Error("a version was written")
	}
	if ents, _ := os.ReadDir(filepath.Join(w.Root, aip.TmpDir)); len(ents) != 0 {
		t.Errorf(".tmp holds %d leftovers", len(ents))
	}
}

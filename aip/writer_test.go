package aip_test

import (
	"context"
	"os"
	"path"
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

// TestVersions writes a blog and an entry, then an unchanged re-capture
// (nothing written), then the entry with a new comment (v2, v1 untouched),
// reads them back through the Store, and checks the archive: clean, with
// the right counts.
func TestVersions(t *testing.T) {
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		w, ctx := a.W, context.Background()
		rb, err := w.WriteBlog(ctx, fixtureBlog())
		if err != nil || !rb.Written || rb.Version != 1 {
			t.Fatalf("blog: %+v, %v", rb, err)
		}
		e := fixtureEntry()
		r1, err := w.WriteEntry(ctx, e)
		if err != nil || !r1.Written || r1.Version != 1 || r1.Bytes == 0 {
			t.Fatalf("first write: %+v, %v", r1, err)
		}
		v1 := a.name(r1.Dir)
		before := a.files(t)
		if !strings.Contains(string(before[v1+"/data/METS.xml"]), "<mets:mets") {
			t.Fatalf("METS of %s not read back", v1)
		}

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
		if err != nil || !r3.Written || r3.Version != 2 || path.Dir(a.name(r3.Dir)) != path.Dir(v1) {
			t.Fatalf("new comment: %+v, %v; want v2", r3, err)
		}
		if n := a.latest(t, path.Dir(v1)); n != 2 {
			t.Errorf("latest version = %d, want 2", n)
		}
		after := a.files(t)
		for name, data := range before {
			if string(after[name]) != string(data) {
				t.Errorf("changed: %s", name)
			}
		}
		for _, err := range a.check() {
			t.Error(err)
		}
		tally, errs := aip.CheckStore(ctx, a.St, nil)
		if len(errs) > 0 || tally.BlogVersions != 1 || tally.EntryVersions != 2 ||
			tally.Files != rb.PayloadFiles+r1.PayloadFiles+r3.PayloadFiles {
			t.Errorf("CheckStore: tally %+v, %v; want 1 blog version, 2 entry versions, %d files", tally, errs,
				rb.PayloadFiles+r1.PayloadFiles+r3.PayloadFiles)
		}
	})
}

func TestEditedMediaMakesVersion(t *testing.T) {
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		e := fixtureEntry()
		if _, err := a.W.WriteEntry(context.Background(), e); err != nil {
			t.Fatal(err)
		}
		e.Files[1] = file(e.Files[1].URL, blogharvest.RoleMedia, "image/png", "\x89PNG\r\n\x1a\nnew", 200)
		r, err := a.W.WriteEntry(context.Background(), e)
		if err != nil || r.Version != 2 {
			t.Fatalf("replaced image: %+v, %v; want v2", r, err)
		}
	})
}

// TestShuffledGalleryNoVersion: a gallery the blog shows in random order
// (WordPress orderby="rand") is no edit: the same pictures in another
// order, captured in that order, make no new version; a picture more does.
func TestShuffledGalleryNoVersion(t *testing.T) {
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		w, ctx := a.W, context.Background()
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
	})
}

// TestLatestVersion is local only: LatestVersion reads a folder (the
// Store's LatestVersionOf is in TestVersions).
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
	forEachBackend(t, func(t *testing.T, a *testArchive) {
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
		r, err := a.W.WriteEntry(context.Background(), e)
		if err != nil {
			t.Fatal(err)
		}
		rel := a.name(r.Dir)
		if !regexp.MustCompile(`^garden/entries/2024/[a-z0-9-]{1,60}-[0-9a-f]{8}/v1$`).MatchString(rel) {
			t.Errorf("bag at %s", rel)
		}
		safe := regexp.MustCompile(`^[a-z0-9_][a-z0-9._-]{0,79}$`)
		for name := range a.files(t) {
			if !strings.HasPrefix(name, rel+"/") {
				t.Errorf("file outside the bag: %s", name)
			}
			if base := path.Base(name); base != "METS.xml" && !safe.MatchString(base) {
				t.Errorf("unsafe name %q", base)
			}
		}
		if n := a.leftovers(t); len(n) != 0 {
			t.Errorf("leftovers of unpublished bags: %v", n)
		}
		if media := a.glob(r.Dir, "data/objects/media/*"); len(media) != 2+len(hostile) {
			t.Errorf("%d media files, want %d (one per capture, none overwritten)", len(media), 2+len(hostile))
		}
		for _, err := range a.check() {
			t.Error(err)
		}
	})
}

func TestRejectsInvalidRecords(t *testing.T) {
	forEachBackend(t, func(t *testing.T, a *testArchive) {
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
			_, err := a.W.WriteEntry(context.Background(), e)
			if err == nil || blogharvest.IsTransient(err) {
				t.Errorf("%s: err = %v, want a permanent error", name, err)
			}
		}
		if files, left := a.files(t), a.leftovers(t); len(files) != 0 || len(left) != 0 {
			t.Errorf("rejected records left files: %d published, unpublished %v", len(files), left)
		}
		if a.backend == "local" {
			if files := readTree(t, a.root); len(files) != 0 {
				t.Errorf("rejected records left files in the folder: %d", len(files))
			}
		}
		if _, err := a.W.WriteBlog(context.Background(), &blogharvest.Blog{ID: "Bad/ID", URL: "https://x.example/"}); err == nil {
			t.Error("blog with a bad id written")
		}
	})
}

func TestFilesOnDisk(t *testing.T) {
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		e := fixtureEntry()
		big := filepath.Join(t.TempDir(), "video.mp4")
		body := strings.Repeat("frame ", 100000)
		os.WriteFile(big, []byte(body), 0o644)
		f := file("https://garden.example.org/video.mp4", blogharvest.RoleMedia, "video/mp4", body, 200)
		f.Body, f.Path = nil, big
		e.Files = append(e.Files, f)
		r, err := a.W.WriteEntry(context.Background(), e)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := a.read(r.Dir, "data/objects/media/video.mp4"); string(got) != body {
			t.Errorf("file from Path not copied intact: %d bytes, %v", len(got), err)
		}
		for _, err := range a.checkBag(r.Dir) {
			t.Error(err)
		}
	})
}

func TestConcurrentWriters(t *testing.T) {
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				e := fixtureEntry()
				e.URL = e.URL + "part-" + string(rune('a'+i)) + "/"
				if _, err := a.W.WriteEntry(context.Background(), e); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		tally, errs := aip.CheckStore(context.Background(), a.St, nil)
		if tally.EntryVersions != 8 {
			t.Errorf("%d entry versions, want 8", tally.EntryVersions)
		}
		for _, err := range append(errs, a.check()...) {
			t.Error(err)
		}
	})
}

// TestSweep is local only: it sweeps the folder's .tmp (the S3 sweep is
// in TestCrash/s3).
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
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := a.W.WriteEntry(ctx, fixtureEntry()); err == nil {
			t.Fatal("write with a canceled context succeeded")
		}
		if files := a.files(t); len(files) != 0 {
			t.Errorf("%d files published", len(files))
		}
		if n := a.leftovers(t); len(n) != 0 {
			t.Errorf("leftovers: %v", n)
		}
	})
}

// TestSoftwareAgentBuild checks that the software's PREMIS agent carries
// the version of Software and, as its note, SoftwareBuild (the revision the
// binary was built from), and has no note without it (the goldens).
func TestSoftwareAgentBuild(t *testing.T) {
	for _, build := range []string{"", "vcs.revision=0123456789abcdef0123456789abcdef01234567 vcs.time=2026-01-02T03:04:05Z vcs.modified=true"} {
		w := newWriter(t)
		w.Software = "blogharvest v0.0.0-20260102030405-0123456789ab+dirty"
		w.SoftwareBuild = build
		r, err := w.WriteBlog(context.Background(), fixtureBlog())
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(r.Dir, "data", "METS.xml"))
		if err != nil {
			t.Fatal(err)
		}
		mets := string(b)
		agent := regexp.MustCompile(`(?s)<premis:agent[ >].*?</premis:agent>`)
		var software string
		for _, a := range agent.FindAllString(mets, -1) {
			if strings.Contains(a, "<premis:agentName>blogharvest</premis:agentName>") {
				software = a
			}
		}
		if !strings.Contains(software, "<premis:agentVersion>v0.0.0-20260102030405-0123456789ab+dirty</premis:agentVersion>") {
			t.Errorf("software agent without the version:\n%s", software)
		}
		if build == "" && strings.Contains(software, "agentNote") {
			t.Errorf("a note without SoftwareBuild:\n%s", software)
		}
		if build != "" && !strings.Contains(software, "<premis:agentNote>"+build+"</premis:agentNote>") {
			t.Errorf("software agent without the build %q:\n%s", build, software)
		}
	}
}

package aip_test

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

	"github.com/blogharvest/blogharvest/aip"
)

// bagsOf returns the names of the published bags of s (folders holding
// bagit.txt), outside the dot folders.
func bagsOf(t *testing.T, s aip.Store) []string {
	t.Helper()
	var bags []string
	err := fs.WalkDir(s, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if p != "." && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		if _, err := fs.Stat(s, p+"/bagit.txt"); err == nil {
			bags = append(bags, p)
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return bags
}

// TestPublicationLog: every bag a Writer publishes (Blog, Entry, a new
// version; an unchanged capture publishes nothing) has one line in the
// publication log, after it is visible, with its path, version,
// identifier (the METS OBJID) and Payload-Oxum as its bag says; -since
// and -blog filter; a line removed behind the log's back is found by
// Unannounced and written again by Announce. Over both stores.
func TestPublicationLog(t *testing.T) {
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		w, ctx := a.W, a.ctx
		if _, err := w.WriteBlog(ctx, fixtureBlog()); err != nil {
			t.Fatal(err)
		}
		e := fixtureEntry()
		if _, err := w.WriteEntry(ctx, e); err != nil {
			t.Fatal(err)
		}
		mid := time.Now()
		if res, err := w.WriteEntry(ctx, fixtureEntry()); err != nil || res.Written {
			t.Fatalf("unchanged capture: %+v, %v", res, err)
		}
		e.Comments = e.Comments[:1]
		if res, err := w.WriteEntry(ctx, e); err != nil || res.Version != 2 {
			t.Fatalf("new version: %+v, %v", res, err)
		}
		recs, err := aip.Publications(ctx, a.St, aip.PublicationFilter{})
		if err != nil {
			t.Fatal(err)
		}
		bags := bagsOf(t, a.St)
		if len(recs) != len(bags) || len(bags) < 3 {
			t.Fatalf("%d lines for %d bags %v", len(recs), len(bags), bags)
		}
		seen := map[string]bool{}
		for i, r := range recs {
			if seen[r.Path] {
				t.Errorf("%s announced twice", r.Path)
			}
			seen[r.Path] = true
			if i > 0 && r.Time.Before(recs[i-1].Time) {
				t.Errorf("line %d is older than the one before it", i)
			}
			info, err := fs.ReadFile(a.St, r.Path+"/bag-info.txt")
			if err != nil {
				t.Fatalf("%s: announced but not readable: %v", r.Path, err)
			}
			if !bytes.Contains(info, []byte("Payload-Oxum: "+r.PayloadOxum+"\n")) || !bytes.Contains(info, []byte("Bag-Group-Identifier: "+r.Blog+"\n")) {
				t.Errorf("%s: line %s does not match its bag-info.txt:\n%s", r.Path, r.Raw, info)
			}
			mets, err := fs.ReadFile(a.St, r.Path+"/data/METS.xml")
			if err != nil || !bytes.Contains(mets, []byte(`OBJID="`+r.Identifier+`"`)) {
				t.Errorf("%s: identifier %s is not the METS OBJID (%v)", r.Path, r.Identifier, err)
			}
			if v := "v" + strconv.Itoa(r.Version); path.Base(r.Path) != v || r.Location == "" {
				t.Errorf("%s: version %d, location %q", r.Path, r.Version, r.Location)
			}
		}
		for _, b := range bags {
			if !seen[b] {
				t.Errorf("bag %s not announced", b)
			}
		}
		later, err := aip.Publications(ctx, a.St, aip.PublicationFilter{Since: mid})
		if err != nil || len(later) == 0 || len(later) >= len(recs) {
			t.Fatalf("since %v: %d of %d lines, %v", mid, len(later), len(recs), err)
		}
		for _, r := range later {
			if r.Time.Before(mid) {
				t.Errorf("since %v listed %s of %v", mid, r.Path, r.Time)
			}
		}
		if other, err := aip.Publications(ctx, a.St, aip.PublicationFilter{Blog: "no-such-blog"}); err != nil || len(other) != 0 {
			t.Errorf("another blog: %d lines, %v", len(other), err)
		}
		if miss, err := aip.Unannounced(ctx, a.St); err != nil || len(miss) != 0 {
			t.Fatalf("unannounced: %v, %v", miss, err)
		}
		// a crash between publication and announcement, played by removing a line
		gone := recs[1]
		if a.backend == "local" {
			if err := os.Remove(filepath.Join(a.root, filepath.FromSlash(gone.Name))); err != nil {
				t.Fatal(err)
			}
		} else if err := a.client.RemoveObject(ctx, a.srv.Bucket, a.prefix+"/"+gone.Name, minio.RemoveObjectOptions{}); err != nil {
			t.Fatal(err)
		}
		miss, err := aip.Unannounced(ctx, a.St)
		if err != nil || len(miss) != 1 || miss[0] != gone.Path {
			t.Fatalf("unannounced after removing %s's line: %v, %v", gone.Path, miss, err)
		}
		pub, err := aip.Announce(ctx, a.St, gone.Path)
		if err != nil || pub.Identifier != gone.Identifier || pub.PayloadOxum != gone.PayloadOxum || pub.Kind != gone.Kind || pub.Entry != gone.Entry {
			t.Fatalf("announced again: %+v, %v; was %+v", pub, err, gone.Publication)
		}
		if miss, err := aip.Unannounced(ctx, a.St); err != nil || len(miss) != 0 {
			t.Fatalf("unannounced after Announce: %v, %v", miss, err)
		}
	})
}

// umask returns the process's umask, read from /proc (setting it to read
// it would race with the parallel tests).
func umask(t *testing.T) fs.FileMode {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status: the umask cannot be read without changing it")
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "Umask:"); ok {
			var m uint32
			for _, c := range strings.TrimSpace(v) {
				m = m*8 + uint32(c-'0')
			}
			return fs.FileMode(m)
		}
	}
	t.Skip("no Umask line in /proc/self/status")
	return 0
}

// TestBagModes: every folder and file a Writer makes in an archive
// folder (the bags, their own folders, the folders above them, the
// publication log) has 0755 and 0644 under the process's umask, not the
// 0700 of a temp folder; with Modes set, exactly those modes, whatever
// the umask. Local only: an S3 object has no mode.
func TestBagModes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		modes aip.Modes
	}{{"default", aip.Modes{}}, {"set", aip.Modes{File: 0o640, Dir: 0o750 | fs.ModeSetgid}}} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWriter(t)
			defer w.Close()
			w.Modes = tc.modes
			ctx := t.Context()
			if _, err := w.WriteBlog(ctx, fixtureBlog()); err != nil {
				t.Fatal(err)
			}
			if _, err := w.WriteEntry(ctx, fixtureEntry()); err != nil {
				t.Fatal(err)
			}
			wantDir, wantFile := fs.ModeDir|0o755&^umask(t), 0o644&^umask(t)
			if tc.modes.Dir != 0 {
				wantDir, wantFile = fs.ModeDir|tc.modes.Dir, tc.modes.File
			}
			n := 0
			err := filepath.WalkDir(w.Root, func(p string, d fs.DirEntry, err error) error {
				if err != nil || p == w.Root {
					return err
				}
				if d.Name() == aip.LockFile {
					return nil
				}
				if d.Name() == aip.TmpDir {
					return fs.SkipDir
				}
				info, err := d.Info()
				if err != nil {
					return err
				}
				want := wantFile
				if d.IsDir() {
					want = wantDir
				}
				if info.Mode() != want {
					t.Errorf("%s: %v, want %v", strings.TrimPrefix(p, w.Root), info.Mode(), want)
				}
				n++
				return nil
			})
			if err != nil || n < 30 {
				t.Fatalf("%d paths checked, %v", n, err)
			}
		})
	}
}

// TestParseMode: the config's file_mode and dir_mode.
func TestParseMode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		dir  bool
		want fs.FileMode
		bad  string
	}{
		{in: "0640", want: 0o640}, {in: "640", want: 0o640}, {in: "0o600", want: 0o600},
		{in: "02750", dir: true, want: 0o750 | fs.ModeSetgid}, {in: "0755", dir: true, want: 0o755},
		{in: "0444", bad: "read and write"}, {in: "0640", dir: true, bad: "enter"}, {in: "rw-r-----", bad: "octal"},
		{in: "0o", bad: "octal"}, {in: "0999", bad: "octal"}, {in: "17777", bad: "more than"},
	} {
		got, err := aip.ParseMode(tc.in, tc.dir)
		switch {
		case tc.bad != "" && (err == nil || !strings.Contains(err.Error(), tc.bad)):
			t.Errorf("ParseMode(%q, %v): %v, %v; want an error saying %q", tc.in, tc.dir, got, err, tc.bad)
		case tc.bad == "" && (err != nil || got != tc.want):
			t.Errorf("ParseMode(%q, %v): %v, %v; want %v", tc.in, tc.dir, got, err, tc.want)
		}
	}
}

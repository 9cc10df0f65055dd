package daemon_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/report"
)

// copyArchive publishes every bag of the archive src into dst, each as a
// Writer publishes one (Stage, Put of every file, Publish), and returns
// how many.
func copyArchive(t *testing.T, src, dst aip.Store) int {
	t.Helper()
	ctx := context.Background()
	n := 0
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if _, err := fs.Stat(src, p+"/bagit.txt"); err != nil {
			return nil
		}
		sb, err := dst.Stage(ctx, p)
		if err != nil {
			return err
		}
		err = fs.WalkDir(src, p, func(q string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(src, q)
			if err != nil {
				return err
			}
			_, err = sb.Put(ctx, strings.TrimPrefix(q, p+"/"), bytes.NewReader(data), int64(len(data)))
			return err
		})
		if err == nil {
			err = sb.Publish(ctx)
		}
		if err != nil {
			sb.Abort(ctx)
			return err
		}
		n++
		return fs.SkipDir
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestExportAndReportFromS3: export (every corpus format, -all-versions,
// one blog's URL, and WACZ) and report read an S3 archive through its
// store exactly as they read the same bags in a folder: the demo blog is
// harvested into a folder, its bags published unchanged into an S3
// archive, and every output of the S3 archive equals the folder's
// (WACZ: every member but datapackage.json's creation time; the report:
// but its generation time; each reads the same bags, so this shows the
// store gives the readers what the folder gives), and the S3 corpus holds
// every post, page and comment of the blog.
func TestExportAndReportFromS3(t *testing.T) {
	s3url, st := daemontest.NewS3Archive(t) // first: it skips without an S3 server
	local, truth := daemontest.CrawlDemo(t)
	if n := copyArchive(t, &aip.Local{Root: local}, st); n == 0 {
		t.Fatal("no bag copied")
	}
	target, err := report.ResolveIn(&aip.Local{Root: local}, ".")
	if err != nil || len(target.Blogs) != 1 {
		t.Fatalf("the harvested archive: %v, %v", target.Blogs, err)
	}
	blog := target.Blogs[0]
	tmp := t.TempDir()
	export := func(archive string, args ...string) []byte {
		t.Helper()
		out := filepath.Join(tmp, "out")
		code, _, stderr := daemontest.Run(t, append([]string{"export", archive, "-out", out}, args...)...)
		if code != 0 {
			t.Fatalf("export %s %v: exit %d\n%s", archive, args, code, stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	for _, format := range report.Formats {
		want, got := export(local, "-format", format), export(s3url, "-format", format)
		if !bytes.Equal(want, got) {
			t.Errorf("export -format %s: the S3 archive gives %d bytes, the folder %d, not the same", format, len(got), len(want))
		}
		if format == "jsonl" {
			posts, err := readJSONL(bytes.NewReader(got))
			if err != nil {
				t.Fatal(err)
			}
			checkAgainstTruth(t, local, posts, truth)
		}
	}
	if want, got := export(local, "-all-versions"), export(s3url, "-all-versions"); !bytes.Equal(want, got) {
		t.Errorf("export -all-versions: the S3 archive's differs from the folder's")
	}
	if want, got := export(filepath.Join(local, blog)), export(s3url+"/"+blog); !bytes.Equal(want, got) || len(got) == 0 {
		t.Errorf("export of one blog: the S3 archive's (%d bytes) differs from the folder's (%d)", len(got), len(want))
	}
	want, got := waczMembers(t, export(local, "-format", "wacz")), waczMembers(t, export(s3url, "-format", "wacz"))
	if len(want) < 3 || len(want) != len(got) {
		t.Errorf("WACZ: %d members from the S3 archive, %d from the folder", len(got), len(want))
	}
	for name, data := range want {
		if name != "datapackage.json" && name != "datapackage-digest.json" && !bytes.Equal(data, got[name]) {
			t.Errorf("WACZ member %s differs between the S3 archive and the folder", name)
		}
	}

	reportOf := func(archive string) string {
		t.Helper()
		out := filepath.Join(tmp, "report.html")
		if code, _, stderr := daemontest.Run(t, "report", archive, "-out", out); code != 0 {
			t.Fatalf("report %s: exit %d\n%s", archive, code, stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return generated.ReplaceAllString(string(data), "")
	}
	if want, got := reportOf(filepath.Join(local, blog)), reportOf(s3url+"/"+blog); want != got || !strings.Contains(got, blog) {
		t.Errorf("report: the S3 archive's (%d bytes) differs from the folder's (%d bytes) or does not name the blog", len(got), len(want))
	}
}

// generated matches the times a report states it was made.
var generated = regexp.MustCompile(`\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d)?(Z| UTC)?`)

// waczMembers returns the members of a WACZ by name.
func waczMembers(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name], err = io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

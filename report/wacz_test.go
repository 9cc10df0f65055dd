package report_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/report"
)

// TestWACZOfAnEntryThatReusesACapture writes an entry, then a new version
// of it (a new comment) that reuses its picture from the first
// (aip.ArchivedMedia): the second version's WARC holds no record of the
// picture (issue 40), so a WACZ of that version alone, and of the whole
// blog, holds the first version's WARC too, indexed, with the picture's
// response record — and lists the entry's page once, at the second
// version's capture.
func TestWACZOfAnEntryThatReusesACapture(t *testing.T) {
	root := t.TempDir()
	first := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	w := &aip.Writer{Root: root, Organization: "Example Library", Software: "blogharvest test",
		Now: func() time.Time { return first.Add(48 * time.Hour) }}
	defer w.Close()
	entry := func(at time.Time, comments int) *blogharvest.Entry {
		page := blogharvest.File{URL: "https://blog.example.org/2024/05/pics/", Role: blogharvest.RolePage,
			MediaType: "text/html", Body: []byte("<h1>Pictures</h1><img src=/a.png>"), Status: 200, Captured: at,
			Header: map[string][]string{"Content-Type": {"text/html"}}}
		pic := blogharvest.File{URL: "https://blog.example.org/a.png", Role: blogharvest.RoleMedia, MediaType: "image/png",
			Body: []byte("\x89PNG\r\n\x1a\nnot really a picture"), Status: 200, Captured: at,
			Header: map[string][]string{"Content-Type": {"image/png"}}}
		page.Sum()
		pic.Sum()
		e := &blogharvest.Entry{BlogID: "example", Kind: blogharvest.KindPost, URL: page.URL, Title: "Pictures",
			Content: `<p><img src="/a.png"></p>`, ContentFormat: "text/html", Created: time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC),
			Files: []blogharvest.File{page, pic}}
		for i := 0; i < comments; i++ {
			e.Comments = append(e.Comments, blogharvest.Comment{ID: "c1", Author: "Ana", Content: "Nice"})
		}
		return e
	}
	e1 := entry(first, 0)
	if _, err := w.WriteEntry(context.Background(), e1); err != nil {
		t.Fatal(err)
	}
	archived, err := aip.ArchivedMedia(&aip.Local{Root: root}, e1)
	if err != nil || len(archived) != 1 {
		t.Fatalf("ArchivedMedia: %d files, %v", len(archived), err)
	}
	e2 := entry(first.Add(24*time.Hour), 1)
	e2.Files[1] = archived[0]
	res, err := w.WriteEntry(context.Background(), e2)
	if err != nil || res.Version != 2 {
		t.Fatalf("second write: version %d, %v", res.Version, err)
	}
	rel, _ := filepath.Rel(root, res.Dir)
	v1 := strings.ReplaceAll(filepath.ToSlash(filepath.Join(filepath.Dir(rel), "v1")), "/", "-") + ".warc.gz"
	for _, o := range []report.WACZOptions{{Entry: filepath.ToSlash(rel)}, {}} {
		var buf bytes.Buffer
		n, err := report.WriteWACZ(context.Background(), report.Target{Store: &aip.Local{Root: root}, Blogs: []string{"example"}}, o, &buf)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		members := map[string]string{}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(rc)
			rc.Close()
			members[f.Name] = string(data)
		}
		if _, ok := members["archive/"+v1]; !ok {
			t.Errorf("WACZ %+v: no %s among %d members", o, v1, len(members))
		}
		picture := false
		for _, l := range strings.Split(members["indexes/index.cdxj"], "\n") {
			if strings.Contains(l, `"url":"https://blog.example.org/a.png"`) && strings.Contains(l, `"filename":"`+v1+`"`) {
				picture = true
			}
		}
		if !picture {
			t.Errorf("WACZ %+v: the index has no line of the picture in %s:\n%s", o, v1, members["indexes/index.cdxj"])
		}
		if n != 1 || strings.Count(members["pages/pages.jsonl"], `"url":"https://blog.example.org/2024/05/pics/"`) != 1 ||
			!strings.Contains(members["pages/pages.jsonl"], first.Add(24*time.Hour).Format(time.RFC3339)) {
			t.Errorf("WACZ %+v: %d pages, want the entry once, at v2's capture:\n%s", o, n, members["pages/pages.jsonl"])
		}
	}
}

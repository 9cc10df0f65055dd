package aip_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
)

// ExampleWriter writes one entry with a comment and its captured page as an
// AIP, writes it again unchanged, and checks the archive.
func ExampleWriter() {
	root, _ := os.MkdirTemp("", "archive")
	defer os.RemoveAll(root)
	// One writer per archive: lock it, then sweep what a dead writer left.
	lock, err := aip.LockArchive(root)
	if err != nil {
		fmt.Println(err) // *aip.LockedError: another process writes there
		return
	}
	defer lock.Close()
	if err := aip.Sweep(lock); err != nil {
		fmt.Println(err)
		return
	}
	w := &aip.Writer{Root: root, Lock: lock, Organization: "Example Library", Software: "blogharvest 0.1.0",
		Now: func() time.Time { return time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC) }}
	page := blogharvest.File{URL: "https://blog.example.org/2024/05/hello/", Role: blogharvest.RolePage,
		MediaType: "text/html", Body: []byte("<h1>Hello</h1>"), Status: 200}
	page.Sum()
	e := &blogharvest.Entry{BlogID: "example", Kind: blogharvest.KindPost, URL: page.URL, Title: "Hello",
		Content: "<p>Hello</p>", ContentFormat: "text/html", Created: time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC),
		Comments: []blogharvest.Comment{{ID: "c1", Author: "Ana", Content: "Hi!"}},
		Files:    []blogharvest.File{page}}

	r, err := w.WriteEntry(context.Background(), e)
	if err != nil {
		fmt.Println(err)
		return
	}
	rel, _ := filepath.Rel(root, r.Dir)
	fmt.Println(filepath.ToSlash(rel), r.Version, r.Written)
	filepath.WalkDir(r.Dir, func(p string, d fs.DirEntry, err error) error {
		if !d.IsDir() {
			rel, _ := filepath.Rel(r.Dir, p)
			fmt.Println("  " + filepath.ToSlash(rel))
		}
		return nil
	})
	again, _ := w.WriteEntry(context.Background(), e)
	fmt.Println("unchanged, written again:", again.Written)
	fmt.Println("problems:", len(aip.Check(root)))
	// Output:
	// example/entries/2024/hello-30dc7e80/v1 1 true
	//   bag-info.txt
	//   bagit.txt
	//   data/METS.xml
	//   data/logs/capture.log
	//   data/logs/index.cdxj
	//   data/objects/page/hello.html
	//   data/objects/warc/hello-30dc7e80.warc.gz
	//   manifest-sha256.txt
	//   manifest-sha512.txt
	//   tagmanifest-sha256.txt
	//   tagmanifest-sha512.txt
	// unchanged, written again: false
	// problems: 0
}

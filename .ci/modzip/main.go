// Command modzip writes the module zip of a checkout into a file:// module
// proxy folder, for .ci/goinstall: the files named on its standard input
// (git ls-files -z, paths relative to the current folder, the module root),
// checked and filtered by golang.org/x/mod/zip as the go command does
// (files of nested modules, vendor folders, symbolic links and names a
// module zip cannot hold left out and listed), into
// PROXY/MODULE/@v/VERSION.zip, with VERSION.mod, VERSION.info and list.
//
//	git ls-files -z | modzip PROXY MODULE VERSION TIME
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// file is a file of the checkout, for zip.CheckFiles and zip.Create.
type file string

func (f file) Path() string                 { return string(f) }
func (f file) Lstat() (os.FileInfo, error)  { return os.Lstat(string(f)) }
func (f file) Open() (io.ReadCloser, error) { return os.Open(string(f)) }

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: git ls-files -z | modzip PROXY MODULE VERSION TIME")
		os.Exit(2)
	}
	if err := run(os.Args[1], module.Version{Path: os.Args[2], Version: os.Args[3]}, os.Args[4]); err != nil {
		fmt.Fprintln(os.Stderr, "modzip:", err)
		os.Exit(1)
	}
}

func run(proxy string, m module.Version, time string) error {
	if err := module.Check(m.Path, m.Version); err != nil {
		return err
	}
	list, err := io.ReadAll(bufio.NewReader(os.Stdin))
	if err != nil {
		return err
	}
	var files []zip.File
	for _, name := range strings.Split(string(list), "\x00") {
		if name == "" {
			continue
		}
		if _, err := os.Lstat(name); os.IsNotExist(err) {
			continue // deleted in the working tree, not yet committed
		}
		files = append(files, file(filepath.ToSlash(name)))
	}
	checked, err := zip.CheckFiles(files)
	for _, o := range checked.Omitted {
		fmt.Fprintf(os.Stderr, "modzip: left out %s: %v\n", o.Path, o.Err)
	}
	if err != nil {
		return err
	}
	var valid []zip.File
	for _, f := range files {
		for _, v := range checked.Valid {
			if v == f.Path() {
				valid = append(valid, f)
				break
			}
		}
	}
	esc, err := module.EscapePath(m.Path)
	if err != nil {
		return err
	}
	dir := filepath.Join(proxy, filepath.FromSlash(esc), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var zipped bytes.Buffer
	if err := zip.Create(&zipped, m, valid); err != nil {
		return err
	}
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		return err
	}
	for name, b := range map[string][]byte{
		m.Version + ".zip":  zipped.Bytes(),
		m.Version + ".mod":  gomod,
		m.Version + ".info": fmt.Appendf(nil, "{\"Version\":%q,\"Time\":%q}\n", m.Version, time),
		"list":              []byte(m.Version + "\n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "modzip: %s@%s: %d files, %d bytes, %d left out\n", m.Path, m.Version, len(valid), zipped.Len(),
		len(checked.Omitted))
	return nil
}

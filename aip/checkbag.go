package aip

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// bag is a bag being checked: what its tag files say and what its payload
// holds.
type bag struct {
	fsys    fs.FS                 // the bag as a file system: "." is its folder (folderFS, or a store's fs.Sub)
	at      func(p string) string // where the bag-relative p is, for the problems: a file path or a store location
	decl    declaration
	errs    []error
	payload map[string]int64             // data/… path → size, as the folder or the store lists it
	listed  map[string]map[string]string // manifest name → path → checksum
	fetch   map[string]bool              // paths listed in fetch.txt
	sums    map[string]map[string]string // path → algorithm → checksum computed
	links   map[string]bool              // bag-relative paths of symbolic links, never followed
}

// CheckBag checks dir as a BagIt bag (RFC 8493, and the earlier drafts from
// 0.93 on): bagit.txt, every payload and tag manifest (paths in scope, no
// duplicates, every file present with the right checksum, every payload file
// listed in every payload manifest), bag-info.txt's Payload-Oxum and
// fetch.txt. A symbolic link anywhere in the bag is a problem
// (*SymlinkError) and is never followed: what it points to is neither read
// nor hashed. It returns every problem found, nil for a valid bag.
func CheckBag(dir string) []error {
	b, _ := checkBag(folderFS(dir), folderAt(dir))
	return b.errs
}

// folderAt returns the file path, below the folder dir, of a bag-relative
// name: where a problem of a bag in a folder is.
func folderAt(dir string) func(string) string {
	return func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) }
}

// storeAt returns the location in s of a name relative to its bag bag
// (Location): where a problem of a bag of a store is.
func storeAt(s Store, bag string) func(string) string {
	return func(p string) string { return Location(s, path.Join(bag, p)) }
}

// checkBag runs CheckBag's checks on the bag fsys (whose names at
// locates for the problems) and returns the bag for further checks; ok is
// false when bagit.txt is unusable and nothing else was checked.
func checkBag(fsys fs.FS, at func(string) string) (b *bag, ok bool) {
	b = &bag{fsys: fsys, at: at, listed: map[string]map[string]string{}, fetch: map[string]bool{},
		sums: map[string]map[string]string{}, links: map[string]bool{}}
	b.scanLinks()
	data, err := b.read(bagitTxt)
	if err != nil {
		b.errs = append(b.errs, &NotBagError{Path: at(".")})
		return b, false
	}
	if b.decl, err = parseDeclaration(data); err != nil {
		b.fail(bagitTxt, 0, err.Error())
		return b, false
	}
	b.scanPayload()
	b.readFetch()
	b.checkManifests()
	b.checkOxum()
	return b, true
}

// fail records a FormatError about name (relative to the bag).
func (b *bag) fail(name string, line int, reason string) {
	b.errs = append(b.errs, &FormatError{Path: b.at(name), Line: line, Reason: reason})
}

// scanLinks reports every symbolic link in the bag (not following any)
// and records it in b.links. A store without links (S3) lists none.
func (b *bag) scanLinks() {
	fs.WalkDir(b.fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink == 0 {
			return nil // unreadable folders are reported where they are read
		}
		b.links[p] = true
		target, _ := fs.ReadLink(b.fsys, p)
		b.errs = append(b.errs, &SymlinkError{Path: b.at(p), Target: target})
		return nil
	})
}

// throughLink reports whether the bag-relative path p is a symbolic link or
// lies below one.
func (b *bag) throughLink(p string) bool {
	for ; p != "." && p != "/" && p != ""; p = path.Dir(p) {
		if b.links[p] {
			return true
		}
	}
	return false
}

// open opens the bag file p (bag-relative, slash-separated) for reading
// without following a symbolic link: one in the bag is reported by
// scanLinks and reads as missing here (and folderFS follows none).
func (b *bag) open(p string) (fs.File, error) {
	if b.throughLink(p) {
		return nil, fs.ErrNotExist
	}
	return b.fsys.Open(p)
}

// read returns the content of the bag file p, as open finds it.
func (b *bag) read(p string) ([]byte, error) {
	f, err := b.open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// scanPayload records every regular file under data/ with its size.
func (b *bag) scanPayload() {
	b.payload = map[string]int64{}
	err := fs.WalkDir(b.fsys, "data", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b.payload[p] = info.Size()
		return nil
	})
	if err != nil {
		b.fail("data", 0, "cannot read payload: "+err.Error())
	}
}

// readTag reads a tag file and decodes it to UTF-8; ok is false when it is
// missing or undecodable (the latter recorded as a problem).
func (b *bag) readTag(name string) (string, bool) {
	data, err := b.read(name)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			b.fail(name, 0, err.Error())
		}
		return "", false
	}
	text, err := b.decl.decode(data)
	if err != nil {
		b.fail(name, 0, err.Error())
		return "", false
	}
	return strings.TrimPrefix(string(text), "\ufeff"), true
}

// readFetch records the paths of fetch.txt ("<url> <length> <path>"),
// which may be missing from the payload.
func (b *bag) readFetch() {
	text, ok := b.readTag("fetch.txt")
	if !ok {
		return
	}
	for i, line := range splitLines(text) {
		parts := strings.Fields(line)
		if len(parts) < 3 {
			b.fail("fetch.txt", i+1, fmt.Sprintf("malformed line %q", line))
			continue
		}
		p, err := safePath(strings.Join(parts[2:], " "))
		if err == nil && !strings.HasPrefix(p, "data/") {
			err = fmt.Errorf("path %q is outside data/", p)
		}
		if err != nil {
			b.fail("fetch.txt", i+1, err.Error())
			continue
		}
		b.fetch[p] = true
	}
}

// checkManifests parses every manifest and tag manifest and checks the
// files they list, then looks for payload files a manifest misses.
func (b *bag) checkManifests() {
	names, _ := fs.Glob(b.fsys, "manifest-*.txt")
	if len(names) == 0 {
		b.fail("manifest-<algorithm>.txt", 0, "no payload manifest")
	}
	tags, _ := fs.Glob(b.fsys, "tagmanifest-*.txt")
	for _, n := range append(names, tags...) {
		b.readManifest(n)
	}
	b.verifyListed()
	for _, m := range names {
		for _, p := range sortedKeys(b.payload) {
			if _, ok := b.listed[m][p]; !ok {
				b.errs = append(b.errs, &ExtraError{Path: b.at(p), Manifest: m})
			}
		}
	}
}

// readManifest parses one manifest into b.listed.
func (b *bag) readManifest(name string) {
	tag := strings.HasPrefix(name, "tagmanifest-")
	alg := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(name, "tag"), "manifest-"), ".txt")
	if newHash(alg) == nil {
		b.fail(name, 0, fmt.Sprintf("unsupported algorithm %q", alg))
		return
	}
	text, ok := b.readTag(name)
	if !ok {
		return
	}
	entries := map[string]string{}
	b.listed[name] = entries
	for i, line := range splitLines(text) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		b.addEntry(name, tag, entries, i+1, line)
	}
}

// addEntry parses and records one manifest line.
func (b *bag) addEntry(name string, tag bool, entries map[string]string, n int, line string) {
	ml, err := b.decl.parseManifestLine(line)
	switch {
	case err != nil:
		b.fail(name, n, err.Error())
		return
	case !tag && !strings.HasPrefix(ml.path, "data/"):
		b.fail(name, n, fmt.Sprintf("payload path %q is outside data/", ml.path))
		return
	case tag && (strings.HasPrefix(ml.path, "data/") || strings.HasPrefix(ml.path, "tagmanifest-")):
		b.fail(name, n, fmt.Sprintf("tag manifest lists %q", ml.path))
		return
	}
	if prev, dup := entries[ml.path]; dup && (prev != ml.sum || b.decl.atLeast(1, 0)) {
		b.fail(name, n, fmt.Sprintf("%q is listed twice", ml.path))
	}
	entries[ml.path] = ml.sum
}

// verifyListed hashes every listed file once, with every algorithm that
// lists it, and reports missing files and checksum mismatches.
func (b *bag) verifyListed() {
	algs := map[string][]string{} // path → algorithms
	for m, entries := range b.listed {
		for p := range entries {
			algs[p] = append(algs[p], algOf(m))
		}
	}
	for _, p := range sortedKeys(algs) {
		b.sums[p] = b.hashFile(p, algs[p])
	}
	for _, m := range sortedKeys(b.listed) {
		for _, p := range sortedKeys(b.listed[m]) {
			b.compare(m, p, b.listed[m][p])
		}
	}
}

// compare checks one manifest entry against the computed checksum.
func (b *bag) compare(manifest, p, want string) {
	full := b.at(p)
	got, ok := b.sums[p][algOf(manifest)]
	switch {
	case !ok && b.fetch[p]:
	case !ok:
		b.errs = append(b.errs, &MissingError{Path: full, Manifest: manifest})
	case got != want:
		b.errs = append(b.errs, &ChecksumError{Path: full, Algorithm: algOf(manifest), Want: want, Got: got})
	}
}

// hashFile returns the checksums of the bag file p for algs; nil when the
// file cannot be read (a problem is recorded unless it is simply missing).
func (b *bag) hashFile(p string, algs []string) map[string]string {
	f, err := b.open(p)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			b.fail(p, 0, err.Error())
		}
		return nil
	}
	defer f.Close()
	hs := map[string]io.Writer{}
	var ws []io.Writer
	for _, a := range algs {
		if _, ok := hs[a]; !ok {
			hs[a] = newHash(a)
			ws = append(ws, hs[a])
		}
	}
	n, err := io.Copy(io.MultiWriter(ws...), f)
	if err != nil {
		b.fail(p, 0, err.Error())
		return nil
	}
	if size, ok := b.payload[p]; ok && n != size { // a store's listing (S3: the bag's marker) against its bytes
		b.fail(p, 0, fmt.Sprintf("the store recorded %d bytes, %d were read", size, n))
	}
	out := map[string]string{}
	for a, h := range hs {
		out[a] = fmt.Sprintf("%x", h.(interface{ Sum([]byte) []byte }).Sum(nil))
	}
	return out
}

// checkOxum compares bag-info.txt's Payload-Oxum with the payload.
func (b *bag) checkOxum() {
	text, ok := b.readTag(bagInfoTxt)
	if !ok {
		return
	}
	var octets int64
	for _, n := range b.payload {
		octets += n
	}
	got := fmt.Sprintf("%d.%d", octets, len(b.payload))
	for _, f := range parseBagInfo([]byte(text)) {
		if f.label != "Payload-Oxum" {
			continue
		}
		o, n, ok := strings.Cut(f.value, ".")
		if _, e1 := strconv.ParseUint(o, 10, 63); !ok || e1 != nil || !isDigits(n) {
			b.fail(bagInfoTxt, f.line, fmt.Sprintf("malformed Payload-Oxum %q", f.value))
		} else if f.value != got {
			b.errs = append(b.errs, &OxumError{Bag: b.at("."), Want: f.value, Got: got})
		}
	}
}

// algOf returns the algorithm of a manifest or tag manifest name.
func algOf(manifest string) string {
	_, rest, _ := strings.Cut(path.Base(manifest), "manifest-")
	return strings.TrimSuffix(rest, ".txt")
}

func isDigits(s string) bool {
	_, err := strconv.ParseUint(s, 10, 63)
	return err == nil
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

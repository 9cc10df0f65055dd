package aip

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// bag is a bag being checked: what its tag files say and what its payload
// holds.
type bag struct {
	dir     string
	decl    declaration
	errs    []error
	payload map[string]int64             // data/… path → size, as found on disk
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
	b, _ := checkBag(dir)
	return b.errs
}

// checkBag runs CheckBag's checks and returns the bag for further checks;
// ok is false when bagit.txt is unusable and nothing else was checked.
func checkBag(dir string) (b *bag, ok bool) {
	b = &bag{dir: dir, listed: map[string]map[string]string{}, fetch: map[string]bool{},
		sums: map[string]map[string]string{}, links: map[string]bool{}}
	b.scanLinks()
	data, err := b.read(bagitTxt)
	if err != nil {
		b.errs = append(b.errs, &NotBagError{Path: dir})
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
	b.errs = append(b.errs, &FormatError{Path: filepath.Join(b.dir, filepath.FromSlash(name)), Line: line, Reason: reason})
}

// scanLinks reports every symbolic link in the bag (not following any)
// and records it in b.links.
func (b *bag) scanLinks() {
	filepath.WalkDir(b.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink == 0 {
			return nil // unreadable folders are reported where they are read
		}
		rel, _ := filepath.Rel(b.dir, p)
		b.links[filepath.ToSlash(rel)] = true
		target, _ := os.Readlink(p)
		b.errs = append(b.errs, &SymlinkError{Path: p, Target: target})
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
// scanLinks and reads as missing here.
func (b *bag) open(p string) (*os.File, error) {
	if b.throughLink(p) {
		return nil, fs.ErrNotExist
	}
	return os.OpenFile(filepath.Join(b.dir, filepath.FromSlash(p)), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
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
	root := filepath.Join(b.dir, "data")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(b.dir, p)
		b.payload[filepath.ToSlash(rel)] = info.Size()
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
	names, _ := filepath.Glob(filepath.Join(b.dir, "manifest-*.txt"))
	if len(names) == 0 {
		b.fail("manifest-<algorithm>.txt", 0, "no payload manifest")
	}
	tags, _ := filepath.Glob(filepath.Join(b.dir, "tagmanifest-*.txt"))
	for _, n := range append(names, tags...) {
		b.readManifest(filepath.Base(n))
	}
	b.verifyListed()
	for _, n := range names {
		m := filepath.Base(n)
		for _, p := range sortedKeys(b.payload) {
			if _, ok := b.listed[m][p]; !ok {
				b.errs = append(b.errs, &ExtraError{Path: filepath.Join(b.dir, filepath.FromSlash(p)), Manifest: m})
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
	full := filepath.Join(b.dir, filepath.FromSlash(p))
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
	if _, err := io.Copy(io.MultiWriter(ws...), f); err != nil {
		b.fail(p, 0, err.Error())
		return nil
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
			b.errs = append(b.errs, &OxumError{Bag: b.dir, Want: f.value, Got: got})
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

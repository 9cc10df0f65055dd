package schedule

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"os"
)

// The on-disk layout of a bbolt file (go.etcd.io/bbolt, version 2), as far
// as verifyFile reads it. Numbers are in the machine's byte order.
const (
	boltMagic        = 0xED0CDAED
	boltVersion      = 2
	pageHeaderSize   = 16 // id uint64, flags uint16, count uint16, overflow uint32
	elementSize      = 16 // branch: pos, ksize uint32, pgid uint64; leaf: flags, pos, ksize, vsize uint32
	bucketHeaderSize = 16 // root pgid uint64, sequence uint64
	metaChecksumAt   = 56 // the meta's checksum covers the bytes before it
	metaSize         = 64

	flagBranch   = 0x01
	flagLeaf     = 0x02
	flagMeta     = 0x04
	flagFreelist = 0x10
	flagBucket   = 0x01 // of a leaf element: its value is a bucket

	noFreelist = ^uint64(0)
)

var ne = binary.NativeEndian

// meta is a decoded bbolt meta page.
type meta struct {
	pageSize           uint32
	root, freelist, hw uint64 // root bucket's page, freelist page, high-water page id
	txid               uint64
}

// verifyFile checks a bbolt file's structure by reading it (never mapping
// it): the meta pages, and that every page reachable from the newest valid
// meta and the freelist lies inside the file and is well formed. bbolt
// itself maps the file and trusts it, so a truncated file faults (SIGBUS)
// and a damaged page panics; a file verifyFile accepts cannot do either.
// It returns a *DamagedError for a damaged file, another error if the file
// cannot be read.
func verifyFile(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	if size == 0 {
		return damaged(f.Name(), "empty file (0 bytes)")
	}
	m, err := newestMeta(f, size)
	if err != nil {
		return err
	}
	if err := metaHeaders(f, int64(m.pageSize)); err != nil {
		return err
	}
	v := &verifier{f: f, m: m, size: size, seen: map[uint64]bool{}}
	return v.run()
}

// newestMeta returns the valid meta page with the higher transaction id.
func newestMeta(f *os.File, size int64) (meta, error) {
	m0, err0 := readMeta(f, 0, size)
	off := int64(4096)
	if err0 == nil {
		off = int64(m0.pageSize)
	}
	m1, err1 := readMeta(f, off, size)
	switch {
	case err0 != nil && err1 != nil:
		return meta{}, damaged(f.Name(), fmt.Sprintf("no valid meta page (%v; %v)", err0, err1))
	case err1 != nil || err0 == nil && m0.txid >= m1.txid:
		return m0, nil
	}
	return m1, nil
}

// metaHeaders checks the page headers of both meta pages, which bbolt
// asserts (in a goroutine of its consistency check, where a failed
// assertion ends the process) whether or not their meta is valid.
func metaHeaders(f *os.File, ps int64) error {
	for id := range int64(2) {
		head := make([]byte, pageHeaderSize)
		if _, err := f.ReadAt(head, id*ps); err != nil {
			return damaged(f.Name(), fmt.Sprintf("meta page %d: %v", id, err))
		}
		if got, flags := ne.Uint64(head), ne.Uint16(head[8:]); got != uint64(id) || flags != flagMeta {
			return damaged(f.Name(), fmt.Sprintf("meta page %d: header says page %d, flags %#x", id, got, flags))
		}
	}
	return nil
}

// readMeta reads and validates the meta page at off.
func readMeta(f *os.File, off, size int64) (meta, error) {
	if off+pageHeaderSize+metaSize > size {
		return meta{}, fmt.Errorf("meta page at %d: beyond the end of the file", off)
	}
	b := make([]byte, metaSize)
	if _, err := f.ReadAt(b, off+pageHeaderSize); err != nil {
		return meta{}, fmt.Errorf("meta page at %d: %w", off, err)
	}
	h := fnv.New64a()
	h.Write(b[:metaChecksumAt])
	switch {
	case ne.Uint32(b[0:]) != boltMagic:
		return meta{}, fmt.Errorf("meta page at %d: not a bbolt file (bad magic)", off)
	case ne.Uint32(b[4:]) != boltVersion:
		return meta{}, fmt.Errorf("meta page at %d: bbolt version %d", off, ne.Uint32(b[4:]))
	case ne.Uint64(b[metaChecksumAt:]) != h.Sum64():
		return meta{}, fmt.Errorf("meta page at %d: checksum mismatch", off)
	}
	m := meta{pageSize: ne.Uint32(b[8:]), root: ne.Uint64(b[16:]), freelist: ne.Uint64(b[32:]),
		hw: ne.Uint64(b[40:]), txid: ne.Uint64(b[48:])}
	if m.pageSize < 1024 || m.pageSize > 1<<20 || m.pageSize&(m.pageSize-1) != 0 {
		return meta{}, fmt.Errorf("meta page at %d: page size %d", off, m.pageSize)
	}
	return m, nil
}

// verifier walks the pages of one file.
type verifier struct {
	f    *os.File
	m    meta
	size int64
	seen map[uint64]bool // pages reached, overflow pages included
}

// run checks the high-water mark, the freelist and the tree of buckets.
func (v *verifier) run() error {
	ps := int64(v.m.pageSize)
	if v.m.hw < 2 || v.m.hw > uint64(v.size/ps) {
		return v.bad("high-water mark of %d pages, but the file holds %d (truncated?)", v.m.hw, v.size/ps)
	}
	free, err := v.freelist()
	if err != nil {
		return err
	}
	if err := v.tree(v.m.root, 0); err != nil {
		return err
	}
	for _, id := range free {
		if v.seen[id] {
			return v.bad("page %d is both free and in use", id)
		}
	}
	return nil
}

// bad returns a *DamagedError for the file.
func (v *verifier) bad(format string, args ...any) error {
	return damaged(v.f.Name(), fmt.Sprintf(format, args...))
}

// page reads page id with its overflow pages, checking it lies in the file
// and carries its own id.
func (v *verifier) page(id uint64) ([]byte, error) {
	if id < 2 || id >= v.m.hw {
		return nil, v.bad("page %d outside pages 2 to %d", id, v.m.hw-1)
	}
	ps := int64(v.m.pageSize)
	head := make([]byte, pageHeaderSize)
	if _, err := v.f.ReadAt(head, int64(id)*ps); err != nil {
		return nil, v.bad("page %d: %v", id, err)
	}
	if got := ne.Uint64(head); got != id {
		return nil, v.bad("page %d says it is page %d", id, got)
	}
	span := uint64(ne.Uint32(head[12:])) + 1
	if id+span > v.m.hw {
		return nil, v.bad("page %d: %d overflow pages run past the high-water mark", id, span-1)
	}
	b := make([]byte, int64(span)*ps)
	if _, err := v.f.ReadAt(b, int64(id)*ps); err != nil && err != io.EOF {
		return nil, v.bad("page %d: %v", id, err)
	}
	return b, nil
}

// freelist reads the free page ids.
func (v *verifier) freelist() ([]uint64, error) {
	if v.m.freelist == noFreelist {
		return nil, nil
	}
	b, err := v.page(v.m.freelist)
	if err != nil {
		return nil, err
	}
	if flags := ne.Uint16(b[8:]); flags != flagFreelist {
		return nil, v.bad("freelist page %d has flags %#x", v.m.freelist, flags)
	}
	start, n := uint64(pageHeaderSize), uint64(ne.Uint16(b[10:]))
	if n == 0xFFFF {
		n, start = ne.Uint64(b[pageHeaderSize:]), pageHeaderSize+8
	}
	if n > uint64(len(b)) || start+n*8 > uint64(len(b)) {
		return nil, v.bad("freelist page %d: %d ids do not fit", v.m.freelist, n)
	}
	ids := make([]uint64, n)
	for i := range ids {
		ids[i] = ne.Uint64(b[start+uint64(i)*8:])
		if ids[i] < 2 || ids[i] >= v.m.hw {
			return nil, v.bad("freelist page %d: free page %d outside the file", v.m.freelist, ids[i])
		}
	}
	return ids, nil
}

// maxDepth bounds the nesting of pages and buckets (bbolt's trees are a
// few levels deep; a loop is caught by seen first).
const maxDepth = 64

// tree checks the page id and everything below it.
func (v *verifier) tree(id uint64, depth int) error {
	if depth > maxDepth {
		return v.bad("pages nested deeper than %d", maxDepth)
	}
	if v.seen[id] {
		return v.bad("page %d reached twice", id)
	}
	b, err := v.page(id)
	if err != nil {
		return err
	}
	for i := uint64(0); i < uint64(len(b))/uint64(v.m.pageSize); i++ {
		if v.seen[id+i] {
			return v.bad("page %d reached twice", id+i)
		}
		v.seen[id+i] = true
	}
	return v.node(b, id, depth)
}

// node checks the elements of a branch or leaf page b (page id, or an
// inline bucket's page when id is 0) and recurses into children.
func (v *verifier) node(b []byte, id uint64, depth int) error {
	if len(b) < pageHeaderSize {
		return v.bad("page %d: shorter than its header", id)
	}
	flags, n := ne.Uint16(b[8:]), int(ne.Uint16(b[10:]))
	if flags != flagBranch && flags != flagLeaf {
		return v.bad("page %d: flags %#x, neither branch nor leaf", id, flags)
	}
	if flags == flagBranch && n == 0 || pageHeaderSize+n*elementSize > len(b) {
		return v.bad("page %d: %d elements do not fit", id, n)
	}
	for i := range n {
		at := pageHeaderSize + i*elementSize
		if err := v.element(b, at, flags == flagBranch, id, depth); err != nil {
			return err
		}
	}
	return nil
}

// element checks the element at offset at of page b.
func (v *verifier) element(b []byte, at int, branch bool, id uint64, depth int) error {
	e := b[at:]
	if branch {
		pos, ksize := uint64(ne.Uint32(e)), uint64(ne.Uint32(e[4:]))
		if ksize == 0 || uint64(at)+pos+ksize > uint64(len(b)) {
			return v.bad("page %d: an empty key, or one running past the page", id)
		}
		return v.tree(ne.Uint64(e[8:]), depth+1)
	}
	flags, pos := ne.Uint32(e), uint64(ne.Uint32(e[4:]))
	ksize, vsize := uint64(ne.Uint32(e[8:])), uint64(ne.Uint32(e[12:]))
	end := uint64(at) + pos + ksize + vsize
	if ksize == 0 || end > uint64(len(b)) {
		return v.bad("page %d: an empty key, or a key or value running past the page", id)
	}
	if flags&flagBucket == 0 {
		return nil
	}
	val := b[end-vsize : end]
	if len(val) < bucketHeaderSize {
		return v.bad("page %d: a bucket header is %d bytes", id, len(val))
	}
	if root := ne.Uint64(val); root != 0 {
		return v.tree(root, depth+1)
	}
	if depth > maxDepth {
		return v.bad("buckets nested deeper than %d", maxDepth)
	}
	return v.node(val[bucketHeaderSize:], 0, depth+1) // an inline bucket
}

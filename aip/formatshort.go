package aip

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"strings"
	"sync"
)

// Two ways past siegfried's full scan that give what siegfried gives:
//
//   - identical content: siegfried's answer depends only on a file's bytes
//     and its name, so a file whose SHA-256 and name were identified before
//     in this process takes that answer (the learned-rules log every entry
//     carries, a comment feed that says "no comments", a page fetched twice);
//   - an HTML5 page: a captured .html file of type text/html that begins,
//     after at most three bytes of white space or a UTF-8 byte order mark,
//     with PRONOM fmt/471's first signature, "<!" DOCTYPE|doctype " "
//     html|HTML ">", is what siegfried calls fmt/471 Hypertext Markup
//     Language 5 with the basis "extension match html; byte match at N, 15
//     (signature 1/2)". Siegfried finds that match in the first bytes and
//     then still reads the whole page, forward for its other BOF
//     signatures and backward for its EOF ones (4 ms of CPU for a 100 KB
//     page, the largest single cost of writing an entry), and none of them
//     outranks fmt/471: on the 603 HTML5 pages of the corpus and on pages
//     carrying other formats' signatures (XML declarations, SVG, a PDF
//     trailer) its answer is always that one (TestHTML5ShortcutAgreesWithSiegfried).
//     The shortcut checks itself: the first html5Checked candidates of a
//     process, and one in html5Every after them, are identified by
//     siegfried as well, and the first disagreement (a newer signature
//     file, a page unlike any tested) turns the shortcut off for the rest of
//     the process, so everything after it goes through siegfried.
//
// Everything else (XML, whose signature has several PUIDs, images, media,
// HTML without that doctype) goes through siegfried.

// known holds the identifications made in this process, by SHA-256 and
// file name.
var known struct {
	mu sync.Mutex
	m  map[string]format
}

// knownMax bounds known: past it, new identifications are not kept.
const knownMax = 4096

// knownKey is the key of known for the item.
func (it *item) knownKey() string { return it.sha256 + "/" + path.Base(it.rel) }

// lookupKnown returns the identification of an item with the same content
// and name made before in this process.
func (it *item) lookupKnown() (format, bool) {
	if it.sha256 == "" {
		return format{}, false
	}
	known.mu.Lock()
	defer known.mu.Unlock()
	f, ok := known.m[it.knownKey()]
	return f, ok
}

// remember keeps f as the identification of the item's content and name.
func (it *item) remember(f format) {
	if it.sha256 == "" {
		return
	}
	known.mu.Lock()
	defer known.mu.Unlock()
	if known.m == nil {
		known.m = map[string]format{}
	}
	if len(known.m) < knownMax {
		known.m[it.knownKey()] = f
	}
}

// html5 is the state of the HTML5 shortcut: how many candidates siegfried
// confirmed, the name and version it gave them, and whether it disagreed.
var html5 struct {
	mu        sync.Mutex
	seen      int // candidates met
	confirmed int // candidates siegfried identified as predicted
	name      string
	version   string
	off       bool
}

// The shortcut's self-check: siegfried identifies the first html5Checked
// candidates and then one in html5Every.
const (
	html5Checked = 4
	html5Every   = 64
	html5PUID    = "fmt/471"
)

// html5Offset returns the offset of fmt/471's first signature at the start
// of head, or -1 when head does not start with it as html5 describes.
func html5Offset(head []byte) int {
	off := 0
	if bytes.HasPrefix(head, []byte("\xef\xbb\xbf")) {
		off = 3
	} else {
		for off < len(head) && off < 3 && strings.IndexByte(" \t\r\n", head[off]) >= 0 {
			off++
		}
	}
	rest := head[off:]
	for _, doctype := range []string{"<!DOCTYPE ", "<!doctype "} {
		for _, html := range []string{"html>", "HTML>"} {
			if bytes.HasPrefix(rest, []byte(doctype+html)) {
				return off
			}
		}
	}
	return -1
}

// html5Basis is siegfried's basis for an HTML5 page whose signature is at
// off.
func html5Basis(off int) string {
	return fmt.Sprintf("extension match html; byte match at %d, 15 (signature 1/2)", off)
}

// html5Candidate returns the offset of the item's HTML5 signature, or -1
// when the item is no candidate for the shortcut: a captured .html file
// declared text/html whose first bytes are fmt/471's signature.
func (it *item) html5Candidate() int {
	if it.generated || path.Ext(it.rel) != ".html" {
		return -1
	}
	if mt, _, _ := strings.Cut(it.mime, ";"); !strings.EqualFold(strings.TrimSpace(mt), "text/html") {
		return -1
	}
	head := it.body
	if it.src != "" {
		r, err := it.openSrc()
		if err != nil {
			return -1
		}
		defer r.Close()
		buf := make([]byte, 32)
		n, _ := io.ReadFull(r, buf)
		head = buf[:n]
	}
	if len(head) > 32 {
		head = head[:32]
	}
	return html5Offset(head)
}

// identifyHTML5 identifies a candidate whose signature is at off: by the
// shortcut, or by siegfried when the shortcut is off or checks itself.
func (it *item) identifyHTML5(off int) (format, error) {
	html5.mu.Lock()
	html5.seen++
	check := html5.off || html5.confirmed < html5Checked || html5.seen%html5Every == 0
	f := format{puid: html5PUID, name: html5.name, version: html5.version, basis: html5Basis(off)}
	html5.mu.Unlock()
	if !check {
		return f, nil
	}
	got, err := it.siegfried()
	if err != nil {
		return got, err
	}
	html5.mu.Lock()
	defer html5.mu.Unlock()
	if html5.off {
		return got, nil
	}
	if got.puid != html5PUID || got.basis != html5Basis(off) || html5.confirmed > 0 && (got.name != html5.name || got.version != html5.version) {
		html5.off = true // siegfried disagrees: no more shortcuts in this process
		return got, nil
	}
	html5.name, html5.version = got.name, got.version
	html5.confirmed++
	return got, nil
}

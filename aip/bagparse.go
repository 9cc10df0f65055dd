package aip

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"hash"
	"path"
	"strings"

	"github.com/blogharvest/blogharvest/internal/lazyregexp"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
)

// newHash returns a hash for a BagIt algorithm name, nil for unknown ones.
func newHash(alg string) hash.Hash {
	switch alg {
	case "md5":
		return md5.New()
	case "sha1":
		return sha1.New()
	case "sha224":
		return sha256.New224()
	case "sha256":
		return sha256.New()
	case "sha384":
		return sha512.New384()
	case "sha512":
		return sha512.New()
	}
	return nil
}

// field is one label: value pair of a tag file such as bag-info.txt.
type field struct {
	label, value string
	line         int
}

// parseBagInfo parses label: value lines; a line starting with white space
// continues the previous value. Lines without a colon are skipped.
func parseBagInfo(data []byte) []field {
	var out []field
	for i, line := range splitLines(string(data)) {
		if line == "" {
			continue
		}
		if (line[0] == ' ' || line[0] == '\t') && len(out) > 0 {
			out[len(out)-1].value += " " + strings.TrimSpace(line)
			continue
		}
		label, value, ok := strings.Cut(line, ":")
		if ok {
			out = append(out, field{strings.TrimSpace(label), strings.TrimSpace(value), i + 1})
		}
	}
	return out
}

// splitLines splits text at LF, CRLF or CR, without a final empty line.
func splitLines(s string) []string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// declaration is what bagit.txt says.
type declaration struct {
	major, minor int
	encoding     string
}

var (
	versionLine  = lazyregexp.New(`^BagIt-Version: ([0-9]+)\.([0-9]+)$`)
	encodingLine = lazyregexp.New(`^Tag-File-Character-Encoding: (\S+)$`)
)

// parseDeclaration parses bagit.txt strictly: no byte order mark, exactly
// the two lines of RFC 8493 §2.1.1.
func parseDeclaration(data []byte) (declaration, error) {
	var d declaration
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return d, fmt.Errorf("starts with a byte order mark")
	}
	lines := splitLines(string(data))
	if len(lines) != 2 {
		return d, fmt.Errorf("has %d lines, want 2 (BagIt-Version, Tag-File-Character-Encoding)", len(lines))
	}
	m := versionLine.FindStringSubmatch(lines[0])
	if m == nil {
		return d, fmt.Errorf("line 1 is %q, want \"BagIt-Version: M.N\"", lines[0])
	}
	fmt.Sscan(m[1], &d.major)
	fmt.Sscan(m[2], &d.minor)
	e := encodingLine.FindStringSubmatch(lines[1])
	if e == nil {
		return d, fmt.Errorf("line 2 is %q, want \"Tag-File-Character-Encoding: ENCODING\"", lines[1])
	}
	d.encoding = e[1]
	return d, nil
}

// decode converts a tag file from the bag's declared encoding to UTF-8.
func (d declaration) decode(data []byte) ([]byte, error) {
	var enc encoding.Encoding
	var err error
	switch strings.ToUpper(d.encoding) {
	case "UTF-8":
		return data, nil
	case "UTF-16": // RFC 2781: a byte order mark decides, else big-endian
		enc = unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)
		if !bytes.HasPrefix(data, []byte{0xfe, 0xff}) && !bytes.HasPrefix(data, []byte{0xff, 0xfe}) {
			enc = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
		}
	case "UTF-16BE":
		enc = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	case "UTF-16LE":
		enc = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	default:
		enc, err = htmlindex.Get(d.encoding)
	}
	if err != nil {
		return nil, fmt.Errorf("unknown encoding %q", d.encoding)
	}
	return enc.NewDecoder().Bytes(data)
}

// atLeast reports whether the bag's version is at least major.minor.
func (d declaration) atLeast(major, minor int) bool {
	return d.major > major || d.major == major && d.minor >= minor
}

// manifestLine is one parsed manifest entry.
type manifestLine struct {
	sum  string
	path string // cleaned, slash-separated, relative to the bag
	line int
}

var manifestRe = lazyregexp.New(`^([0-9A-Fa-f]+)[ \t]+\*?(.+)$`)

// parseManifestLine parses "<checksum> <path>" and checks the path stays
// inside the bag. Version 1.0 bags percent-decode %0A, %0D and %25.
func (d declaration) parseManifestLine(line string) (manifestLine, error) {
	m := manifestRe.FindStringSubmatch(line)
	if m == nil {
		return manifestLine{}, fmt.Errorf("malformed line %q", line)
	}
	p := m[2]
	if d.atLeast(1, 0) {
		p = strings.NewReplacer("%0A", "\n", "%0a", "\n", "%0D", "\r", "%0d", "\r", "%25", "%").Replace(p)
	}
	clean, err := safePath(p)
	return manifestLine{sum: strings.ToLower(m[1]), path: clean}, err
}

// safePath cleans p, a path relative to the bag, and refuses anything that
// could leave the bag: absolute paths, "..", "~", backslashes, NUL.
func safePath(p string) (string, error) {
	clean := path.Clean(strings.TrimPrefix(p, "./"))
	switch {
	case p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.ContainsAny(p, "\\\x00"):
		return "", fmt.Errorf("path %q is out of the bag's scope", p)
	case clean == ".." || strings.HasPrefix(clean, "../") || clean == ".":
		return "", fmt.Errorf("path %q is out of the bag's scope", p)
	}
	return clean, nil
}

package aip

import (
	"fmt"

	"github.com/blogharvest/blogharvest/marc"
	"github.com/blogharvest/blogharvest/schemas"
)

// ChecksumError reports a file whose digest differs from the one a
// manifest (or the METS document) records for it.
type ChecksumError struct {
	Path      string // the file, as given to Check joined with its path in the bag
	Algorithm string // "sha256", "sha512", …
	Want      string // the recorded digest
	Got       string // the digest of the bytes on disk
}

// Error implements error.
func (e *ChecksumError) Error() string {
	return fmt.Sprintf("%s: %s checksum mismatch: manifest has %s, file has %s", e.Path, e.Algorithm, e.Want, e.Got)
}

// MissingError reports a file a manifest (or the METS document) lists but
// the bag lacks.
type MissingError struct {
	Path     string // the missing file
	Manifest string // the manifest or document that lists it
}

// Error implements error.
func (e *MissingError) Error() string {
	return fmt.Sprintf("%s: listed in %s but missing", e.Path, e.Manifest)
}

// ExtraError reports a payload file that a payload manifest does not list.
type ExtraError struct {
	Path     string // the unlisted file
	Manifest string // the manifest that lacks it
}

// Error implements error.
func (e *ExtraError) Error() string { return fmt.Sprintf("%s: not listed in %s", e.Path, e.Manifest) }

// OxumError reports a Payload-Oxum that does not match the payload.
type OxumError struct {
	Bag  string
	Want string // "<octets>.<files>" from bag-info.txt
	Got  string // the same measured on disk
}

// Error implements error.
func (e *OxumError) Error() string {
	return fmt.Sprintf("%s: Payload-Oxum is %s, payload has %s", e.Bag, e.Want, e.Got)
}

// FormatError reports a malformed or non-conforming bag element: bagit.txt,
// a manifest line, bag-info.txt, fetch.txt, a path out of scope.
type FormatError struct {
	Path   string // the offending file
	Line   int    // 1-based; zero when the problem is not one line
	Reason string
}

// Error implements error.
func (e *FormatError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Reason)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Reason)
}

// SchemaError reports a schema violation of a bag's METS document.
type SchemaError struct {
	Path    string // the METS document
	Problem schemas.Problem
}

// Error implements error.
func (e *SchemaError) Error() string { return fmt.Sprintf("%s: schema: %v", e.Path, e.Problem) }

// Unwrap returns the schema problem.
func (e *SchemaError) Unwrap() error { return e.Problem }

// LintError reports a MARC lint finding on a record of a METS document.
type LintError struct {
	Path    string // the METS document
	DmdID   string // the dmdSec holding the record
	Problem marc.Problem
}

// Error implements error.
func (e *LintError) Error() string {
	return fmt.Sprintf("%s: dmdSec %s: %v", e.Path, e.DmdID, e.Problem)
}

// Unwrap returns the lint problem.
func (e *LintError) Unwrap() error { return e.Problem }

// FileRefError reports a METS file entry that does not match the payload:
// its href is unsafe or names no file, or its size or checksum differs.
type FileRefError struct {
	Path   string // the METS document
	FileID string // mets:file/@ID
	Href   string
	Reason string
}

// Error implements error.
func (e *FileRefError) Error() string {
	return fmt.Sprintf("%s: file %s (%s): %s", e.Path, e.FileID, e.Href, e.Reason)
}

// NotBagError reports a folder where a bag was expected (a v<N> folder of
// the archive, or a path given to Check) that holds no bagit.txt.
type NotBagError struct{ Path string }

// Error implements error.
func (e *NotBagError) Error() string { return fmt.Sprintf("%s: not a bag (no bagit.txt)", e.Path) }

// SymlinkError reports a symbolic link in an archive or a bag: a bag holds
// regular files and folders only, and Check never follows a link.
type SymlinkError struct {
	Path   string // the link
	Target string // what it points to, as stored in the link
}

// Error implements error.
func (e *SymlinkError) Error() string {
	return fmt.Sprintf("%s: symbolic link to %s (not followed: an archive holds no links)", e.Path, e.Target)
}

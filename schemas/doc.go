// Package schemas embeds the official XML schemas an AIP must satisfy (METS
// 1.12.1, XLink, MARC21slim, PREMIS 3) and validates documents against all of
// them at once through a driver schema, in pure Go and without network access.
//
// Validate and ValidateReader validate a document of up to 1 MiB whole
// (schemas.go) and a larger METS document in parts (parts.go): each section
// of the root, and each div of a structMap without its child divs, is
// validated as a small document of its own, and what no part can see (the
// order of the sections, IDs defined once, IDREFs resolved) is checked
// across them. The validator (helium) holds a parsed document in about 60
// times its size and parses no deeper than 256 elements; in parts, memory
// is bounded by the largest part (a 10 000-comment METS is 10 000 small
// dmdSecs and divs) and a thread of any depth is a structMap of shallow
// parts. TestPartsAgreeWithWhole and TestPartsAgreeOnLargeDocuments hold
// the two ways to the same verdicts, on the same lines.
package schemas

// Package schemas embeds the official XML schemas an AIP must satisfy (METS
// 1.12.1, XLink, MARC21slim, PREMIS 3) and validates documents against all of
// them at once through a driver schema, in pure Go and without network access.
package schemas

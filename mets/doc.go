// Package mets writes METS 1.12.1 documents with PREMIS 3 preservation
// metadata. It knows nothing of blogs or MARC: descriptive metadata arrives as
// opaque XML, or as an element tree (Element) that a caller building it
// itself hands over instead of XML to be parsed back. Output is
// deterministic: no map order and no wall clock inside; every time is
// passed in.
//
// The layout is the one Archivematica's METS library (metsrw) reads: one
// amdSec per file, named by the file's ADMID; a physical structMap of
// Directory and Item divs derived from the files' paths beside the logical
// one; xsi:schemaLocation on the root and version="3.0" on every PREMIS
// element; MIMETYPE values without parameters.
//
// Marshal and MarshalTo build and write the document one section of the
// root at a time, each in an arena (xmltree.go) reset once written, and
// take the dmdSecs of Document.DmdSource one at a time: a document of
// 10 000 records is never held as a tree, and with MarshalTo not as bytes
// either. The output is etree's to the byte (TestMarshalIsEtrees).
//
// Where to change what: the model in model.go, writing in write.go (the
// sections), premis.go (amdSecs), physical.go (the physical structMap) and
// xmltree.go (the arena and the bytes), IDs and references in ids.go and
// check.go.
package mets

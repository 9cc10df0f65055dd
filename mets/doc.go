// Package mets writes METS 1.12.1 documents with PREMIS 3 preservation
// metadata. It knows nothing of blogs or MARC: descriptive metadata arrives as
// opaque XML. Output is deterministic: no map order and no wall clock inside;
// every time is passed in.
package mets

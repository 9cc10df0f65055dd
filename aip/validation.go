package aip

// Why the Writer does not validate the METS documents it builds against
// the schemas (Writer.ValidateEvery 0, the default), and what checks each
// package instead. A full validation compiles the METS, XLink, MARC21slim
// and PREMIS schemas once per process (0.04 s of CPU) and parses and
// validates each document again: in the third pass of issue 43 the
// first-of-each-kind and one-in-16 validations were 12 % of a small
// blog's crawl (mitsuyoshi) and 7 % of 3mdeb's (doc/storage.md). What a
// document holds is of two kinds:
//
//   - Built by code, the same whatever the input: the elements, their
//     order and cardinality (package mets writes them from typed structs),
//     the typed values (dates in fixed time layouts, sizes as integers,
//     checksums as hex digests, enumerations as constants of the code),
//     the namespaces and schema locations. These cannot differ from one
//     package to the next without a change of the code, so the tests
//     validate them: newWriter, the Writer of the tests over both stores
//     (backends_test.go), and the golden and MARC tools tests' Writers
//     have ValidateEvery 1 and validate every document they write (with
//     every optional part present and absent: the goldens, the fixture
//     entry, nested comments, requisites, the Blog AIP), and package
//     mets's tests validate its documents.
//   - Taken from input: text (titles, names, content, URLs, media types),
//     and the IDs and references made from comment ids and file names.
//     These are checked in every package, before anything touches the
//     disk: Blog.Validate and Entry.Validate reject text that is not
//     UTF-8 or holds a character XML cannot (what would make the document
//     not well-formed), duplicate comment ids and parents that are not
//     among the comments; mets.Document.Check, run by Marshal on every
//     document, rejects empty, malformed (not NCName) and duplicate IDs
//     and ADMID, DMDID and FILEID references to IDs the document lacks
//     (what xsd:ID and xsd:IDREF would); marc.Lint checks every MARC
//     record, and marc's writer drops what a record cannot hold; etree
//     escapes markup. TestInputChecksCatchWhatSchemasWould breaks each
//     of these in the input, shows the write refused with nothing
//     published, and shows the schemas refuse the same fault put into a
//     document.
//
// Check (and `blogharvest check`) still validates every document against
// the schemas.

// sampleValidation reports whether the package of kind being assembled
// gets a full schema validation (Writer.ValidateEvery), counting it.
func (w *Writer) sampleValidation(kind string) bool {
	every := w.ValidateEvery
	if every <= 0 {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.assembled == nil {
		w.assembled = map[string]int{}
	}
	n := w.assembled[kind]
	w.assembled[kind] = n + 1
	return n%every == 0
}

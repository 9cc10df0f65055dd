package aip

// DefaultValidateEvery is Writer.ValidateEvery's default: after the first
// AIP of each kind, one METS document in 16 is validated against the
// schemas when it is written.
const DefaultValidateEvery = 16

// Why a METS document the Writer builds is valid without a schema
// validation of each one (a full validation, parse included, was a fifth
// of a whole crawl's CPU: BenchmarkWholeCrawlCorpus's profile):
//
//   - Structure: package mets writes every element in the order and with
//     the cardinality the schemas demand, from typed structs; its tests and
//     the goldens validate documents with every optional part present and
//     absent, and the writer validates the first AIP of each kind in every
//     process and then one in ValidateEvery, so a change that broke the
//     structure fails at once.
//   - IDs and references: mets.Document.Check, run by Marshal on every
//     document, rejects empty, malformed (not NCName) and duplicate IDs
//     and ADMID, DMDID and FILEID references to IDs the document lacks —
//     the part of validity that depends on the data (comment IDs, file
//     names), not the code.
//   - Characters: Blog.Validate and Entry.Validate reject text XML cannot
//     hold, marc's writer drops what the MARC record cannot hold, and etree
//     escapes markup; marc.Lint checks every MARC record.
//   - Typed values: dates are written with fixed time layouts, sizes are
//     integers, checksums hex digests, enumerations constants of the code.
//
// Check (and `blogharvest check`) still validates every document against
// the schemas, and so do this package's tests (ValidateEvery 1).

// sampleValidation reports whether the package of kind being assembled
// gets a full schema validation, counting it.
func (w *Writer) sampleValidation(kind string) bool {
	every := w.ValidateEvery
	if every <= 0 {
		every = DefaultValidateEvery
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

// Package report reads an archive back for the archivist: it walks the
// AIPs a blogharvest archive holds, one bag at a time, and turns their
// METS documents (the MARCXML dmdSecs, DESIGN §6) into corpus records
// (Walk, Post, Comment), which Export writes as JSON Lines, plain text or
// XML (the formats are described in doc/export.md). It never writes into
// the archive.
package report

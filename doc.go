// Package blogharvest is the vocabulary of the blog archiver: the records a
// harvest produces (Blog, Entry, Comment, File), the provenance of every
// extracted field, the crawl state an update starts from (CrawlState,
// which harvest fills and the schedule store keeps), the identifiers used
// to name archival packages, and the error kinds shared by all packages.
//
// The package imports nothing of this module. Subpackages speak in these
// types: harvest produces them, aip, marc and mets turn them into Archival
// Information Packages, schedule keeps when to produce them next, and daemon
// wires everything together. doc/packages.md is the package table (what each
// package owns and which packages of the module it imports), which
// deps_test.go compares with the source's imports in both directions.
package blogharvest

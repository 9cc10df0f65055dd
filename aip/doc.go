// Package aip writes and checks Archival Information Packages.
//
// An AIP is a BagIt 1.0 bag (RFC 8493) laid out as
//
//	<archive>/<blog-id>/blog/v<N>/
//	<archive>/<blog-id>/entries/<yyyy>/<entry-key>/v<N>/
//
// holding bagit.txt, bag-info.txt, sha256 and sha512 manifests, a tag
// manifest, and data/METS.xml (MARCXML records and PREMIS), data/objects/…
// (the captured files) and data/logs/…. A bag is built under <archive>/.tmp,
// validated, fsynced and renamed into place, so a crash leaves either no AIP or
// a complete one; an existing version is never modified.
package aip

// Package report reads an archive back for the archivist: it walks the
// AIPs a blogharvest archive holds, one bag at a time, and turns their
// METS documents (the MARCXML dmdSecs, DESIGN §6) into corpus records
// (Walk, Post, Comment: fields read from the crosswalk's attributes by
// their marc tags, marc.Attributes), which an Exporter writes as JSON
// Lines, plain text or XML (doc/export.md). Collect sums one blog's archive up (entries and
// comments per month, captured files by HTTP status and their bytes, the
// crawl ledger's fates (a URL the ledger lists as not archived but the
// archive holds as an entry counts as one: Stats.ArchivedLater), the
// learned rules' confidence, how many entries
// and comments got each field by each extraction method (the bags'
// data/logs/fields.tsv), entries missing a field, word frequencies) and
// Stats.WriteHTML writes it as one self-contained HTML report with charts
// drawn by gonum.org/v1/plot as inline SVG. WriteWACZ (wacz.go) packs a
// blog's latest captures, with its requisites packages, as one WACZ 1.1.1
// web archive for replayers (or, with WACZOptions.Entry, one entry version
// and the requisites: the status page's "entry as it looked"). It never writes into the archive, and reads
// it only through the aip.Store it is given (Target.Store: a folder, or an S3 archive),
// so every output is the same over either. It builds no store: the caller
// opens it once (daemon's resolveArchive: aip.Local or s3store.Store) and
// ResolveIn names the blogs to read; a symbolic link met in a listing is
// named through fs.ReadLink, never read through.
package report

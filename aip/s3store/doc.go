// Package s3store is the aip.Store of an archive kept in an S3-compatible
// object store (archive: s3://bucket/prefix), for institutions whose
// preservation copies live in one and for writers on several machines that
// share no file system.
//
// Layout under the prefix (doc/storage.md is the design):
//
//	.bags/<final>/<token>/<rel>   a bag's objects, written by Staged.Put
//	<final>/.bag.json             the Marker: a Manifest naming the objects'
//	                              folder and every file with its size
//
// A bag is visible only through its Marker, written last with
// If-None-Match: *: before it, readers (ReadDir, Open, Stat) do not see the
// bag at all; after it, the whole bag. Two writers racing for one version
// both stage, one Marker write succeeds, the other gets 412 Precondition
// Failed and its write fails transiently (it retries as a new version).
// Staged objects no Marker names are removed by Sweep once older than a
// grace period. Markers are never changed, so the Store caches the ones it
// has read.
//
// Credentials come from the environment or a file (FromEnv), never from the
// archive URL, and are never logged: String shows s3://bucket/prefix only.
//
// Where to change what: s3store.go (Store, Stage, Publish, Sweep),
// config.go (URLs, endpoint and credentials).
package s3store

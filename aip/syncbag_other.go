//go:build !linux

package aip

// syncBag makes everything written under dir (a bag in .tmp) durable
// before it is renamed into place: without syncfs(2), an fsync per file
// and per folder.
func syncBag(bag *stageDir) error { return syncTree(bag.path) }

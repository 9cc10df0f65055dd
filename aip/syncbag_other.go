//go:build !linux

package aip

// syncBag makes everything written under dir (a bag in .tmp) durable
// before it is renamed into place: without syncfs(2), an fsync per file
// and per folder.
func syncBag(bag *stageDir) error { return syncTree(bag.path) }

// syncBags makes the staged bags durable: without syncfs(2), each as
// syncBag does.
func syncBags(bags []*stageDir) error {
	for _, b := range bags {
		if err := syncBag(b); err != nil {
			return err
		}
	}
	return nil
}

// syncFolders makes the renames into the folders dirs (and out of them)
// durable: an fsync of each.
func syncFolders(dirs []string) error {
	seen := map[string]bool{}
	for _, d := range dirs {
		if seen[d] {
			continue
		}
		seen[d] = true
		if err := syncDir(d); err != nil {
			return err
		}
	}
	return nil
}

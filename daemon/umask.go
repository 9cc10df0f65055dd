package daemon

import (
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// underUmask returns mode with the process's umask applied, as the
// kernel applies it to a file the process creates: for a file made
// through a temp file (created 0600) and then given the mode a plain
// create would have. The umask is read from /proc/self/status (setting
// it to read it would change it for every goroutine); where that cannot
// be read, 022 is assumed.
func underUmask(mode fs.FileMode) fs.FileMode {
	mask := fs.FileMode(0o022)
	if data, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(l, "Umask:"); ok {
				if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
					mask = fs.FileMode(m)
				}
			}
		}
	}
	return mode &^ mask
}

package render_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// process is one entry of /proc.
type process struct {
	pid, ppid int
	rssKB     int64
	cmdline   string
}

// processTree returns root and its descendants, read from /proc.
func processTree(root int) []process {
	all := map[int][]process{}
	var self *process
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		p, ok := readProcess(d)
		if !ok {
			continue
		}
		if p.pid == root {
			self = &p
		}
		all[p.ppid] = append(all[p.ppid], p)
	}
	if self == nil {
		return nil
	}
	out := []process{*self}
	for i := 0; i < len(out); i++ {
		out = append(out, all[out[i].pid]...)
	}
	return out
}

// readProcess reads the pid, parent, resident set and command line of the
// process in /proc directory d.
func readProcess(d string) (process, bool) {
	stat, err := os.ReadFile(filepath.Join(d, "stat"))
	if err != nil {
		return process{}, false
	}
	// The command name is in parentheses and may hold spaces.
	i := strings.LastIndexByte(string(stat), ')')
	fields := strings.Fields(string(stat)[i+1:])
	if len(fields) < 22 {
		return process{}, false
	}
	pid, _ := strconv.Atoi(filepath.Base(d))
	ppid, _ := strconv.Atoi(fields[1])
	rssPages, _ := strconv.ParseInt(fields[21], 10, 64)
	cmd, _ := os.ReadFile(filepath.Join(d, "cmdline"))
	return process{pid, ppid, rssPages * int64(os.Getpagesize()) / 1024, strings.ReplaceAll(string(cmd), "\x00", " ")}, true
}

// treeRSS returns the resident memory of root's process tree in MiB.
func treeRSS(root int) float64 {
	var kb int64
	for _, p := range processTree(root) {
		kb += p.rssKB
	}
	return float64(kb) / 1024
}

// treePSS returns the proportional set size of root's process tree in MiB:
// shared pages (the browser binary mapped by every process) counted once
// rather than per process. It is 0 when smaps_rollup is unavailable.
func treePSS(root int) float64 {
	var kb int64
	for _, p := range processTree(root) {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p.pid), "smaps_rollup"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "Pss:" {
				n, _ := strconv.ParseInt(f[1], 10, 64)
				kb += n
			}
		}
	}
	return float64(kb) / 1024
}

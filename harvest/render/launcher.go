package render

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// unwrapLauncher returns the browser binary a distribution's launcher
// script runs, or path itself when path is no such script.
//
// Debian's /usr/bin/chromium is a shell script that sources
// /etc/chromium.d/ and adds its own switches before ours; since Chromium
// 156 those include --enable-remote-extensions, which starts the extension
// updater: the browser then asks update.googleapis.com for a component at
// every start, whatever quiet switches follow (a switch cannot be turned
// off again by a later one). It also exports Google API keys that enable
// more of the vendor's services. Running the binary the script would exec
// keeps the switch list ours alone. The script is read, never run: only
// the shape "LIBDIR=dir", "APPNAME=name" and "exec $LIBDIR/$APPNAME" is
// recognised, and the result must be an executable that is not a script.
func unwrapLauncher(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return path
	}
	defer f.Close()
	head, err := io.ReadAll(io.LimitReader(f, 64<<10))
	if err != nil || !bytes.HasPrefix(head, []byte("#!")) {
		return path
	}
	vars := map[string]string{}
	execs := false
	sc := bufio.NewScanner(bytes.NewReader(head))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		for _, name := range []string{"LIBDIR", "APPNAME"} {
			if v, ok := strings.CutPrefix(line, name+"="); ok && vars[name] == "" {
				vars[name] = strings.Trim(v, `"'`)
			}
		}
		if strings.HasPrefix(line, "exec $LIBDIR/$APPNAME ") {
			execs = true
		}
	}
	dir, app := strings.ReplaceAll(vars["LIBDIR"], "$APPNAME", vars["APPNAME"]), vars["APPNAME"]
	if !execs || !filepath.IsAbs(dir) || app == "" || strings.ContainsAny(dir+app, "$`") {
		return path
	}
	real := filepath.Join(dir, app)
	if !isBinaryExecutable(real) {
		return path
	}
	return real
}

// isBinaryExecutable reports whether path is a regular executable file
// that does not start with "#!".
func isBinaryExecutable(path string) bool {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [2]byte
	if _, err := io.ReadFull(f, magic[:]); err != nil {
		return false
	}
	return string(magic[:]) != "#!"
}

package daemon

import (
	"path/filepath"
	"strings"

	"github.com/blogharvest/blogharvest/internal/lazyregexp"
)

// absPath matches an absolute file path that starts a word (not the path
// of a URL, which follows a host name).
var absPath = lazyregexp.New(`(^|[\s"'(=,\[])(/[^\s"',)\]]+)`)

// publicText rewrites a message for /status and the state file, which
// readers other than the operator see: the archive root becomes
// "{archive}", the state file's folder "{state}", and any other absolute
// path its last element ("…/name"). The log keeps the full text.
func publicText(msg string, c *Config) string {
	if msg == "" || c == nil {
		return msg
	}
	for _, r := range []struct{ dir, name string }{{c.Archive, "{archive}"}, {filepath.Dir(c.State), "{state}"}} {
		msg = replaceDir(msg, r.dir, r.name)
	}
	return absPath.ReplaceAllStringFunc(msg, func(m string) string {
		i := strings.IndexByte(m, '/')
		return m[:i] + "…/" + filepath.Base(m[i:])
	})
}

// replaceDir replaces dir, as given and made absolute, by name in msg.
func replaceDir(msg, dir, name string) string {
	if dir == "" || dir == "." {
		return msg
	}
	forms := []string{filepath.Clean(dir)}
	if abs, err := filepath.Abs(dir); err == nil {
		forms = append([]string{abs}, forms...)
	}
	for _, f := range forms {
		if f != "/" && f != "." {
			msg = strings.ReplaceAll(msg, f, name)
		}
	}
	return msg
}

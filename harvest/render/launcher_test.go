package render

import (
	"os"
	"path/filepath"
	"testing"
)

// TestUnwrapLauncher reads launcher scripts of the shape Debian's
// /usr/bin/chromium has: the binary the script would exec is run instead,
// and anything else is left as it is.
func TestUnwrapLauncher(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib", "chromium")
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(lib, "chromium")
	write := func(path, body string, mode os.FileMode) string {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write(real, "\x7fELF binary", 0o755)
	debian := "#!/bin/sh\nAPPNAME=chromium\nLIBDIR=" + filepath.Join(dir, "lib") + "/$APPNAME\n" +
		"for file in /etc/chromium.d/*; do . $file; done\n" +
		"if true; then\n    exec $LIBDIR/$APPNAME $CHROMIUM_FLAGS \"$@\"\nfi\n"
	for _, c := range []struct {
		name, body string
		mode       os.FileMode
		want       string // "" = the script itself
	}{
		{"debian", debian, 0o755, real},
		{"no-exec-line", "#!/bin/sh\nAPPNAME=chromium\nLIBDIR=" + lib + "\nrun $LIBDIR/$APPNAME\n", 0o755, ""},
		{"relative-libdir", "#!/bin/sh\nAPPNAME=chromium\nLIBDIR=lib\nexec $LIBDIR/$APPNAME \"$@\"\n", 0o755, ""},
		{"libdir-from-command", "#!/bin/sh\nAPPNAME=chromium\nLIBDIR=$(pwd)\nexec $LIBDIR/$APPNAME \"$@\"\n", 0o755, ""},
		{"binary", "\x7fELF", 0o755, ""},
	} {
		p := write(filepath.Join(dir, c.name), c.body, c.mode)
		want := c.want
		if want == "" {
			want = p
		}
		if got := unwrapLauncher(p); got != want {
			t.Errorf("%s: unwrapLauncher = %s, want %s", c.name, got, want)
		}
	}
	// A launcher whose target is itself a script is not unwrapped.
	write(real, "#!/bin/sh\nexec true\n", 0o755)
	p := write(filepath.Join(dir, "debian2"), debian, 0o755)
	if got := unwrapLauncher(p); got != p {
		t.Errorf("target is a script: unwrapLauncher = %s, want %s", got, p)
	}
}

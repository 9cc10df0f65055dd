package render

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// childEnvNames are the environment variables the browser process gets,
// and the only ones: what it needs to find its libraries, fonts, locale,
// time zone and temporary folder. Anything else of the crawl's own
// environment (AWS_SECRET_ACCESS_KEY for an S3 archive, proxy URLs with a
// password, tokens) stays out of a process that runs hostile pages'
// scripts. The browser's proxy and certificates go to it as switches.
var childEnvNames = []string{"PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR",
	"FONTCONFIG_FILE", "FONTCONFIG_PATH", "LD_LIBRARY_PATH", "CHROME_DEVEL_SANDBOX"}

// childEnvPrefixes are the prefixes of more allowed names (the locale's
// categories, the XDG base directories).
var childEnvPrefixes = []string{"LC_", "XDG_"}

// ChildEnv returns the allowed part of env (NAME=value lines): the
// environment of a child process, built from the allow-list above.
func ChildEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, ok := strings.Cut(kv, "=")
		if ok && allowedEnv(name) {
			out = append(out, kv)
		}
	}
	return out
}

func allowedEnv(name string) bool {
	for _, n := range childEnvNames {
		if name == n {
			return true
		}
	}
	for _, p := range childEnvPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// restrictEnv makes cmd (the browser's, as chromedp built it) start with
// ChildEnv of this process's environment only. chromedp always hands a
// child the whole of os.Environ (it prepends it to any Env it is given),
// so the command is run through env -i, which clears the environment,
// sets the allowed variables and execs the browser in the same process:
// its pid and everything chromedp does with it stay the same. Without an
// env program, every variable not allowed is set empty instead (the last
// of duplicates wins), so no value reaches the browser either way.
func restrictEnv(cmd *exec.Cmd) {
	keep := ChildEnv(os.Environ())
	if envPath, err := exec.LookPath("env"); err == nil && cmd.Err == nil && filepath.IsAbs(cmd.Path) {
		args := append([]string{"env", "-i"}, keep...)
		cmd.Args = append(append(args, cmd.Path), cmd.Args[1:]...)
		cmd.Path = envPath
		return
	}
	for _, kv := range os.Environ() {
		if name, _, ok := strings.Cut(kv, "="); ok && !allowedEnv(name) {
			cmd.Env = append(cmd.Env, name+"=")
		}
	}
	cmd.Env = append(cmd.Env, keep...)
}

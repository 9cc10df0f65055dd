package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/blogharvest/blogharvest/internal/lazyregexp"
)

// Auth is a blog's HTTP basic authentication: a user name and the file
// holding the password. The password is read when the config is loaded,
// sent to the blog's own origins only, and never logged, shown or archived.
type Auth struct {
	User         string `yaml:"user"`
	PasswordFile string `yaml:"password_file"` // read at load; one line, trailing newline ignored
	password     string
}

// String names the user and the file, never the password.
func (a Auth) String() string {
	if a.User == "" && a.PasswordFile == "" {
		return "none"
	}
	return fmt.Sprintf("user %q, password in %s", a.User, a.PasswordFile)
}

// set reports whether credentials are configured.
func (a Auth) set() bool { return a.User != "" || a.PasswordFile != "" }

// load reads the password file; problems carry their key, not yet the
// line or blog.
func (a *Auth) load() []ConfigProblem {
	if !a.set() {
		return nil
	}
	var probs []ConfigProblem
	if a.User == "" {
		probs = append(probs, ConfigProblem{Key: "auth.user", Reason: "missing (auth needs user and password_file)"})
	}
	if a.PasswordFile == "" {
		return append(probs, ConfigProblem{Key: "auth.password_file", Reason: "missing (auth needs user and password_file)"})
	}
	data, err := os.ReadFile(a.PasswordFile)
	if err != nil {
		return append(probs, ConfigProblem{Key: "auth.password_file", Reason: readProblem(a.PasswordFile, err)})
	}
	a.password = strings.TrimRight(string(data), "\r\n")
	if a.password == "" {
		probs = append(probs, ConfigProblem{Key: "auth.password_file", Reason: fmt.Sprintf("%s is empty", a.PasswordFile)})
	}
	return probs
}

// readProblem describes why a file cannot be read, in words.
func readProblem(name string, err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("%s does not exist", name)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Sprintf("%s cannot be read: permission denied", name)
	}
	return fmt.Sprintf("%s cannot be read: %v", name, err)
}

// userinfoRe matches a URL with user-info (user@ or user:password@).
var userinfoRe = lazyregexp.New(`^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*@`)

// hasUserinfo reports whether raw carries a user name or password.
func hasUserinfo(raw string) bool { return userinfoRe.MatchString(strings.TrimSpace(raw)) }

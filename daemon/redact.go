package daemon

import (
	"bytes"
	"io"

	"github.com/blogharvest/blogharvest/internal/lazyregexp"
)

// urlUserinfo matches the user-info of a URL inside free text: a scheme,
// "://", then anything up to an "@" that is no end of the authority.
var urlUserinfo = lazyregexp.New(`([a-zA-Z][a-zA-Z0-9+.\-]*://)[^\s/?#@"'<>\\]*@`)

// redactURLs returns s with the credentials of every URL in it replaced by
// "…" ("s3://KEY:SECRET@bucket/p" reads "s3://…@bucket/p"). Every line a
// command prints about its arguments goes through it: stderr as a whole
// (redactingWriter), stdout line by line where a line names an argument.
func redactURLs(s string) string {
	if !bytes.Contains([]byte(s), []byte("@")) {
		return s
	}
	return urlUserinfo.ReplaceAllString(s, "${1}…@")
}

// redactingWriter passes each write through redactURLs. It keeps no
// buffer: every write of the commands' messages (fmt.Fprint*, a log
// record, the flag package's errors and usage) is a whole message.
type redactingWriter struct{ w io.Writer }

func (r redactingWriter) Write(p []byte) (int, error) {
	if bytes.IndexByte(p, '@') < 0 {
		return r.w.Write(p)
	}
	if _, err := io.WriteString(r.w, redactURLs(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Unwrap returns the writer r writes to, for those that ask what it is
// (newProgress: a terminal or not).
func (r redactingWriter) Unwrap() io.Writer { return r.w }

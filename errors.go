package blogharvest

import "errors"

// Sentinel errors for branching with errors.Is.
var (
	ErrNotFound   = errors.New("not found")
	ErrNotBlog    = errors.New("not a blog: no feed found")
	ErrDisallowed = errors.New("disallowed by robots.txt")
	ErrTooLarge   = errors.New("body exceeds size limit")
	ErrNoArticle  = errors.New("no article extracted")
)

// transient marks an error as worth retrying later.
type transient struct{ err error }

func (t transient) Error() string   { return t.err.Error() }
func (t transient) Unwrap() error   { return t.err }
func (t transient) Transient() bool { return true }

// permanent marks an error as not worth retrying.
type permanent struct{ err error }

func (p permanent) Error() string   { return p.err.Error() }
func (p permanent) Unwrap() error   { return p.err }
func (p permanent) Transient() bool { return false }

// Transient marks err as transient (a retry later may succeed: 5xx, 429,
// timeouts, a full disk being cleaned). It returns nil for nil.
func Transient(err error) error {
	if err == nil {
		return nil
	}
	return transient{err}
}

// Permanent marks err as permanent (a retry will fail the same way: 404, 410,
// a malformed config). It returns nil for nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return permanent{err}
}

// IsTransient reports whether the nearest error in err's chain that says so
// (by a Transient() bool method) is transient. Errors that say nothing are
// treated as transient, so unknown failures are retried with backoff rather
// than abandoned.
func IsTransient(err error) bool {
	var t interface{ Transient() bool }
	if errors.As(err, &t) {
		return t.Transient()
	}
	return err != nil
}

package feed

import "fmt"

// Defaults of CommentLimits for its zero fields.
const (
	// DefaultMaxComments bounds the comments read for one post from one
	// source (CommentLimits.MaxComments).
	DefaultMaxComments = 100_000
	// DefaultCommentsPerAnswer bounds the comments read from one answer of
	// a comments REST endpoint (CommentLimits.PerAnswer): ten times
	// WordPress's largest page (per_page=100), which the crawl asks for.
	DefaultCommentsPerAnswer = 1_000
	// DefaultCommentAnswerBytes bounds one answer of a comments REST
	// endpoint (CommentLimits.AnswerBytes): 8 MiB, some forty times a
	// WordPress page of 100 comments.
	DefaultCommentAnswerBytes = 8 << 20
	// DefaultMaxCommentBytes bounds the bytes of the answers read for one
	// post (CommentLimits.MaxBytes): 32 MiB.
	DefaultMaxCommentBytes = 32 << 20
)

// CommentLimits bounds what FetchComments and FetchCommentsAPI read for
// one post, whatever the blog serves: the memory a comment thread takes
// is then set by configuration, not by the blog. What a limit leaves out
// is said in the Cut the readers return. The zero value takes the
// defaults.
type CommentLimits struct {
	// MaxComments bounds the comments read for one post from one source
	// (a comment feed with its pages, the REST endpoint's answers); paging
	// stops there. If zero, DefaultMaxComments.
	MaxComments int
	// PerAnswer bounds the comments read from one REST answer (a JSON
	// array is read element by element, never whole); the rest of a
	// longer answer is left out. If zero, DefaultCommentsPerAnswer.
	PerAnswer int
	// AnswerBytes bounds one REST answer as served: a longer one is not
	// read (nor archived) and the reading stops there. If zero,
	// DefaultCommentAnswerBytes.
	AnswerBytes int64
	// MaxBytes bounds the bytes of the answers (REST answers, comment
	// feed pages) read and kept for one post: no page is asked for once
	// they reach it. If zero, DefaultMaxCommentBytes.
	MaxBytes int64
}

// withDefaults returns l with every zero field set to its default.
func (l CommentLimits) withDefaults() CommentLimits {
	if l.MaxComments <= 0 {
		l.MaxComments = DefaultMaxComments
	}
	if l.PerAnswer <= 0 {
		l.PerAnswer = DefaultCommentsPerAnswer
	}
	if l.AnswerBytes <= 0 {
		l.AnswerBytes = DefaultCommentAnswerBytes
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxCommentBytes
	}
	return l
}

// Cut says what a comment reader left out because of a CommentLimits
// bound; the zero value: nothing.
type Cut struct {
	Answers int    // answers (pages) read
	Reason  string // which bound stopped the reading, with its value; "" when none did
}

// String renders c for the ledger: "" when nothing was cut.
func (c Cut) String() string {
	if c.Reason == "" {
		return ""
	}
	if c.Answers == 0 {
		return c.Reason
	}
	return fmt.Sprintf("%s (after %d answers)", c.Reason, c.Answers)
}

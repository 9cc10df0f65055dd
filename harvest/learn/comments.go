package learn

// CommentRules are the learned rules for a post's comments: Node selects
// every comment element; the others are relative to a comment element.
type CommentRules struct {
	Node   *Rule `json:"node"`
	Body   *Rule `json:"body,omitempty"`
	Author *Rule `json:"author,omitempty"`
	Date   *Rule `json:"date,omitempty"`
}

func learnComments(pages []*trainPage, min float64) *CommentRules { return nil }

func (e *extractor) comments() {}

package schemas

import "fmt"

// Problem is one schema violation (or a failure to parse the document).
// Line is 1-based and zero when unknown; Element is the local or qualified
// name the validator reported, empty when unknown.
type Problem struct {
	Line    int
	Element string
	Message string
}

// Error implements error: "line 12: element 'mets:file': message".
func (p Problem) Error() string {
	switch {
	case p.Line > 0 && p.Element != "":
		return fmt.Sprintf("line %d: element '%s': %s", p.Line, p.Element, p.Message)
	case p.Line > 0:
		return fmt.Sprintf("line %d: %s", p.Line, p.Message)
	case p.Element != "":
		return fmt.Sprintf("element '%s': %s", p.Element, p.Message)
	}
	return p.Message
}

package learn

import (
	"strings"

	"golang.org/x/net/html/atom"
)

const bodyAtom = atom.Body

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

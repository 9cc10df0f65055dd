package textsim

import (
	"strings"
	"testing"
)

// TestFragmentTextsAllocs bounds eachFragmentText's allocations: it reads
// with the tokenizer's copy (internal/xnet/html), which compares a tag's
// attribute keys without the lower-cased string upstream's tokenizer makes
// of each. 200 paragraphs of 4 attributes: 407 allocations with the copy
// (TagName's copy of each tag name, 2 a paragraph), 2 008 with upstream's.
func TestFragmentTextsAllocs(t *testing.T) {
	s := strings.Repeat(`<p class="post" id="p1" data-x="1" style="color: red">Some words &amp; more.</p>`, 200)
	n := 0
	allocs := testing.AllocsPerRun(5, func() { eachFragmentText(s, func([]byte) { n++ }) })
	if n == 0 {
		t.Fatal("no text read")
	}
	if allocs > 600 {
		t.Errorf("eachFragmentText allocated %.0f times for 200 paragraphs of 4 attributes, want at most 600", allocs)
	}
	t.Logf("%.0f allocations", allocs)
}

package learn_test

import (
	"os"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/learn"
)

func TestZZCFDebug(t *testing.T) {
	if os.Getenv("CFDEBUG") == "" {
		t.Skip()
	}
	for _, b := range corpusBlogs(t) {
		for i, p := range b.pairs(t) {
			x, _ := learn.ExtractWithoutRules(p.Page)
			if len(x.Comments) == 0 || i > 1 {
				continue
			}
			t.Logf("%s %s: %d comments (feed %d)", b.Name, p.Page.URL, len(x.Comments), len(p.Target.Comments))
			for _, c := range x.Comments[:min(4, len(x.Comments))] {
				t.Logf("   id=%q parent=%q author=%q date=%v text=%.100q", c.ID, c.ParentID, c.Author, c.Date, c.ContentText)
			}
		}
	}
}

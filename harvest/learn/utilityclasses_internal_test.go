package learn

import (
	"fmt"
	"strings"
	"testing"
)

// nookItem writes one comment as an app styled with utility classes
// draws it: no comment word, no microdata, the header and button rows
// sharing the comment's tag and first class token.
func nookItem(b *strings.Builder, id, author, date, text string, kids func()) {
	fmt.Fprintf(b, `<div id="%s" class="flex flex-col gap-2 py-3"><div class="flex items-center gap-2"><div class="h-8 w-8 rounded-full bg-gray-200 text-center text-sm leading-8">%s</div>`+
		`<h4 class="text-sm font-semibold text-gray-900">%s</h4><a class="text-xs text-gray-500 hover:underline" href="#nook-comments-%s">%s</a></div>`+
		`<div class="text-sm leading-6 text-gray-800"><p>%s</p></div><div class="flex items-center gap-4 text-xs text-gray-500"><button class="hover:text-black">Like</button><button class="hover:text-black">Reply</button></div>`,
		id, author[:1], author, id, date, text)
	if kids != nil {
		b.WriteString(`<div class="ml-8 border-l pl-4">`)
		kids()
		b.WriteString(`</div>`)
	}
	b.WriteString(`</div>`)
}

// TestRenderedCommentsUtilityClasses is issue 24's finding 2: comments
// drawn with utility classes only are found by structure, each with its
// author (the <h4>), date, text, parent by nesting and the date link to
// #nook-comments-<id> as its permalink.
func TestRenderedCommentsUtilityClasses(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><body class="bg-white font-sans"><div class="mx-auto max-w-2xl px-4 py-6"><div class="flex items-center justify-between pb-4"><span class="text-lg font-bold">5 responses</span><button class="rounded bg-black px-3 py-1 text-sm text-white">Sign in</button></div><div class="divide-y">`)
	nookItem(&b, "a1b2c3d4e5f6", "Ann Lee", "Mar 3, 2024", "The rye version came out denser but richer than the wheat one.", func() {
		nookItem(&b, "0f9e8d7c6b5a", "Bob Ray", "Mar 4, 2024", "Rye needs about ten percent more water in my experience.", func() {
			nookItem(&b, "99aa88bb77cc", "Ann Lee", "Mar 5, 2024", "Good point, I will raise the hydration and report back.", nil)
		})
	})
	nookItem(&b, "123abc456def", "Chloé Martin", "Mar 6, 2024", "Has anyone baked this in a cast iron pot instead of a tin?", nil)
	nookItem(&b, "fedcba987654", "Dev Patel", "Mar 7, 2024", "With the lid on for the first twenty minutes it works well.", nil)
	b.WriteString(`</div></div></body></html>`)
	got := RenderedComments(Page{URL: "http://svc.example/nook/t/12.html", HTML: []byte(b.String()), Lang: "en"})
	want := []struct{ id, author, parent, date string }{
		{"a1b2c3d4e5f6", "Ann Lee", "", "2024-03-03"},
		{"0f9e8d7c6b5a", "Bob Ray", "a1b2c3d4e5f6", "2024-03-04"},
		{"99aa88bb77cc", "Ann Lee", "0f9e8d7c6b5a", "2024-03-05"},
		{"123abc456def", "Chloé Martin", "", "2024-03-06"},
		{"fedcba987654", "Dev Patel", "", "2024-03-07"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d comments, want %d: %+v", len(got), len(want), got)
	}
	_, shape := RenderedCommentsShaped(Page{URL: "http://svc.example/nook/t/12.html", HTML: []byte(b.String()), Lang: "en"}, nil)
	var one strings.Builder
	one.WriteString(`<html><body class="bg-white font-sans"><div class="mx-auto max-w-2xl px-4 py-6"><div class="divide-y">`)
	nookItem(&one, "5e5e5e5e5e5e", "Eve Stone", "Mar 8, 2024", "The photos of the scoring pattern were really helpful, thanks.", nil)
	one.WriteString(`</div></div></body></html>`)
	page := Page{URL: "http://svc.example/nook/t/13.html", HTML: []byte(one.String()), Lang: "en"}
	if cs, _ := RenderedCommentsShaped(page, nil); len(cs) != 0 {
		t.Errorf("a thread of one comment, no shape known: %d comments, want 0 (one record repeats nothing)", len(cs))
	}
	if cs, _ := RenderedCommentsShaped(page, []string{shape}); len(cs) != 1 || cs[0].Author != "Eve Stone" || cs[0].ID != "5e5e5e5e5e5e" {
		t.Errorf("a thread of one comment with the blog's shape %q known: %+v, want Eve Stone's", shape, cs)
	}
	for k, w := range want {
		g := got[k]
		if g.ID != w.id || g.Author != w.author || g.ParentID != w.parent || g.Date.Format("2006-01-02") != w.date ||
			g.URL != "http://svc.example/nook/t/12.html#nook-comments-"+w.id || !strings.HasPrefix(g.ContentText, "The ") && !strings.HasPrefix(g.ContentText, "Rye ") && !strings.HasPrefix(g.ContentText, "Good ") &&
			!strings.HasPrefix(g.ContentText, "Has ") && !strings.HasPrefix(g.ContentText, "With ") || strings.Contains(g.ContentText, "Reply") {
			t.Errorf("comment %d: id %q author %q parent %q date %v url %q text %q; want %+v", k, g.ID, g.Author, g.ParentID, g.Date, g.URL, g.ContentText, w)
		}
	}
}

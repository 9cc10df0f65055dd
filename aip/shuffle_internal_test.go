package aip

import (
	"strings"
	"testing"
)

func TestUnshuffled(t *testing.T) {
	item := func(name, caption string) string {
		return `<figure class="gallery-item"><a href="/` + name + `/"><img src="/` + name + `.jpg" alt="` + name +
			`"></a><figcaption>` + caption + `</figcaption></figure>`
	}
	gallery := func(order ...int) string {
		all := []string{item("bridge", "Sydney Harbor Bridge"), item("beach", "Big Sur"), item("boardwalk", "Westport")}
		var b strings.Builder
		b.WriteString(`<p>Intro.</p><div class="gallery">`)
		for _, k := range order {
			b.WriteString(all[k] + "\n")
		}
		b.WriteString(`</div><p>Outro.</p>`)
		return b.String()
	}
	a, b := unshuffled(gallery(0, 1, 2)), unshuffled(gallery(2, 0, 1))
	if a != b {
		t.Errorf("the same gallery in two orders reads differently:\n%s\n%s", a, b)
	}
	if c := unshuffled(gallery(0, 1)); c == a {
		t.Errorf("a gallery with a picture less reads the same")
	}
	cats := func(first, second string) string {
		return `<ul><li class="cat-item cat-item-` + first + `"><a href="/c/` + first + `/">Foo A</a></li>` +
			`<li class="cat-item cat-item-` + second + `"><a href="/c/` + second + `/">Foo A</a></li><li><a href="/c/b/">Foo B</a></li></ul>`
	}
	if unshuffled(cats("1", "2")) != unshuffled(cats("2", "1")) {
		t.Errorf("two categories of the same name in either order read differently")
	}
	for _, s := range []string{
		`<ul><li>Alpha</li><li>Beta</li></ul>`,            // reordered list items are an edit
		`<p>First paragraph.</p><p>Second paragraph.</p>`, // reordered paragraphs are an edit
		`<p>One</p><div><img src="a.jpg"></div>`,
	} {
		if got := unshuffled(s); got != s {
			t.Errorf("unshuffled(%q) = %q, want it unchanged", s, got)
		}
	}
	long := `<div class="x"><img src="a.jpg"><p>` + strings.Repeat("word ", 100) + `</p></div>`
	edited := long + `<div class="x"><img src="b.jpg"><p>` + strings.Repeat("text ", 100) + `</p></div>`
	swapped := `<div class="x"><img src="b.jpg"><p>` + strings.Repeat("text ", 100) + `</p></div>` + long
	if unshuffled(edited) == unshuffled(swapped) {
		t.Errorf("sections of text with pictures count as shuffled media items")
	}
}

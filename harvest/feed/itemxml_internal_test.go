package feed

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"
)

// TestItemXMLCutFromText checks that a UTF-8 feed's items hold no copy of
// their XML: each one's element is a slice of the feed's body (Feed.Raw),
// which a crawl keeps anyway, and XML() builds the item's document from it
// (a full-text feed's items' copies doubled it in memory, issue 43).
func TestItemXMLCutFromText(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>T</title><link>https://example.org/</link>`)
	for i := range 20 {
		fmt.Fprintf(&b, `<item><title>P%d</title><link>https://example.org/p%d</link><dc:creator>A</dc:creator><description>%s</description></item>`, i, i, strings.Repeat("text ", 200))
	}
	b.WriteString(`</channel></rss>`)
	body := []byte(b.String())
	for _, datesOnly := range []bool{false, true} {
		f, err := parse(body, "https://example.org/feed", datesOnly)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := uintptr(unsafe.Pointer(&body[0])), uintptr(unsafe.Pointer(&body[len(body)-1]))
		for i := range f.Items {
			it := &f.Items[i]
			if it.Raw != nil {
				t.Errorf("item %d: Raw holds %d bytes", i, len(it.Raw))
			}
			if p := uintptr(unsafe.Pointer(unsafe.SliceData(it.xml.src))); p < lo || p > hi {
				t.Errorf("item %d: its XML is not cut from the feed's body", i)
			}
			x := string(it.XML())
			if want := fmt.Sprintf(`<title>P%d</title>`, i); !strings.HasPrefix(x, xmlDecl+`<item xmlns:dc="http://purl.org/dc/elements/1.1/">`) || !strings.Contains(x, want) || !strings.HasSuffix(x, "</item>") {
				t.Errorf("item %d: XML %.120q", i, x)
			}
		}
	}
}

// TestWriteXMLAsXML checks that WriteXML writes the bytes XML returns:
// items with namespace declarations to add (escaped values too), without,
// a JSON Feed item, and an item with neither.
func TestWriteXMLAsXML(t *testing.T) {
	t.Parallel()
	body := []byte(`<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:x="urn:a&amp;b&lt;c"><channel><title>T</title>` +
		`<item><title>P</title><dc:creator>A</dc:creator></item><item/><item>` + "\n" + `<title>Q</title></item></channel></rss>`)
	f, err := parse(body, "https://example.org/feed", false)
	if err != nil {
		t.Fatal(err)
	}
	items := append(f.Items, Item{Raw: []byte(`{"id":"1"}`)}, Item{})
	plain, err := parse([]byte(`<rss version="2.0"><channel><item><title>P</title></item></channel></rss>`), "https://example.org/feed", false)
	if err != nil {
		t.Fatal(err)
	}
	items = append(items, plain.Items...)
	for i := range items {
		var b strings.Builder
		has := items[i].WriteXML(&b)
		if want := string(items[i].XML()); b.String() != want || has != (want != "") {
			t.Errorf("item %d: WriteXML wrote %q (%v), XML is %q", i, b.String(), has, want)
		}
	}
}

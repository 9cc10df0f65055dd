package blogharvest_test

import (
	"slices"
	"testing"

	"github.com/blogharvest/blogharvest"
)

func TestXMLText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain café", "plain café"},
		{"a\x01b\x0cc\x00d", "abcd"},
		{"tab\tnl\ncr\r", "tab\tnl\ncr\r"},
		{"nel\u0085 c1 kept, \ufffd kept", "nel\u0085 c1 kept, \ufffd kept"},
		{"no\ufffe\uffff", "no"},
		{"caf\xe9 \x93q\x94 \x81", "café “q” \u0081"},
	} {
		got, changed := blogharvest.XMLText(tc.in)
		if got != tc.want || changed != (tc.in != tc.want) {
			t.Errorf("XMLText(%q) = %q, %v; want %q", tc.in, got, changed, tc.want)
		}
	}
}

func TestRepairUTF8(t *testing.T) {
	in := []byte("café naïve Zürich 日本語 \xe9t\xe9 \x93q\x94")
	got, n := blogharvest.RepairUTF8(in)
	if string(got) != "café naïve Zürich 日本語 été “q”" || n != 4 {
		t.Errorf("RepairUTF8 = %q, %d", got, n)
	}
	if _, n := blogharvest.RepairUTF8([]byte("日本語")); n != 0 {
		t.Errorf("valid UTF-8 repaired %d bytes", n)
	}
}

// TestCleanTextMakesRecordsValid: an entry that fails Validate on control
// characters validates after CleanText, which names each field once and
// leaves the captured bytes alone.
func TestCleanTextMakesRecordsValid(t *testing.T) {
	body := []byte("<p>raw\x01 bytes</p>")
	e := blogharvest.Entry{BlogID: "b", Kind: blogharvest.KindPost, URL: "https://b.example/p",
		Title: "T\x01", Content: "<p>x\x01\x0c</p>", ContentFormat: "text/html", Tags: []string{"a\x02"},
		Comments: []blogharvest.Comment{{ID: "c1", Author: "A\x03", Content: "hi\x04"}, {ID: "c2", Content: "yo\x05"}},
		Files:    []blogharvest.File{{URL: "https://b.example/p", Role: blogharvest.RolePage, Body: body}}}
	e.Files[0].Sum()
	if e.Validate() == nil {
		t.Fatal("the dirty entry validates")
	}
	fields := e.CleanText()
	if want := []string{"title", "full_content", "tags", "comments.author", "comments.full_content"}; !slices.Equal(fields, want) {
		t.Errorf("fields %v, want %v", fields, want)
	}
	if err := e.Validate(); err != nil {
		t.Errorf("after CleanText: %v", err)
	}
	if string(e.Files[0].Body) != "<p>raw\x01 bytes</p>" {
		t.Error("CleanText changed the captured bytes")
	}
	b := blogharvest.Blog{ID: "b", URL: "https://b.example/", Title: "B\x01"}
	if f := b.CleanText(); !slices.Equal(f, []string{"title"}) || b.Validate() != nil {
		t.Errorf("blog: %v, %v", f, b.Validate())
	}
}

func TestStripUserinfo(t *testing.T) {
	e := blogharvest.Entry{URL: "https://blog.example/p", Aliases: []string{"https://ann:pw@blog.example/?p=1"},
		Comments: []blogharvest.Comment{{URL: "https://bob@blog.example/p#c1"}},
		Files:    []blogharvest.File{{URL: "https://x:y@cdn.example/a.jpg"}, {URL: ""}}}
	if n := e.StripUserinfo(); n != 3 {
		t.Errorf("%d URLs stripped, want 3", n)
	}
	if e.Aliases[0] != "https://blog.example/?p=1" || e.Comments[0].URL != "https://blog.example/p#c1" ||
		e.Files[0].URL != "https://cdn.example/a.jpg" || e.URL != "https://blog.example/p" {
		t.Errorf("%+v", e)
	}
	b := blogharvest.Blog{URL: "https://ann:pw@blog.example/", FeedURL: "https://blog.example/feed"}
	if n := b.StripUserinfo(); n != 1 || b.URL != "https://blog.example/" {
		t.Errorf("blog: %d %q", n, b.URL)
	}
}

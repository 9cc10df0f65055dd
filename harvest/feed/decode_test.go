package feed_test

import (
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/feed"
)

// TestParseRepairsText: characters XML 1.0 does not allow (raw or as
// references) no longer stop the parse, and stray Latin-1 bytes in a UTF-8
// feed are read one by one as windows-1252, the rest kept as UTF-8.
func TestParseRepairsText(t *testing.T) {
	body := "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\"><channel><title>Raw\x01 blog&#1;&#x0C;</title>" +
		"<link>http://example.org/</link><description>d</description>" +
		"<item><title>café naïve Zürich 日本語 \xe9t\xe9 \x93q\x94 &#233;</title><link>http://example.org/a</link></item>" +
		"</channel></rss>"
	f, err := feed.Parse([]byte(body), "http://example.org/feed")
	if err != nil {
		t.Fatal(err)
	}
	if f.Title != "Raw blog" {
		t.Errorf("title %q, want %q", f.Title, "Raw blog")
	}
	if len(f.Items) != 1 || f.Items[0].Title != "café naïve Zürich 日本語 été “q” é" {
		t.Errorf("items %+v", f.Items)
	}
	if f.Removed != 3 {
		t.Errorf("Removed = %d, want 3", f.Removed)
	}
	if string(f.Raw) != body {
		t.Error("Raw is not the feed as served")
	}
	if strings.Contains(string(f.Items[0].XML()), "\x01") {
		t.Error("item Raw holds U+0001")
	}
}

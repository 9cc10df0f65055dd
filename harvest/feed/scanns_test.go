package feed_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/feed"
)

// TestItemRawDeclaresNamespaces: an item's raw XML is a document: an XML
// declaration, then the item carrying the namespace declarations of the
// feed it relies on, so that it is a well-formed
// document on its own (checked by xmllint when installed), and keeps its
// own declarations and content byte for byte.
func TestItemRawDeclaresNamespaces(t *testing.T) {
	const rss = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel xmlns:x="urn:x&amp;y"><title>T</title><link>https://example.org/</link>
<item xmlns:content="urn:own"><title>A</title><link>https://example.org/a</link><dc:creator>Ann</dc:creator><x:y/><content:encoded><![CDATA[<p>x</p>]]></content:encoded></item>
</channel></rss>`
	const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><id>urn:t</id><updated>2024-01-01T00:00:00Z</updated>
<entry><title>A</title><id>urn:a</id><link href="https://example.org/a"/><updated>2024-01-01T00:00:00Z</updated></entry></feed>`
	cases := map[string]struct{ doc, want string }{
		"rss":  {rss, `<item xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:x="urn:x&amp;y" xmlns:content="urn:own"><title>A</title>`},
		"atom": {atom, `<entry xmlns="http://www.w3.org/2005/Atom"><title>A</title>`},
	}
	for name, c := range cases {
		f, err := feed.Parse([]byte(c.doc), "https://example.org/feed/")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(f.Items) != 1 {
			t.Fatalf("%s: %d items", name, len(f.Items))
		}
		raw := f.Items[0].XML()
		if !bytes.HasPrefix(raw, []byte(`<?xml version="1.0" encoding="UTF-8"?>`+"\n"+c.want)) {
			t.Errorf("%s: raw item starts\n%s\nwant\n%s", name, raw[:min(len(raw), 200)], c.want)
		}
		if !strings.HasSuffix(string(raw), "</"+strings.Fields(c.want[1:])[0]+">") {
			t.Errorf("%s: raw item ends %q", name, raw[max(0, len(raw)-30):])
		}
		xmllintWellFormed(t, raw)
	}
}

// xmllintWellFormed checks doc with xmllint, namespaces included, when
// xmllint is installed.
func xmllintWellFormed(t *testing.T, doc []byte) {
	t.Helper()
	if _, err := exec.LookPath("xmllint"); err != nil {
		t.Log("xmllint not installed: well-formedness not cross-checked")
		return
	}
	p := filepath.Join(t.TempDir(), "item.xml")
	os.WriteFile(p, doc, 0o644)
	if out, err := exec.Command("xmllint", "--noout", "--nonet", p).CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("xmllint: %v\n%s\n%s", err, out, doc)
	}
}

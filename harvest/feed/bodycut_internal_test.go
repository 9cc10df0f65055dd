package feed

import (
	"bytes"
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// cutDocs are RSS documents for parseRSSCut: the ones it cuts, and one
// for each way a document is not plain (scanned.plainRSS) or a body is
// not text alone, which it must leave to gofeed whole. want says whether
// the cut is taken.
var cutDocs = map[string]struct {
	doc  string
	want bool
}{
	"escaped": {`<rss version="2.0"><channel><title>t</title><item><title>a</title><description>&lt;p&gt;x &amp;amp; y&lt;/p&gt; &amp; z &#233; &nbsp</description></item>
		<item><title>b</title><description>  padded  </description></item></channel></rss>`, true},
	"cdata": {`<rss xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><item><title>a</title><description><![CDATA[<p>one</p>]]></description>
		<content:encoded> &amp;lead <![CDATA[<b>x</b>]]> mid &amp; <![CDATA[<i>y</i>]]> tail</content:encoded></item></channel></rss>`, true},
	"crlf":             {"<rss><channel><item><description>a\r\nb &lt;br&gt;\r\n</description></item></channel></rss>", true},
	"empty body":       {`<rss><channel><item><description></description><description/></item><item><description/></item></channel></rss>`, false},
	"markup in body":   {`<rss><channel><item><description>a <b>bold</b> c</description></item></channel></rss>`, false},
	"comment":          {`<rss><channel><item><description>a <!-- c --> b</description></item></channel></rss>`, false},
	"two descriptions": {`<rss><channel><item><description>one</description><description>two</description></item></channel></rss>`, false},
	"cased":            {`<rss><channel><item><description>one</description><Description>two</Description></item></channel></rss>`, false},
	"dc description":   {`<rss xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><item><title>a</title><dc:description>dc</dc:description></item></channel></rss>`, false},
	"other content":    {`<rss xmlns:content="http://purl.org/rss/1.0/modules/content"><channel><item><description>d</description><content:encoded>c</content:encoded></item></channel></rss>`, false},
	"atom summary":     {`<rss xmlns:atom="http://www.w3.org/2005/Atom"><channel><item><description>d</description><atom:summary>s</atom:summary></item></channel></rss>`, false},
	"empty ns":         {`<rss xmlns:x=" "><channel><item><description>d</description></item></channel></rss>`, false},
	"default ns":       {`<rss xmlns="http://example.com/ns"><channel><item><description>d</description></item></channel></rss>`, false},
	"root item":        {`<rss><channel><item><description>d</description></item></channel><item><description>e</description></item></rss>`, false},
	"two channels":     {`<rss><channel><item><description>d</description></item></channel><channel><item><description>e</description></item></channel></rss>`, false},
	"item in image":    {`<rss><channel><item><description>d</description></item></channel><image><item><description>e</description></item></image></rss>`, false},
	"Item":             {`<rss><channel><item><description>d</description></item><Item><description>e</description></Item></channel></rss>`, false},
	"rdf":              {`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><channel><title>t</title></channel><item><title>a</title><description>d</description></item></rdf:RDF>`, false},
	"atom":             {`<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id><content type="html">&lt;p&gt;</content></entry></feed>`, false},
}

// TestBodyCutAsWhole parses every document of the shared corpus and of
// testdata that looks like a feed, and cutDocs, with the bodies cut from
// what gofeed reads (parse) and whole (parseCut without cutBodies), and
// requires the same feed, field for field, or the same error.
func TestBodyCutAsWhole(t *testing.T) {
	docs := map[string][]byte{}
	for _, root := range []string{"../../../shared/corpus", "testdata"} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if body, err := os.ReadFile(p); err == nil && Sniff(body) {
					docs[p] = body
				}
			}
			return nil
		})
	}
	for name, c := range cutDocs {
		docs[name] = []byte(c.doc)
	}
	cut := 0
	for name, body := range docs {
		if sameCutAsWhole(t, name, body) {
			cut++
		}
		if c, ok := cutDocs[name]; ok && sameCutAsWhole(t, name, body) != c.want {
			t.Errorf("%s: cut %v, want %v", name, !c.want, c.want)
		}
	}
	t.Logf("%d documents, %d read with their bodies cut", len(docs), cut)
	if cut < 4 {
		t.Errorf("only %d documents read with their bodies cut", cut)
	}
}

// FuzzBodyCut checks parse against parseCut without cutBodies on any
// document.
func FuzzBodyCut(f *testing.F) {
	for _, c := range cutDocs {
		f.Add([]byte(c.doc))
	}
	f.Fuzz(func(t *testing.T, body []byte) { sameCutAsWhole(t, "fuzz", body) })
}

// sameCutAsWhole compares parse and parseCut without cutBodies on body
// and reports whether parseRSSCut cut its bodies.
func sameCutAsWhole(t *testing.T, name string, body []byte) bool {
	t.Helper()
	got, gerr := parse(body, "http://example.com/feed", false)
	want, werr := parseCut(body, "http://example.com/feed", false, false)
	if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
		t.Errorf("%s: error %v, whole %v", name, gerr, werr)
	} else if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: feed differs from the one read whole", name)
		if got != nil && want != nil && len(got.Items) == len(want.Items) {
			for i := range got.Items {
				if !reflect.DeepEqual(got.Items[i], want.Items[i]) {
					t.Logf("item %d: %+v\nwhole: %+v", i, got.Items[i], want.Items[i])
					break
				}
			}
		}
	}
	if len(bytes.TrimSpace(body)) == 0 || isJSONFeed(body) {
		return false
	}
	text, _, _ := toLegalUTF8(body)
	sc, err := scan(text)
	if err != nil {
		return false
	}
	_, cut := parseRSSCut(text, sc, true)
	return cut
}

// TestCommonEntities checks commonEntity against html.UnescapeString.
func TestCommonEntities(t *testing.T) {
	for _, name := range []string{"lt", "gt", "amp", "quot", "#34", "#39", "apos", "LT", "#x27", "nbsp", ""} {
		want := html.UnescapeString("&" + name + ";")
		if c, ok := commonEntity([]byte(name)); ok && string(c) != want {
			t.Errorf("&%s;: %q, UnescapeString %q", name, c, want)
		}
	}
}

package feed_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
)

const rssDoc = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
 xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:atom="http://www.w3.org/2005/Atom" xmlns:sy="http://purl.org/rss/1.0/modules/syndication/"
 xmlns:slash="http://purl.org/rss/1.0/modules/slash/"
 xmlns:creativeCommons="http://backend.userland.com/creativeCommonsRssModule">
<channel>
 <title>  Tea &amp; Toast </title>
 <atom:link href="https://tea.example.org/feed/" rel="self" type="application/rss+xml"/>
 <atom:link href="/feed/?paged=2" rel="next"/>
 <link>https://tea.example.org</link>
 <description>A blog about breakfast</description>
 <lastBuildDate>Tue, 05 Mar 2024 10:00:00 +0000</lastBuildDate>
 <language>en-GB</language>
 <sy:updatePeriod> hourly </sy:updatePeriod>
 <sy:updateFrequency> 1 </sy:updateFrequency>
 <generator>https://wordpress.org/?v=6.4.2</generator>
 <managingEditor>editor@tea.example.org (Ed Itor)</managingEditor>
 <copyright>© 2024 Ed Itor</copyright>
 <creativeCommons:license>http://creativecommons.org/licenses/by/4.0/</creativeCommons:license>
 <item>
  <title>Second post</title>
  <link>https://tea.example.org/2024/03/second/</link>
  <comments>https://tea.example.org/2024/03/second/#comments</comments>
  <dc:creator><![CDATA[Ed Itor]]></dc:creator>
  <pubDate>Tue, 05 Mar 2024 09:00:00 +0000</pubDate>
  <category><![CDATA[Toast]]></category>
  <category><![CDATA[Jam]]></category>
  <guid isPermaLink="false">https://tea.example.org/?p=2</guid>
  <description><![CDATA[Short summary]]></description>
  <content:encoded><![CDATA[<p>Full <b>content</b></p>]]></content:encoded>
  <wfw:commentRss>https://tea.example.org/2024/03/second/feed/</wfw:commentRss>
  <slash:comments>3</slash:comments>
  <enclosure url="/media/toast.mp3" length="100" type="audio/mpeg"/>
 </item>
 <item>
  <title>First post</title>
  <link>https://tea.example.org/2024/02/first/</link>
  <pubDate>Mon, 26 Feb 2024 09:00:00 +0000</pubDate>
  <guid isPermaLink="false">https://tea.example.org/?p=1</guid>
  <description><![CDATA[<p>First</p>]]></description>
 </item>
</channel>
</rss>`

func TestParseRSS(t *testing.T) {
	f, err := feed.Parse([]byte(rssDoc), "https://tea.example.org/feed/")
	if err != nil {
		t.Fatal(err)
	}
	check := map[string][2]string{
		"format": {f.Format, "rss"}, "title": {f.Title, "Tea & Toast"}, "subtitle": {f.Subtitle, "A blog about breakfast"},
		"link": {f.Link, "https://tea.example.org"}, "language": {f.Language, "en-GB"},
		"platform": {f.Platform, "WordPress"}, "version": {f.PlatformVersion, "6.4.2"},
		"webmaster": {f.Webmaster, "editor@tea.example.org (Ed Itor)"}, "rights": {f.Rights, "© 2024 Ed Itor"},
		"license": {f.License, "http://creativecommons.org/licenses/by/4.0/"}, "update": {f.UpdateFrequency, "hourly/1"},
	}
	for k, v := range check {
		if v[0] != v[1] {
			t.Errorf("%s = %q, want %q", k, v[0], v[1])
		}
	}
	if len(f.Next) != 1 || f.Next[0] != "https://tea.example.org/feed/?paged=2" {
		t.Errorf("Next = %v", f.Next)
	}
	if len(f.Items) != 2 {
		t.Fatalf("%d items", len(f.Items))
	}
	it := f.Items[0]
	if it.Title != "Second post" || it.Author != "Ed Itor" || it.Content != "<p>Full <b>content</b></p>" ||
		it.Summary != "Short summary" || it.GUID != "https://tea.example.org/?p=2" ||
		!it.Published.Equal(time.Date(2024, 3, 5, 9, 0, 0, 0, time.UTC)) {
		t.Errorf("item %+v", it)
	}
	if it.CommentFeedURL != "https://tea.example.org/2024/03/second/feed/" || it.CommentsURL != "https://tea.example.org/2024/03/second/#comments" ||
		it.CommentCount != 3 || strings.Join(it.Categories, ",") != "Toast,Jam" ||
		len(it.Enclosures) != 1 || it.Enclosures[0] != "https://tea.example.org/media/toast.mp3" {
		t.Errorf("item extras %+v", it)
	}
	raw := string(it.XML())
	if !strings.HasPrefix(raw, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<item ") || !strings.HasSuffix(raw, "</item>") || !strings.Contains(raw, "slash:comments") {
		t.Errorf("raw item %q", raw)
	}
	if f.Items[1].CommentCount != -1 {
		t.Errorf("unknown comment count = %d", f.Items[1].CommentCount)
	}
}

const atomDoc = `<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns='http://www.w3.org/2005/Atom' xmlns:openSearch='http://a9.com/-/spec/opensearchrss/1.0/'
 xmlns:thr='http://purl.org/syndication/thread/1.0' xml:lang="de">
 <id>tag:blogger.com,1999:blog-42</id>
 <updated>2024-01-10T12:00:00Z</updated>
 <title type='text'>Käse Notizen</title>
 <subtitle type='html'>Über Käse</subtitle>
 <rights>CC BY-SA</rights>
 <link rel='alternate' type='text/html' href='https://kaese.example.net/'/>
 <link rel='license' href='https://creativecommons.org/licenses/by-sa/4.0/'/>
 <link rel='next' type='application/atom+xml' href='https://kaese.example.net/feeds/posts/default?start-index=3&amp;max-results=2'/>
 <author><name>Anna</name><email>anna@example.net</email></author>
 <generator version='7.00' uri='http://www.blogger.com'>Blogger</generator>
 <openSearch:totalResults>5</openSearch:totalResults>
 <entry>
  <id>tag:blogger.com,1999:blog-42.post-1001</id>
  <published>2024-01-10T11:00:00+01:00</published>
  <updated>2024-01-10T12:00:00Z</updated>
  <title type='text'>Emmentaler</title>
  <content type='html'>&lt;p&gt;Löcher&lt;/p&gt;</content>
  <link rel='replies' type='application/atom+xml' href='https://kaese.example.net/feeds/1001/comments/default' title='Kommentare'/>
  <link rel='replies' type='text/html' href='https://kaese.example.net/2024/01/emmentaler.html#comment-form' thr:count='4'/>
  <link rel='alternate' type='text/html' href='https://kaese.example.net/2024/01/emmentaler.html'/>
  <author><name>Anna</name><uri>https://kaese.example.net/about</uri></author>
  <category term='Schweiz'/>
 </entry>
 <entry>
  <id>tag:blogger.com,1999:blog-42.post-1000</id>
  <published>2024-01-01T10:00:00Z</published>
  <title>Gouda</title>
  <summary>Kurz</summary>
  <link rel='alternate' href='https://kaese.example.net/2024/01/gouda.html'/>
 </entry>
</feed>`

func TestParseAtom(t *testing.T) {
	f, err := feed.Parse([]byte(atomDoc), "https://kaese.example.net/feeds/posts/default")
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != "atom" || f.Title != "Käse Notizen" || f.Subtitle != "Über Käse" || f.Platform != "Blogger" ||
		f.PlatformVersion != "7.00" || f.Rights != "CC BY-SA" || f.License != "https://creativecommons.org/licenses/by-sa/4.0/" ||
		f.TotalResults != 5 || f.Link != "https://kaese.example.net/" || f.Webmaster != "Anna <anna@example.net>" {
		t.Errorf("feed %+v", f)
	}
	if len(f.Next) != 1 || !strings.Contains(f.Next[0], "start-index=3") {
		t.Errorf("Next %v", f.Next)
	}
	it := f.Items[0]
	if it.Link != "https://kaese.example.net/2024/01/emmentaler.html" || it.Content != "<p>Löcher</p>" ||
		it.CommentFeedURL != "https://kaese.example.net/feeds/1001/comments/default" || it.CommentCount != 4 ||
		it.CommentsURL != "https://kaese.example.net/2024/01/emmentaler.html#comment-form" ||
		!it.Published.Equal(time.Date(2024, 1, 10, 10, 0, 0, 0, time.UTC)) || it.Author != "Anna" {
		t.Errorf("entry %+v", it)
	}
	if !strings.HasPrefix(string(it.XML()), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"+`<entry xmlns="http://www.w3.org/2005/Atom"`) || !strings.HasSuffix(string(it.XML()), "</entry>") {
		t.Errorf("raw %q", it.XML())
	}
	if f.Items[1].Summary != "Kurz" || f.Items[1].CommentCount != -1 {
		t.Errorf("entry 2 %+v", f.Items[1])
	}
}

const jsonDoc = `{
  "version": "https://jsonfeed.org/version/1.1",
  "title": "Micro Notes",
  "home_page_url": "https://notes.example.com/",
  "feed_url": "https://notes.example.com/feed.json",
  "next_url": "https://notes.example.com/feed.json?page=2",
  "language": "en",
  "authors": [{"name": "Sam"}],
  "items": [
    {"id": "n2", "url": "https://notes.example.com/n2", "title": "Two", "content_html": "<p>2</p>",
     "date_published": "2024-05-02T08:00:00Z", "tags": ["a"]},
    {"id": "n1", "url": "/n1", "content_text": "one", "date_published": "2024-05-01T08:00:00Z"}
  ]
}`

func TestParseJSONFeed(t *testing.T) {
	f, err := feed.Parse([]byte(jsonDoc), "https://notes.example.com/feed.json")
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != "json" || f.Title != "Micro Notes" || len(f.Items) != 2 || f.Language != "en" ||
		len(f.Next) != 1 || f.Next[0] != "https://notes.example.com/feed.json?page=2" {
		t.Fatalf("feed %+v", f)
	}
	if it := f.Items[0]; it.GUID != "n2" || it.Content != "<p>2</p>" || !strings.Contains(string(it.XML()), `"id": "n2"`) {
		t.Errorf("item %+v", it)
	}
	if f.Items[1].Link != "https://notes.example.com/n1" {
		t.Errorf("relative item url resolved to %q", f.Items[1].Link)
	}
}

func TestParseRSS1(t *testing.T) {
	doc := `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
 <channel rdf:about="https://old.example.org/"><title>Old</title><link>https://old.example.org/</link><description>d</description><dc:rights>All mine</dc:rights></channel>
 <item rdf:about="https://old.example.org/a"><title>A</title><link>https://old.example.org/a</link><dc:date>2004-02-01T10:00:00Z</dc:date></item>
 <item rdf:about="https://old.example.org/b"><title>B</title><link>https://old.example.org/b</link></item>
</rdf:RDF>`
	f, err := feed.Parse([]byte(doc), "https://old.example.org/index.rdf")
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != "rss" || len(f.Items) != 2 || f.Items[0].Link != "https://old.example.org/a" || len(f.Items[1].XML()) == 0 || f.Rights != "All mine" {
		t.Errorf("feed %+v", f)
	}
}

func TestParseBad(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		notFeed   bool
		mention   string
	}{
		{"truncated", rssDoc[:len(rssDoc)/2], false, "malformed"},
		{"html", "<!DOCTYPE html><html><head><title>x</title></head><body><p>hi</p></body></html>", true, "<html>"},
		{"empty", "  \n", true, "empty"},
		{"xhtml", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body/></html>`, true, "<html>"},
		{"deep", "<rss><channel>" + strings.Repeat("<x>", 5000) + strings.Repeat("</x>", 5000) + "</channel></rss>", false, "nested deeper"},
		{"json not feed", `{"version": "1", "items": []}`, true, ""},
		{"bad json feed", `{"version": "https://jsonfeed.org/version/1", "items": [}`, true, ""},
	} {
		_, err := feed.Parse([]byte(tc.doc), "https://x.example.org/feed")
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if tc.notFeed && tc.name != "bad json feed" && !errors.Is(err, feed.ErrNotFeed) {
			t.Errorf("%s: %v, want ErrNotFeed", tc.name, err)
		}
		if !strings.Contains(err.Error(), tc.mention) || !strings.Contains(err.Error(), "https://x.example.org/feed") {
			t.Errorf("%s: error %q does not name %q and the URL", tc.name, err, tc.mention)
		}
		if blogharvest.IsTransient(err) {
			t.Errorf("%s: transient", tc.name)
		}
	}
}

// TestBillionLaughs feeds an entity-expansion bomb: it must neither
// expand (gigabytes) nor crash.
func TestBillionLaughs(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY lol "lol">`)
	prev := "lol"
	for i := 1; i <= 9; i++ {
		name := "lol" + string(rune('0'+i))
		b.WriteString(`<!ENTITY ` + name + ` "` + strings.Repeat("&"+prev+";", 10) + `">`)
		prev = name
	}
	b.WriteString(`]><rss version="2.0"><channel><title>&lol9;</title><item><title>&lol9;</title><description>&lol9;</description></item></channel></rss>`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f, err := feed.Parse([]byte(b.String()), "https://x.example.org/feed")
	runtime.ReadMemStats(&after)
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 64<<20 {
		t.Errorf("parsing allocated %d MB", grown>>20)
	}
	if err == nil && (len(f.Title) > 100 || len(f.Items) == 1 && len(f.Items[0].Title) > 100) {
		t.Errorf("entities expanded: title %d bytes", len(f.Title))
	}
}

func TestEncodings(t *testing.T) {
	item := "<item><title>caf\xe9</title><link>https://x.example.org/a</link></item>"
	for _, tc := range []struct{ name, doc string }{
		{"iso-8859-1 declared", `<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel><title>caf` + "\xe9" + `</title>` + item + `</channel></rss>`},
		{"utf-8 declared, latin-1 bytes", `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>caf` + "\xe9" + `</title>` + item + `</channel></rss>`},
		{"latin-1 declared, utf-8 bytes", `<?xml version="1.0" encoding="iso-8859-1"?><rss version="2.0"><channel><title>café</title><item><title>café</title></item></channel></rss>`},
		{"windows-1252 quotes", `<?xml version="1.0" encoding="windows-1252"?><rss version="2.0"><channel><title>caf` + "\xe9" + `</title><item><title>caf` + "\xe9" + "</title><description>\x93quoted\x94</description></item></channel></rss>"},
		{"utf-16 bom", utf16("<?xml version=\"1.0\" encoding=\"UTF-16\"?><rss version=\"2.0\"><channel><title>café</title><item><title>café</title></item></channel></rss>")},
	} {
		f, err := feed.Parse([]byte(tc.doc), "https://x.example.org/feed")
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if f.Title != "café" || len(f.Items) != 1 || f.Items[0].Title != "café" {
			t.Errorf("%s: title %q, items %+v", tc.name, f.Title, f.Items)
		}
		if !strings.Contains(string(f.Items[0].XML()), "café") {
			t.Errorf("%s: raw item not UTF-8: %q", tc.name, f.Items[0].XML())
		}
	}
}

// utf16 encodes s as UTF-16LE with a byte order mark.
func utf16(s string) string {
	b := []byte{0xff, 0xfe}
	for _, r := range s {
		b = append(b, byte(r), byte(r>>8))
	}
	return string(b)
}

func TestSniff(t *testing.T) {
	for doc, want := range map[string]bool{
		rssDoc: true, atomDoc: true, jsonDoc: true,
		utf16("<?xml version=\"1.0\" encoding=\"UTF-16\"?><rss/>"):                           true,
		"<!-- c --><?xml-stylesheet href='x'?>\n<feed xmlns='http://www.w3.org/2005/Atom'/>": true,
		`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"/>`:                  false,
		"<!DOCTYPE html><html><body>rss feed</body></html>":                                  false,
		`{"version": "2"}`: false, "": false, "\x00\x01binary": false,
	} {
		if got := feed.Sniff([]byte(doc)); got != want {
			t.Errorf("Sniff(%.40q) = %v", doc, got)
		}
	}
}

// TestOffSiteLinks documents that items linking off the blog's host (a
// FeedBurner proxy, a link blog) are kept as given; callers compare hosts.
func TestOffSiteLinks(t *testing.T) {
	doc := strings.Replace(rssDoc, "<link>https://tea.example.org/2024/02/first/</link>", "<link>https://feedproxy.example.com/~r/tea/~3/abc/</link>", 1)
	f, err := feed.Parse([]byte(doc), "https://tea.example.org/feed/")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Items) != 2 || f.Items[1].Link != "https://feedproxy.example.com/~r/tea/~3/abc/" {
		t.Errorf("items %+v", f.Items)
	}
}

// TestFeedBurnerOrigLink: a FeedBurner feed links each item through its
// redirector and gives the post's own URL in feedburner:origLink (RSS and
// Atom); the item's Link is the post's own URL.
func TestFeedBurnerOrigLink(t *testing.T) {
	ns := ` xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0"`
	rss := strings.Replace(rssDoc, `<rss version="2.0"`, `<rss version="2.0"`+ns, 1)
	rss = strings.Replace(rss, "<link>https://tea.example.org/2024/02/first/</link>",
		"<link>https://feedproxy.example.com/~r/tea/~3/abc/</link><feedburner:origLink>https://tea.example.org/2024/02/first/</feedburner:origLink>", 1)
	atom := `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"` + ns + `><title>Tea</title>
<entry><id>tag:tea,2024:1</id><title>First</title><updated>2024-02-01T10:00:00Z</updated>
<link rel="alternate" type="text/html" href="https://feedproxy.example.com/~r/tea/~3/abc/"/>
<feedburner:origLink>https://tea.example.org/2024/02/first/</feedburner:origLink></entry></feed>`
	for name, doc := range map[string]string{"rss": rss, "atom": atom} {
		f, err := feed.Parse([]byte(doc), "https://feeds.example.com/tea")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		found := false
		for _, it := range f.Items {
			if strings.Contains(it.Link, "feedproxy") {
				t.Errorf("%s: item %q keeps the redirector link %s", name, it.Title, it.Link)
			}
			found = found || it.Link == "https://tea.example.org/2024/02/first/"
		}
		if !found {
			t.Errorf("%s: no item links to the post's own URL: %+v", name, f.Items)
		}
	}
}

func TestFillBlog(t *testing.T) {
	f, err := feed.Parse([]byte(rssDoc), "https://tea.example.org/feed/")
	if err != nil {
		t.Fatal(err)
	}
	b := blogharvest.Blog{Title: "Set by the archivist"}
	feed.FillBlog(f, &b)
	if b.Title != "Set by the archivist" || b.Provenance["title"] != "" {
		t.Errorf("title overwritten: %q %q", b.Title, b.Provenance["title"])
	}
	if b.Platform != "WordPress" || b.PlatformVersion != "6.4.2" || b.Language != "en-GB" || b.License == "" ||
		b.Copyright != "© 2024 Ed Itor" || b.UpdateFrequency != "hourly/1" || b.FeedURL != "https://tea.example.org/feed/" {
		t.Errorf("blog %+v", b)
	}
	if b.PostFrequency != "3.8 posts/month" || !b.LastActivity.Equal(time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("post frequency %q, last activity %v", b.PostFrequency, b.LastActivity)
	}
	if b.Provenance["platform"] != blogharvest.MethodFeed || b.Provenance["post_frequency"] != blogharvest.MethodComputed {
		t.Errorf("provenance %v", b.Provenance)
	}
}

// TestItemOffset checks that an item keeps the UTC offset its feed wrote
// the date with (Item.Offset), its time being UTC all the same: evidence of
// the blog's zone for learning (learn.Target.DateOffset).
func TestItemOffset(t *testing.T) {
	atom := `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>
<entry><title>a</title><link href="https://z.example/a.html"/><published>2015-10-03T00:00:00+01:00</published></entry>
<entry><title>b</title><link href="https://z.example/b.html"/><updated>2017-03-06T23:08:00-05:30</updated></entry>
<entry><title>c</title><link href="https://z.example/c.html"/><published>2020-01-20T13:33:23.000Z</published></entry>
</feed>`
	rss := `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>
<item><title>d</title><link>https://z.example/d.html</link><pubDate>Sun, 27 Nov 2022 15:02:21 +0900</pubDate></item>
<item><title>e</title><link>https://z.example/e.html</link><pubDate>Tue, 03 Sep 2013 13:11:07 +0000</pubDate></item>
<item><title>f</title><link>https://z.example/f.html</link><pubDate>Tue, 03 Sep 2013 13:11:07 GMT</pubDate></item>
</channel></rss>`
	want := map[string]int{"a": 3600, "b": -(5*3600 + 1800), "c": 0, "d": 9 * 3600, "e": 0, "f": 0}
	seen := 0
	for _, doc := range []string{atom, rss} {
		f, err := feed.Parse([]byte(doc), "https://z.example/feed")
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range f.Items {
			seen++
			if it.Offset != want[it.Title] {
				t.Errorf("%s: offset %d, want %d", it.Title, it.Offset, want[it.Title])
			}
			if d := it.Published; !d.IsZero() && d.Location() != time.UTC {
				t.Errorf("%s: published %v, want UTC", it.Title, d)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d items, want %d", seen, len(want))
	}
}

package feed_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// newClient returns a fetch client that may reach the loopback test servers.
func newClient(t *testing.T) *fetch.Client {
	t.Helper()
	c, err := fetch.New(fetch.Options{AllowHosts: []string{"127.0.0.1"}, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// serveMux starts a test server for mux.
func serveMux(t *testing.T, mux *http.ServeMux) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// base is the date of post 1 in generated feeds; post n is n days later.
var base = time.Date(2023, 1, 1, 12, 0, 0, 0, time.UTC)

// rssPage renders an RSS 2.0 page with posts from..to (descending when
// from > to), a generator and extra channel elements.
func rssPage(site, generator, extra string, from, to int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:wfw="http://wellformedweb.org/CommentAPI/"><channel><title>Test blog</title><link>%s/</link><generator>%s</generator>%s`, site, generator, extra)
	step := 1
	if from > to {
		step = -1
	}
	for n := from; from != 0 && n != to+step; n += step {
		fmt.Fprintf(&b, `<item><title>Post %d</title><link>%s/post-%d/</link><guid>%s/?p=%d</guid><pubDate>%s</pubDate><description>Text %d</description></item>`,
			n, site, n, site, n, base.AddDate(0, 0, n).Format(time.RFC1123Z), n)
	}
	b.WriteString(`</channel></rss>`)
	return b.String()
}

// atomPage renders an Atom page of posts from..to with extra feed elements.
func atomPage(site, extra string, from, to int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:openSearch="http://a9.com/-/spec/opensearchrss/1.0/"><id>tag:blogger.com,1999:blog-7</id><title>Atom blog</title><generator version="7.00" uri="http://www.blogger.com">Blogger</generator>%s`, extra)
	for n := from; from != 0 && n >= to; n-- {
		fmt.Fprintf(&b, `<entry><id>tag:blogger.com,1999:blog-7.post-%d</id><published>%s</published><title>Post %d</title><link rel="alternate" type="text/html" href="%s/post-%d.html"/><content type="html">text</content></entry>`,
			n, base.AddDate(0, 0, n).Format(time.RFC3339), n, site, n)
	}
	b.WriteString(`</feed>`)
	return b.String()
}

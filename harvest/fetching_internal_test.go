package harvest

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

// testFetching returns a fetching stage configured from o, as newCrawl
// builds it, without a client: for page workers built by hand.
func testFetching(o Options) *fetching {
	return newFetching(fetchConfigOf(o), time.Time{}, nil)
}

// TestFetchingWiring: the page worker's fetching stage is built by
// newCrawl from the crawl's Options (the browser's, the requisites' and
// the media's settings reach what the worker does with them) and is
// handed the crawl's own client by the coordinator (newClient), which
// fetches the media of a blog on loopback within the configured bound,
// each URL once.
func TestFetchingWiring(t *testing.T) {
	t.Parallel()
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/small.png":
			asked.Add(1)
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte(strings.Repeat("p", 100)))
		case "/large.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte(strings.Repeat("p", 5000)))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	archived := blogharvest.File{URL: srv.URL + "/held.png", Role: blogharvest.RoleMedia, SHA256: "ab"}
	o := Options{Blog: blogharvest.Blog{ID: "b", URL: srv.URL + "/"}, Logger: slog.New(slog.DiscardHandler),
		Render: RenderAlways, PerHost: 3, RenderTimeout: 7 * time.Second, RenderHostRules: "MAP a.test 127.0.0.1:1",
		Requisites: RequisitesSameOrigin, MaxRequisiteBytes: 11, MaxPageRequisiteBytes: 22,
		MediaHosts: MediaSameHost, MaxMediaBytes: 1000, MaxMediaPerEntry: 7,
		Archived: func(*blogharvest.Entry) []blogharvest.File { return []blogharvest.File{archived} }}.withDefaults()
	c := newCrawl(o, newCrawlPolicy(), time.Now(), nil)
	w := c.w
	cfg := w.fetch.cfg
	if want := (renderConfig{mode: RenderAlways, tabs: 3, timeout: 7 * time.Second, hostRules: "MAP a.test 127.0.0.1:1"}); cfg.render != want {
		t.Errorf("render config %+v, want %+v", cfg.render, want)
	}
	if want := (requisiteConfig{mode: RequisitesSameOrigin, maxBytes: 11, maxPageBytes: 22}); cfg.req != want {
		t.Errorf("requisite config %+v, want %+v", cfg.req, want)
	}
	if m := cfg.media; m.maxBytes != 1000 || m.maxPerEntry != 7 || m.hosts != MediaSameHost || m.archived == nil {
		t.Errorf("media config %+v, want the Options' bounds, hosts and archive", m)
	}
	if got := w.renderReason(context.Background(), &pageJob{}, true, learn.Extraction{}, nil); got.key != ReasonAlways {
		t.Errorf("render: always: reason %q, want %s", got, ReasonAlways)
	}
	if got := w.fetch.archivedMedia(&blogharvest.Entry{}); len(got) != 1 || got[archived.URL].SHA256 != "ab" {
		t.Errorf("archived media %v, want the one Options.Archived holds", got)
	}

	if w.fetch.client != nil {
		t.Fatal("the worker has a client before the coordinator built one")
	}
	if err := c.newClient(); err != nil {
		t.Fatal(err)
	}
	if w.fetch.client == nil || w.fetch.client != c.client {
		t.Fatal("newClient did not hand the crawl's client to the page worker's fetching")
	}
	home := mustURL(t, srv.URL+"/")
	c.site.home, c.site.scope = home, newScope(home, nil, nil)
	w.begin(*c.site, nil, nil)
	if h := w.mediaHosts(); h != MediaSameHost {
		t.Errorf("media hosts %q, want the Options' %q", h, MediaSameHost)
	}
	if p, err := fetch.NewBrowserProxy(fetch.BrowserGate{
		Check: func(context.Context, string, string) error { return nil },
		Dial:  (&net.Dialer{}).DialContext,
	}, fetch.BrowserProxyOptions{}); err != nil {
		t.Fatal(err)
	} else {
		ro := w.renderOptions(p)
		p.Close()
		if ro.Tabs != 3 || ro.Timeout != 7*time.Second || ro.Record != true {
			t.Errorf("browser options: tabs %d, timeout %v, record %v; want 3, 7s, true", ro.Tabs, ro.Timeout, ro.Record)
		}
	}
	ctx := context.Background()
	for range 2 {
		if f, err := w.fetch.fetchMedia(ctx, srv.URL+"/small.png"); err != nil || len(f.Body) != 100 {
			t.Fatalf("small media: %d bytes, %v", len(f.Body), err)
		}
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("small media asked for %d times, want once (the stage's media cache)", n)
	}
	if _, err := w.fetch.fetchMedia(ctx, srv.URL+"/large.png"); !errors.Is(err, blogharvest.ErrTooLarge) {
		t.Errorf("media of 5000 bytes with MaxMediaBytes 1000: %v, want ErrTooLarge", err)
	}
	c.client.Close()
}

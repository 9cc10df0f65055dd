package browser_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/harvest/textsim"
	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// TestCrawlRendersScriptMountedWidgets is issue 39's first part in the
// crawl, with a real browser: a comment service on its own origin whose
// client (client.js) draws a thread from its JSON API into the element
// its init names, embedded the way a site generator's injector does, so
// that no static page holds the element. The NewCrawl renders the post
// whose inline script creates the element and calls the init, and the
// post whose same-origin script file does, for ReasonScriptWidget, and
// archives their comments with their parents; it renders nothing else
// (a post with an analytics snippet and a cookie banner that create
// elements is not rendered). Its State names the client as the blog's
// widget loader; the next UpdateCrawl renders a new post whose injector
// the code reading does not see (its options come from a JSON block)
// but which loads that client: ReasonKnownWidget.
func TestCrawlRendersScriptMountedWidgets(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	if _, err := exec.LookPath("chromium"); err != nil {
		toolskip.Missing(t, "chromium", err)
	}
	t.Parallel()
	threads := map[string][]widgetComment{
		"/p/one/": {{ID: 11, Nick: "Ann Lee", Comment: "The rye version of this loaf came out denser but with a richer crumb.", Created: "2025-03-01T10:00:00Z",
			Children: []widgetComment{{ID: 12, Nick: "Bob Ray", Comment: "Rye wants about ten percent more water in my experience.", Created: "2025-03-01T11:00:00Z"}}},
			{ID: 13, Nick: "Chloé Martin", Comment: "Has anyone baked this in a cast iron pot instead of a tin?", Created: "2025-03-02T09:30:00Z"}},
		"/p/two/": {{ID: 21, Nick: "Dev Patel", Comment: "The section about starters cleared up a lot of confusion for me.", Created: "2025-03-03T08:00:00Z",
			Children: []widgetComment{{ID: 22, Nick: "Eve Stone", Comment: "Same here, the feeding schedule was the missing piece.", Created: "2025-03-03T12:00:00Z"}}}},
		"/p/three/": {{ID: 31, Nick: "Frank Ode", Comment: "Proofing in the oven with the light on works well in winter.", Created: "2025-03-05T07:00:00Z",
			Children: []widgetComment{{ID: 32, Nick: "Grace Hu", Comment: "Mine reaches twenty-six degrees that way, just right.", Created: "2025-03-05T09:00:00Z"}}}},
	}
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		switch r.URL.Path {
		case "/client.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, widgetClientJS)
		case "/api/thread":
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"errno": 0, "data": threads[r.URL.Query().Get("path")]})
		default:
			http.NotFound(w, r)
		}
	}))
	defer svc.Close()
	b := &injectedBlog{svc: svc.URL, posts: []string{"/p/one/", "/p/two/", "/p/plain/"}}
	blog := httptest.NewServer(b)
	defer blog.Close()

	o := options("injected", blog.URL)
	o.Render, o.Allow, o.Requisites = harvest.RenderAuto, []string{svc.URL}, harvest.RequisitesSameOrigin
	res, out := crawl(t, o)
	t.Logf("new crawl: renders %v, not rendered %v, widget scripts %v", res.Renders, res.NotRendered, res.State.WidgetScripts)
	got := out.ByURL(t)
	for _, p := range []string{"/p/one/", "/p/two/"} {
		checkWidgetComments(t, got[blog.URL+p], threads[p])
	}
	if e := got[blog.URL+"/p/plain/"]; e == nil || len(e.Comments) != 0 {
		t.Errorf("/p/plain/: entry %v, want one without comments", e != nil)
	}
	if res.Renders[harvest.ReasonScriptWidget] != 2 || len(res.Renders) != 1 {
		t.Errorf("renders %v: want 2 for %s (the inline injector, the script file) and none else", res.Renders, harvest.ReasonScriptWidget)
	}
	client := svc.URL + "/client.js"
	if len(res.State.WidgetScripts) != 1 || res.State.WidgetScripts[0] != client {
		t.Fatalf("State.WidgetScripts %q, want [%s]", res.State.WidgetScripts, client)
	}

	b.add("/p/three/")
	o.State = res.State
	o.Now = func() time.Time { return time.Now().Add(time.Minute) }
	out = &output{}
	res2, err := harvest.UpdateCrawl(context.Background(), o, res.Watermark, out.Emit)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("update: renders %v, not rendered %v", res2.Renders, res2.NotRendered)
	checkWidgetComments(t, out.ByURL(t)[blog.URL+"/p/three/"], threads["/p/three/"])
	if res2.Renders[harvest.ReasonKnownWidget] != 1 {
		t.Errorf("update renders %v: want 1 for %s (the new post loading the client)", res2.Renders, harvest.ReasonKnownWidget)
	}
	if len(res2.State.WidgetScripts) != 1 || res2.State.WidgetScripts[0] != client {
		t.Errorf("update: State.WidgetScripts %q, want [%s] kept", res2.State.WidgetScripts, client)
	}
}

// widgetComment is a comment of the test's comment service, as its API
// answers.
type widgetComment struct {
	ID       int             `json:"id"`
	Nick     string          `json:"nick"`
	Comment  string          `json:"comment"`
	Created  string          `json:"created"`
	Children []widgetComment `json:"children,omitempty"`
}

// checkWidgetComments checks that e holds every comment of thread, each
// reply under its parent.
func checkWidgetComments(t *testing.T, e *blogharvest.Entry, thread []widgetComment) {
	t.Helper()
	if e == nil {
		t.Error("post not archived")
		return
	}
	byText := map[string]blogharvest.Comment{}
	for _, c := range e.Comments {
		byText[textsim.NormalizeText(textsim.HTMLText(c.Content))] = c
	}
	want := 0
	var walk func(list []widgetComment, parent string)
	walk = func(list []widgetComment, parent string) {
		for _, c := range list {
			want++
			got, ok := byText[textsim.NormalizeText(c.Comment)]
			switch {
			case !ok:
				t.Errorf("%s: comment by %s not archived (archived: %d)", e.URL, c.Nick, len(e.Comments))
				continue
			case got.Author != c.Nick:
				t.Errorf("%s: comment %q by %q, want %q", e.URL, c.Comment, got.Author, c.Nick)
			case parent == "" && got.ParentID != "":
				t.Errorf("%s: comment by %s has parent %q, want none", e.URL, c.Nick, got.ParentID)
			case parent != "" && got.ParentID != byText[textsim.NormalizeText(parent)].ID:
				t.Errorf("%s: reply by %s has parent %q, want %q", e.URL, c.Nick, got.ParentID, byText[parent].ID)
			}
			walk(c.Children, c.Comment)
		}
	}
	walk(thread, "")
	if len(e.Comments) != want {
		t.Errorf("%s: %d comments archived, want %d", e.URL, len(e.Comments), want)
	}
}

// injectedBlog serves a small static blog whose posts embed the comment
// service at svc through injectors: /p/one/ an inline script, /p/two/ a
// script file of the blog's own (/js/site.js), /p/three/ inline code
// reading its options from a JSON block, /p/plain/ only an analytics
// snippet and a cookie banner. The feed has no comment counts.
type injectedBlog struct {
	svc   string
	mu    sync.Mutex
	posts []string
}

// add publishes one more post.
func (b *injectedBlog) add(p string) {
	b.mu.Lock()
	b.posts = append(b.posts, p)
	b.mu.Unlock()
}

func (b *injectedBlog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	posts := append([]string(nil), b.posts...)
	b.mu.Unlock()
	inject := `(function () {
  var box = document.createElement('div');
  box.id = 'talkroll';
  document.querySelector('article').after(box);
  var s = document.createElement('script');
  s.src = '` + b.svc + `/client.js';
  s.onload = function () { Talkroll.init({ el: '#talkroll', server: '` + b.svc + `' }); };
  document.body.appendChild(s);
})();`
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	switch {
	case r.URL.Path == "/js/site.js":
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, "document.documentElement.classList.add('js');\n"+inject)
		return
	case r.URL.Path == "/":
		var s strings.Builder
		s.WriteString(`<!doctype html><html><head><title>Crumb</title><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><body><h1>Crumb</h1><ul>`)
		for _, p := range posts {
			fmt.Fprintf(&s, `<li><a href="%s">%s</a></li>`, p, strings.Trim(p, "/"))
		}
		s.WriteString(`</ul></body></html>`)
		fmt.Fprint(w, s.String())
		return
	case r.URL.Path == "/feed.xml":
		w.Header().Set("Content-Type", "application/rss+xml")
		base := "http://" + r.Host
		var s strings.Builder
		fmt.Fprintf(&s, `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Crumb</title><link>%s/</link><description>Baking</description>`, base)
		for k := len(posts) - 1; k >= 0; k-- {
			d := time.Date(2025, 3, 1+k, 9, 0, 0, 0, time.UTC)
			if posts[k] == "/p/three/" {
				d = time.Now().UTC()
			}
			fmt.Fprintf(&s, `<item><title>%s</title><link>%s%s</link><guid>%s%s</guid><pubDate>%s</pubDate><description>%s</description></item>`,
				strings.Trim(posts[k], "/"), base, posts[k], base, posts[k], d.Format(time.RFC1123Z), injectedText(posts[k]))
		}
		s.WriteString(`</channel></rss>`)
		fmt.Fprint(w, s.String())
		return
	}
	k := -1
	for i, p := range posts {
		if p == r.URL.Path {
			k = i
		}
	}
	if k < 0 {
		http.NotFound(w, r)
		return
	}
	var embed string
	switch r.URL.Path {
	case "/p/one/":
		embed = "<script>" + inject + "</script>"
	case "/p/two/":
		embed = `<script src="/js/site.js"></script>`
	case "/p/three/":
		embed = `<script type="application/json" id="tr-opts">{"el": "#talkroll", "server": "` + b.svc + `"}</script>
<script>(function () {
  var o = JSON.parse(document.getElementById('tr-opts').textContent);
  var box = document.createElement('div'); box.id = 'talkroll'; document.querySelector('article').after(box);
  var s = document.createElement('script'); s.src = '` + b.svc + `/client.js';
  s.onload = function () { Talkroll.init(o); };
  document.body.appendChild(s);
})();</script>`
	default:
		embed = `<script>(function(i,s,o,g,r,a,m){a=s.createElement(o);m=s.getElementsByTagName(o)[0];a.async=1;a.src=g;m.parentNode.insertBefore(a,m)
})(window,document,'script','https://www.google-analytics.example/analytics.js','ga');</script>
<script>var b = document.createElement('div'); b.className = 'cookie-banner'; b.textContent = 'This site keeps no cookies.'; document.body.appendChild(b);</script>`
	}
	fmt.Fprintf(w, `<!doctype html><html><head><title>%s</title></head><body><header><a href="/">Crumb</a></header>
<main><article><h1>%s</h1><p class="byline">By Mara Quinn, <time datetime="2025-03-0%dT09:00:00Z">%d March 2025</time></p>%s</article></main>
%s<footer>© Crumb</footer></body></html>`, strings.Trim(r.URL.Path, "/"), strings.Trim(r.URL.Path, "/"), 1+k, 1+k, injectedText(r.URL.Path), embed)
}

// injectedText is the article of a post of injectedBlog.
func injectedText(p string) string {
	t := strings.Trim(p, "/")
	return fmt.Sprintf("<p>This post is about %s. It explains, step by step, what we learned from baking every weekend for a year.</p>"+
		"<p>Flour, water, salt and time are all it takes; the rest is patience and a warm kitchen. We kept notes on %s for months.</p>", t, t)
}

// widgetClientJS is the comment service's client: Talkroll.init draws
// the thread of the page's path from the service's API into the element
// its el names.
const widgetClientJS = `window.Talkroll = {
  init: function (o) {
    var host = typeof o.el === 'string' ? document.querySelector(o.el) : o.el;
    fetch(o.server + '/api/thread?path=' + encodeURIComponent(location.pathname))
      .then(function (r) { return r.json(); })
      .then(function (d) {
        function draw(list, into) {
          var ol = document.createElement('ol');
          ol.className = 'tr-list';
          list.forEach(function (c) {
            var li = document.createElement('li');
            li.className = 'tr-item';
            li.id = 'tr-' + c.id;
            li.innerHTML = '<div class="tr-head"><b class="tr-nick"></b> <time></time></div><div class="tr-body"></div>';
            li.querySelector('.tr-nick').textContent = c.nick;
            li.querySelector('time').setAttribute('datetime', c.created);
            li.querySelector('time').textContent = c.created.slice(0, 10);
            li.querySelector('.tr-body').textContent = c.comment;
            if (c.children && c.children.length) { draw(c.children, li); }
            ol.appendChild(li);
          });
          into.appendChild(ol);
        }
        draw(d.data || [], host);
      });
  }
};
`

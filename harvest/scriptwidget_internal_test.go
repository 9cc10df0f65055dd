package harvest

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestScriptWidget is issue 39's first part: a script that creates the
// element a comment widget mounts into and then calls the widget's init
// with the service's URL is a widget, whatever the service and however
// the injector writes it; analytics, tag managers, chat bubbles, social
// SDKs and cookie banners that create elements are not.
func TestScriptWidget(t *testing.T) {
	base, _ := url.Parse("https://blog.example/posts/a/")
	for _, tc := range []struct{ name, code, want, src string }{
		{"Waline through an injector", `(function () {
  var box = document.createElement('div');
  box.id = 'waline';
  document.querySelector('article').appendChild(box);
  var s = document.createElement('script');
  s.src = '/assets/waline/waline.umd.js';
  s.onload = function () { Waline.init({ el: '#waline', serverURL: 'https://comments.example' }); };
  document.body.appendChild(s);
})();`, "mounts a widget", "https://comments.example"},
		{"element passed itself, ES module", `import { init } from 'https://cdn.example/client.mjs';
const mount = document.createElement("section");
document.querySelector("main").after(mount);
init({ el: mount, serverURL: "https://talk.example/api/" });`, "creates a <section>", "https://talk.example/api/"},
		{"markup inserted, Artalk-like", "document.querySelector('.post').insertAdjacentHTML('afterend', `<div id=\"Comments\"></div>`);\nArtalk.init({ el: '#Comments', pageKey: location.pathname, server: 'https://artalk.example', site: 'Blog' });", "creates a <div>", "https://artalk.example"},
		{"constructor, Valine-like", `var d=document.createElement("div");d.className="vcomment";document.getElementById("post").appendChild(d);
new Valine({el:".vcomment",appId:"x",appKey:"y",serverURLs:"https://leancloud.example"});`, "mounts a widget", "https://leancloud.example"},
		{"environment URL, Twikoo-like, options built before", `const opts = { envId: 'https://twikoo.example/', el: '#tcomment' };
const c = document.createElement('div'); c.id = 'tcomment'; document.querySelector('.content').append(c);
twikoo.init(opts);`, "envId", "https://twikoo.example/"},
		{"data-attribute configuration, Cusdis-like", `var t = document.createElement('div');
t.id = 'cusdis_thread';
t.setAttribute('data-host', 'https://cusdis.example');
t.setAttribute('data-page-id', '42');
document.querySelector('article').after(t);
var s = document.createElement('script'); s.src = 'https://cusdis.example/js/cusdis.es.js'; document.body.appendChild(s);`, "data-host", "https://cusdis.example"},
		{"host and a loader into an element with an id, Remark42-like", `var remark_config = { host: 'https://remark.example', site_id: 'blog' };
var d = document.createElement('div'); d.setAttribute('id', 'remark42'); document.querySelector('article').after(d);
var s = document.createElement('script'); s.src = remark_config.host + '/web/embed.js'; s.defer = true; document.head.appendChild(s);`, "loads a widget", "https://remark.example"},

		{"Google Analytics", `(function(i,s,o,g,r,a,m){i['GoogleAnalyticsObject']=r;i[r]=i[r]||function(){
(i[r].q=i[r].q||[]).push(arguments)},i[r].l=1*new Date();a=s.createElement(o),
m=s.getElementsByTagName(o)[0];a.async=1;a.src=g;m.parentNode.insertBefore(a,m)
})(window,document,'script','https://www.google-analytics.com/analytics.js','ga');
ga('create', 'UA-1234-1', 'auto'); ga('send', 'pageview');`, "", ""},
		{"Google Tag Manager", `(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],
j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);
})(window,document,'script','dataLayer','GTM-XXXX');`, "", ""},
		{"Matomo", `var _paq = window._paq = window._paq || [];
_paq.push(['trackPageView']); _paq.push(['enableLinkTracking']);
(function() { var u="https://matomo.example/"; _paq.push(['setTrackerUrl', u+'matomo.php']); _paq.push(['setSiteId', '1']);
var d=document, g=d.createElement('script'), s=d.getElementsByTagName('script')[0]; g.async=true; g.src=u+'matomo.js'; s.parentNode.insertBefore(g,s); })();`, "", ""},
		{"chat bubble with an API host", `window.intercomSettings = { api_base: "https://api-iam.intercom.example", app_id: "abc" };
(function(){var w=window;var d=document;var s=d.createElement('script');s.type='text/javascript';s.async=true;
s.src='https://widget.intercom.example/widget/abc';var x=d.getElementsByTagName('script')[0];x.parentNode.insertBefore(s,x);
Intercom('boot', { app_id: 'abc' });})();`, "", ""},
		{"social SDK", `window.fbAsyncInit = function() { FB.init({ appId: '123', xfbml: true, version: 'v19.0' }); };
(function(d, s, id){ var js, fjs = d.getElementsByTagName(s)[0]; if (d.getElementById(id)) {return;}
js = d.createElement(s); js.id = id; js.src = "https://connect.facebook.example/en_US/sdk.js"; fjs.parentNode.insertBefore(js, fjs);
}(document, 'script', 'facebook-jssdk'));`, "", ""},
		{"error reporting", `Sentry.init({ dsn: 'https://key@o1.ingest.sentry.example/2', tracesSampleRate: 0.1 });`, "", ""},
		{"cookie banner", `var b = document.createElement('div'); b.className = 'cookie-banner';
b.innerHTML = '<p>We use cookies. <a href="https://blog.example/privacy/">Read more</a></p><button>OK</button>';
document.body.appendChild(b); CookieBanner.init({ el: b, policy: 'https://blog.example/privacy/' });`, "", ""},
		{"a service named, nothing created", `Waline.init({ el: '#waline', serverURL: 'https://comments.example' });`, "", ""},
		{"element created, no service", `var d = document.createElement('div'); d.id = 'toc'; document.querySelector('article').prepend(d); Toc.init({ el: '#toc', headings: 'h2,h3' });`, "", ""},
		{"created, service named, nothing mounted", `var d = document.createElement('div'); document.body.appendChild(d);
fetch('https://stats.example/hit', {method: 'POST'}); var conf = { apiHost: 'https://stats.example' };`, "", ""},
	} {
		got := scriptWidget(tc.code, base, "an inline script")
		switch {
		case tc.want == "" && got.reason != "":
			t.Errorf("%s: signal %q, want none", tc.name, got.reason)
		case tc.want != "" && !strings.Contains(got.reason, tc.want):
			t.Errorf("%s: signal %q, want one naming %q", tc.name, got.reason, tc.want)
		case got.src != tc.src:
			t.Errorf("%s: service %q, want %q", tc.name, got.src, tc.src)
		}
	}
}

// TestScriptWidgetReason: the part of the render decision that reads a
// page's scripts names a widget an inline injector mounts
// (ReasonScriptWidget) and a page naming a script an earlier render
// learned as a widget's loader (ReasonKnownWidget: in a src, with a
// query, or in inline code that loads it), and gives a page of analytics
// snippets or of other scripts no reason.
func TestScriptWidgetReason(t *testing.T) {
	base := mustURL(t, "http://blog.example/posts/a/")
	article := `<article><h1>T</h1><p>The text of the post, long enough to read as an article.</p></article>`
	loader := "http://blog.example/assets/talk/client.js"
	w := &pageWorker{site: &site{}, fetch: testFetching(Options{Render: RenderAuto}), widgets: newWidgetScripts([]string{loader})}
	may := func(s commentSignal) bool { return s.reason != "" }
	for _, tc := range []struct {
		name, body, want string
	}{
		{"inline injector", `<script>var box = document.createElement('div'); box.id = 'cmt'; document.querySelector('article').after(box);
Widget.init({ el: '#cmt', serverURL: 'http://blog.example/svc' });</script>`, ReasonScriptWidget},
		{"known loader as a src", `<script src="/assets/talk/client.js?v=3"></script>`, ReasonKnownWidget},
		{"known loader in inline code", `<script>var s=document.createElement('script');s.src='/assets/talk/client.js';document.head.appendChild(s);</script>`, ReasonKnownWidget},
		{"known loader in a JSON block", `<script type="application/json">{"src": "/assets/talk/client.js"}</script>`, ""},
		{"analytics", `<script>(function(i,s,o,g,r,a,m){a=s.createElement(o);m=s.getElementsByTagName(o)[0];a.async=1;a.src=g;m.parentNode.insertBefore(a,m)
})(window,document,'script','https://www.google-analytics.com/analytics.js','ga');</script>`, ""},
		{"another script", `<script src="/assets/theme.js"></script>`, ""},
	} {
		page := `<html><head><title>T</title></head><body>` + article + tc.body + `</body></html>`
		doc, _ := html.Parse(strings.NewReader(page))
		p := &fetchedPage{html: []byte(page), doc: doc, url: base, info: readBytes([]byte(page), base)}
		if got := w.scriptWidgetReason(context.Background(), p, may); got.key != tc.want {
			t.Errorf("%s: reason %q, want %q", tc.name, got, tc.want)
		}
	}
	w.widgets = newWidgetScripts(nil)
	page := `<html><body>` + article + `<script src="/assets/talk/client.js"></script></body></html>`
	doc, _ := html.Parse(strings.NewReader(page))
	if got := w.scriptWidgetReason(context.Background(), &fetchedPage{doc: doc, url: base}, may); got.key != "" {
		t.Errorf("no loader known: reason %q, want none", got)
	}
}

package commentsystems_test

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// TestCrawlArchivesScriptMountedWaline is issue 39's first part: the
// real Waline of TestCrawlArchivesRealCommentSystems embedded the way a
// static site generator's injector does, so that no downloaded page holds
// an element for it: a script creates <div id="waline"> after the
// article, loads the client and calls Waline.init with the server's URL.
// The first and third posts carry the injector as an inline script, the
// second as a script file of the blog's own (/assets/site/inject.js).
// The real binary in its default render mode must render each post for
// what its script does (reason script-widget), archive every seeded
// comment with its parent, keep the client it learned as the blog's
// widget loader in the Blog AIP's state file, and archive a comment added
// later through the API with the next crawl (crawlCommentSystem).
func TestCrawlArchivesScriptMountedWaline(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a comment service, processes and a browser")
	}
	t.Parallel()
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("no chromium")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node: Waline is a Node.js service")
	}
	logs, archive := crawlCommentSystem(t, injectedWaline{startWaline(t)}, threadPlan)
	checkWidgetState(t, archive)
	for post, by := range map[string]string{"rye-bread": "an inline script", "sourdough-starter": "the script ", "winter-proofing": "an inline script"} {
		re := regexp.MustCompile(`msg=render [^\n]*\burl=\S*/posts/` + post + `/ reason="script-widget: ` + regexp.QuoteMeta(by) + `[^"]*`)
		m := re.FindString(logs)
		if m == "" {
			t.Errorf("%s: no render for reason script-widget by %q logged\n%s", post, by, daemontest.LastLines(grepLines(logs, "msg=render"), 10))
			continue
		}
		t.Logf("%s: %s", post, m)
		if post == "sourdough-starter" && !strings.Contains(m, "/assets/site/inject.js") {
			t.Errorf("%s: the render reason does not name the blog's script file: %s", post, m)
		}
	}
}

// injectedWaline is Waline embedded through a site generator's injector
// (see TestCrawlArchivesScriptMountedWaline).
type injectedWaline struct{ *waline }

// injector is the code that creates Waline's element, loads its client
// and calls its init.
func (w injectedWaline) injector() string {
	return `(function () {
  var mount = document.createElement('div');
  mount.id = 'waline';
  document.querySelector('article').after(mount);
  var css = document.createElement('link');
  css.rel = 'stylesheet';
  css.href = '/assets/waline/waline.css';
  document.head.appendChild(css);
  var s = document.createElement('script');
  s.src = '/assets/waline/waline.umd.js';
  s.onload = function () { Waline.init({ el: '#waline', serverURL: '` + w.url + `' }); };
  document.body.appendChild(s);
})();`
}

// embed is the injector inline, or for the second post a script of the
// blog's own.
func (w injectedWaline) embed(path string) string {
	if strings.Contains(path, "sourdough-starter") {
		return `<script src="/assets/site/inject.js"></script>`
	}
	return "<script>" + w.injector() + "</script>"
}

// assets serves Waline's client and the blog's injector script.
func (w injectedWaline) assets() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/assets/waline/", w.waline.assets())
	mux.HandleFunc("/assets/site/inject.js", func(rw http.ResponseWriter, _ *http.Request) {
		rw.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		fmt.Fprint(rw, "document.documentElement.classList.add('js');\n"+w.injector())
	})
	return mux
}

// grepLines returns the lines of s holding sub.
func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// checkWidgetState checks that the Blog AIP under archive keeps a script
// of Waline's client among the blog's widget loaders (its state file).
func checkWidgetState(t *testing.T, archive string) {
	t.Helper()
	var states []string
	filepath.WalkDir(archive, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "state.json" {
			states = append(states, p)
		}
		return nil
	})
	for _, p := range states {
		if data, err := os.ReadFile(p); err == nil && strings.Contains(string(data), `"widget_scripts"`) && strings.Contains(string(data), "waline.umd.js") {
			return
		}
	}
	t.Errorf("no Blog AIP state file under the archive names Waline's client among the widget scripts (%d state files)", len(states))
}

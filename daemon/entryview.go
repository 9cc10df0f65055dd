package daemon

import (
	"container/list"
	"context"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/internal/lazyregexp"
	"github.com/blogharvest/blogharvest/report"
)

// Looking at an entry as it looked: the status page links each Entry AIP
// it names to "entry?bag=<its folder>", which opens the WACZ of that
// entry version (report.WriteWACZ with WACZOptions.Entry: the entry's WARC
// and its blog's requisites) in ReplayWeb.page when the config names its
// files (replay_web_page: the folder of the npm package replaywebpage,
// holding ui.js and sw.js, served under replay/), and otherwise hands the
// WACZ over as a download ("entry.wacz?bag=…"). Links are relative, so the
// pages work behind a reverse proxy under a path prefix; ReplayWeb.page's
// service worker needs a secure context (https, or a loopback address).

// entryBagRE is the shape of an Entry AIP version's folder in an archive:
// <blog-id>/entries/<yyyy or undated>/<entry-key>/v<N>.
var entryBagRE = lazyregexp.New(`^[a-z0-9][a-z0-9._-]*/entries/[a-z0-9]+/[a-z0-9][a-z0-9._-]*/v[1-9][0-9]*$`)

// isEntryBag reports whether name is an Entry AIP version's folder.
func isEntryBag(name string) bool {
	return entryBagRE.MatchString(name) && blogharvest.ValidID(strings.SplitN(name, "/", 2)[0]) == nil &&
		path.Clean(name) == name
}

// aipRef is an AIP a status page names, and the way from that page to the
// server's root ("" or "../"), for its link.
type aipRef struct {
	Base, Name string
}

// entryViews serves the entry pages and their WACZ files, keeping the last
// few WACZ files made (a published bag never changes: neither does its
// WACZ).
type entryViews struct {
	plan *planner     // the running config
	view *archiveView // the archive the entries are read from

	mu    sync.Mutex
	dir   string                   // the temporary folder of the WACZ files; made at first use
	files map[string]*list.Element // bag → its element in lru (a *waczFile)
	lru   *list.List
	build sync.Mutex // one WACZ made at a time
}

// waczFile is a WACZ made for a bag.
type waczFile struct{ bag, path string }

// maxEntryWACZ bounds the WACZ files kept; the oldest used is removed.
const maxEntryWACZ = 16

// routes adds the entry pages and ReplayWeb.page's files to mux.
func (v *entryViews) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /entry", v.page)
	mux.HandleFunc("GET /entry.wacz", v.wacz)
	for _, f := range []string{"ui.js", "sw.js"} {
		mux.HandleFunc("GET /replay/"+f, func(w http.ResponseWriter, r *http.Request) {
			dir := v.plan.config().ReplayWebPage
			if dir == "" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/javascript")
			http.ServeFile(w, r, filepath.Join(dir, f))
		})
	}
	// What ReplayWeb.page's service worker answers once it controls
	// replay/: a frame that reaches the server came before it took
	// control, and tries again.
	mux.HandleFunc("GET /replay/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><script>setTimeout(() => location.reload(), 500)</script>`)
	})
}

// config returns the running config.
func (p *planner) config() *Config {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.env.Config
}

// bag returns the request's bag, or writes an error and returns "".
func (v *entryViews) bag(w http.ResponseWriter, r *http.Request) string {
	name := r.URL.Query().Get("bag")
	if !isEntryBag(name) {
		http.Error(w, "bag: not an Entry AIP version's folder (<blog-id>/entries/<year>/<entry-key>/v<N>)", http.StatusBadRequest)
		return ""
	}
	st := v.view.store()
	if st == nil {
		http.Error(w, "the archive cannot be read", http.StatusServiceUnavailable)
		return ""
	}
	if _, err := st.Stat(path.Join(name, "bagit.txt")); err != nil {
		http.Error(w, fmt.Sprintf("no bag %s in the archive", name), http.StatusNotFound)
		return ""
	}
	return name
}

// entryPage is the page that replays an entry in ReplayWeb.page.
var entryPage = template.Must(template.New("entry").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Bag}} — blogharvest</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<script src="replay/ui.js"></script>
<style>html,body{margin:0;height:100%;font:14px system-ui,sans-serif}
header{padding:0.3em 0.6em;background:#f0f0f0;border-bottom:1px solid #ccc}
replay-web-page{display:block;width:100%;height:calc(100% - 2.2em)}</style></head>
<body><header><a href="./">← status</a> · <code>{{.Bag}}</code> · <a href="{{.URL}}" rel="noreferrer">{{.URL}}</a> ·
<a href="{{.WACZ}}" download>WACZ</a></header>
<replay-web-page source="{{.WACZ}}" url="{{.URL}}" embed="replayonly"></replay-web-page>
</body></html>
`))

// page serves the replay page of the entry, or sends to its WACZ when
// ReplayWeb.page is not configured.
func (v *entryViews) page(w http.ResponseWriter, r *http.Request) {
	name := v.bag(w, r)
	if name == "" {
		return
	}
	wacz := "entry.wacz?bag=" + name
	if v.plan.config().ReplayWebPage == "" {
		http.Redirect(w, r, wacz, http.StatusSeeOther)
		return
	}
	permalink := ""
	if info, err := fs.ReadFile(v.view.store(), path.Join(name, "bag-info.txt")); err == nil {
		for _, l := range strings.Split(string(info), "\n") {
			if s, ok := strings.CutPrefix(l, "External-Identifier: "); ok {
				permalink = strings.TrimSpace(s)
			}
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	entryPage.Execute(w, map[string]string{"Bag": name, "URL": permalink, "WACZ": wacz})
}

// wacz serves the WACZ of the entry (range requests answered: ReplayWeb.page
// reads it so).
func (v *entryViews) wacz(w http.ResponseWriter, r *http.Request) {
	name := v.bag(w, r)
	if name == "" {
		return
	}
	p, err := v.file(r.Context(), name)
	if err != nil {
		http.Error(w, "WACZ not made: "+publicText(err.Error(), v.plan.config()), http.StatusInternalServerError)
		return
	}
	f, err := os.Open(p)
	if err != nil {
		http.Error(w, "WACZ not made: "+publicText(err.Error(), v.plan.config()), http.StatusInternalServerError)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "application/wacz+zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", strings.ReplaceAll(name, "/", "-")+".wacz"))
	http.ServeContent(w, r, "", time.Time{}, f)
}

// file returns the WACZ file of bag, making it if it is not kept.
func (v *entryViews) file(ctx context.Context, bag string) (string, error) {
	v.build.Lock()
	defer v.build.Unlock()
	v.mu.Lock()
	if v.files == nil {
		v.files, v.lru = map[string]*list.Element{}, list.New()
	}
	if el, ok := v.files[bag]; ok {
		v.lru.MoveToFront(el)
		v.mu.Unlock()
		return el.Value.(*waczFile).path, nil
	}
	if v.dir == "" {
		dir, err := os.MkdirTemp("", "blogharvest-entry-wacz-")
		if err != nil {
			v.mu.Unlock()
			return "", err
		}
		v.dir = dir
	}
	dir := v.dir
	v.mu.Unlock()
	st := v.view.store()
	target, err := report.ResolveIn(st, strings.SplitN(bag, "/", 2)[0])
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, strings.ReplaceAll(bag, "/", "-")+".wacz")
	err = writeOutput(out, nil, func(w io.Writer) error {
		_, err := report.WriteWACZ(ctx, target, report.WACZOptions{Software: Build().Software(), Entry: bag, Title: bag}, w)
		return err
	})
	if err != nil {
		return "", err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.files[bag] = v.lru.PushFront(&waczFile{bag: bag, path: out})
	for v.lru.Len() > maxEntryWACZ {
		old := v.lru.Remove(v.lru.Back()).(*waczFile)
		delete(v.files, old.bag)
		os.Remove(old.path)
	}
	return out, nil
}

// close removes the WACZ files made.
func (v *entryViews) close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.dir != "" {
		os.RemoveAll(v.dir)
		v.dir, v.files, v.lru = "", nil, nil
	}
}

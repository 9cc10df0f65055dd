package commentsystems_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// waline is Waline (walinejs: the @waline/vercel server with SQLite
// storage, and the @waline/client script) running for one test.
type waline struct {
	dir, url string      // url: the counting proxy in front of the server
	log      *requestLog // what the server received
}

// startWaline starts the Waline installed under commentSystemsDir on a
// random loopback port; the test skips when it is not installed. Its
// OAuth service list, which Waline fetches on every request, comes from a
// loopback server answering that there are none (no network here), and
// Akismet, the comment rate limit and the region lookup are switched off.
func startWaline(t *testing.T) *waline {
	dir := filepath.Join(commentSystemsDir(), "waline")
	for _, p := range []string{"node_modules/@waline/vercel/package.json", "node_modules/@waline/client/dist/waline.umd.js", "node_modules/sqlite3/build/Release/node_sqlite3.node"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Skipf("Waline is not installed in %s (.ci/run installs @waline/vercel and @waline/client there): %v", dir, err)
		}
	}
	oauth := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"services":[]}`)
	}))
	t.Cleanup(oauth.Close)
	port := daemontest.FreePort(t)
	script, err := filepath.Abs("testdata/waline/start.js")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", script)
	cmd.Env = append(os.Environ(), "BH_WALINE_DIR="+dir, "BH_WALINE_PORT="+strconv.Itoa(port),
		"SQLITE_PATH="+t.TempDir(), "SQLITE_DB=waline", "OAUTH_URL="+oauth.URL+"/", "AKISMET_KEY=false",
		"IPQPS=0", "DISABLE_REGION=true", "DISABLE_USERAGENT=true")
	w := &waline{dir: dir, log: &requestLog{}}
	w.url = countingProxy(t, fmt.Sprintf("http://127.0.0.1:%d", port), w.log).URL
	startService(t, cmd, w.url+"/api/comment?path=/")
	return w
}

func (w *waline) origin() string { return w.url }

func (w *waline) requests() *requestLog { return w.log }

// thread: the client reads a post's thread from GET /api/comment?path=…
// (its other calls: ?type=count, /api/article for page views, /api/user).
func (w *waline) thread(r loggedRequest) bool {
	q := r.url.Query()
	return r.url.Path == "/api/comment" && q.Has("path") && !q.Has("type")
}

// embed is Waline's stock embedding: an empty element and the client's
// UMD build, initialised inline with the server's URL.
func (w *waline) embed(string) string {
	return `<link rel="stylesheet" href="/assets/waline/waline.css"><div id="waline"></div>
<script src="/assets/waline/waline.umd.js"></script>
<script>Waline.init({ el: '#waline', serverURL: '` + w.url + `' });</script>`
}

func (w *waline) assets() http.Handler {
	return http.StripPrefix("/assets/waline/", http.FileServer(http.Dir(filepath.Join(w.dir, "node_modules/@waline/client/dist"))))
}

// post adds a comment through Waline's API: POST /api/comment, a reply
// naming its parent (pid) and its thread's root (rid).
func (w *waline) post(t *testing.T, path, author, text string, parent *seeded) *seeded {
	t.Helper()
	req := map[string]any{"nick": author, "mail": "reader@example.org", "comment": text, "url": path, "ua": "Mozilla/5.0"}
	s := &seeded{author: author, text: text, parent: parent}
	s.root = s
	if parent != nil {
		s.root = parent.root
		pid, _ := strconv.Atoi(parent.id)
		rid, _ := strconv.Atoi(parent.root.id)
		req["pid"], req["rid"], req["at"] = pid, rid, parent.author
	}
	var resp struct {
		Errno  int    `json:"errno"`
		Errmsg string `json:"errmsg"`
		Data   struct {
			ObjectID any `json:"objectId"`
		} `json:"data"`
	}
	postJSON(t, w.url+"/api/comment", req, &resp)
	if resp.Errno != 0 || resp.Data.ObjectID == nil {
		t.Fatalf("Waline refused the comment by %s: %d %s", author, resp.Errno, resp.Errmsg)
	}
	s.id = fmt.Sprint(resp.Data.ObjectID)
	return s
}

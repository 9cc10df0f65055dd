package daemon_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// TestHostileURLs crawls a blog whose post holds an image URL with spaces,
// braces and quotes (/i.png?q=a b&r={"x":1}) and a link whose path hides
// "../" as %2F (/post/..%2F..%2Fetc%2Fpasswd/) (issue 38, findings 4 and
// 14). Every request line the blog receives is percent-encoded (no space,
// brace or quote), the %2F path is asked for as such and /etc/passwd/
// never; `check` finds the archive clean (its CDXJ keys well formed) and
// `export -format wacz` of the whole blog succeeds. Before, the image was
// asked for with raw spaces, check called the index line malformed, the
// WACZ export failed, and the link was fetched as /etc/passwd/.
func TestHostileURLs(t *testing.T) {
	t.Parallel()
	b := newRawBlog(4)
	const img = `/i.png?q=a b&r={"x":1}`
	b.posts[0].body = `<p><img src='` + img + `' alt="a picture"> <a href="/post/..%2F..%2Fetc%2Fpasswd/">a trap</a></p>` + b.posts[0].body
	var mu sync.Mutex
	var lines []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		lines = append(lines, r.RequestURI)
		mu.Unlock()
		if r.URL.Path == "/i.png" {
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"))
			return
		}
		b.ServeHTTP(w, r)
	}))
	defer srv.Close()
	dir, code, stdout, stderr := crawlRaw(t, srv.URL)
	if code != 0 {
		t.Errorf("crawl: exit %d\n%s\n%s", code, stdout, stderr)
	}
	mu.Lock()
	var image, trap bool
	for _, l := range lines {
		if strings.ContainsAny(l, " {}\"<>") {
			t.Errorf("request line %q is not percent-encoded", l)
		}
		image = image || strings.HasPrefix(l, "/i.png?")
		trap = trap || l == "/post/..%2F..%2Fetc%2Fpasswd/"
		if strings.Contains(l, "/etc/passwd") && !strings.Contains(l, "%2F") {
			t.Errorf("the %%2F link was fetched decoded: %q", l)
		}
	}
	mu.Unlock()
	if !image || !trap {
		t.Errorf("the image (%v) or the %%2F link (%v) was not asked for; requests %q", image, trap, lines)
	}
	if code, out, stderr := daemontest.Run(t, "check", filepath.Join(dir, "archive")); code != 0 {
		t.Errorf("check: exit %d\n%s%s", code, out, stderr)
	}
	wacz := filepath.Join(dir, "raw.wacz")
	if code, out, stderr := daemontest.Run(t, "export", "-format", "wacz", "-out", wacz, filepath.Join(dir, "archive", "raw")); code != 0 {
		t.Errorf("export -format wacz: exit %d\n%s%s", code, out, stderr)
	} else if st, err := os.Stat(wacz); err != nil || st.Size() == 0 {
		t.Errorf("no WACZ written: %v", err)
	}
}

package capture_test

import (
	"crypto/tls"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
	"github.com/blogharvest/blogharvest/internal/tlstest"
)

// TestCrawlThroughInstitutionProxy runs the real binary as an institution
// does: `crawl -url https://… -out DIR` with HTTPS_PROXY naming a proxy that
// alone knows where the blog lives (no local DNS), and SSL_CERT_FILE naming
// the CA its certificates chain to. Every post must be archived and valid.
func TestCrawlThroughInstitutionProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process and crawls a blog")
	}
	t.Parallel()
	const host = "blog.example.org"
	ca := tlstest.NewCA(t)
	site := fixture.MustNew("static")
	blog := httptest.NewUnstartedServer(site.Handler())
	blog.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t, host)}}
	blog.StartTLS()
	defer blog.Close()
	px := &tlstest.ConnectProxy{Routes: map[string]string{host + ":443": blog.Listener.Addr().String()}}
	proxy := httptest.NewUnstartedServer(px)
	proxy.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t, "127.0.0.1")}, NextProtos: []string{"http/1.1"}}
	proxy.StartTLS()
	defer proxy.Close()

	out := t.TempDir()
	cmd := exec.Command(daemontest.Binary(), "crawl", "-url", "https://"+host+"/", "-out", out, "-delay", "1ms", "-render", "never")
	cmd.Env = append(os.Environ(), "HTTPS_PROXY="+proxy.URL, "HTTP_PROXY=", "NO_PROXY=", "no_proxy=",
		"SSL_CERT_FILE="+ca.WriteFile(t))
	logs, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("crawl through proxy: %v\n%s", err, daemontest.LastLines(string(logs), 30))
	}
	tr := site.Truth("https://" + host)
	bags, _ := filepath.Glob(filepath.Join(out, host, "entries", "*", "*", "v1", "bag-info.txt"))
	if want := len(tr.Posts) + len(tr.Pages); len(bags) != want {
		t.Errorf("%d entry AIPs, want %d\n%s", len(bags), want, daemontest.LastLines(string(logs), 20))
	}
	for _, a := range px.Asked() {
		if !strings.HasPrefix(a, "CONNECT "+host+":443") {
			t.Errorf("proxy was asked %q: every request must be a tunnel to the blog", a)
		}
	}
	daemontest.CheckArchive(t, out)
}

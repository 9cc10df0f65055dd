package process_test

import (
	"encoding/json"
	"fmt"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestWebhookOnFailure runs the daemon with two blogs whose server is
// down and a webhook on a loopback receiver whose URL carries a token and
// whose config adds a secret header. The receiver refuses the first
// delivery of each notification (503), so each is tried again. Each failed
// run must reach it as exactly one notification (one id accepted per
// failure, run-failed, naming the blog and its failures in a row), with
// the header; neither secret may appear in the log, /status or the status
// page.
func TestWebhookOnFailure(t *testing.T) {
	t.Parallel()
	const token, header = "tok-6d1f0c2a9e", "hdr-secret-b7e4"
	var mu sync.Mutex
	tries := map[string]int{}               // notification id → deliveries seen
	accepted := map[string]map[string]any{} // notification id → body accepted
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var n map[string]any
		if r.Method != http.MethodPost || r.URL.Query().Get("token") != token || r.Header.Get("X-Hook-Secret") != header ||
			json.Unmarshal(body, &n) != nil {
			t.Errorf("webhook call: %s %s, header %q, body %s", r.Method, r.URL, r.Header.Get("X-Hook-Secret"), body)
			http.Error(w, "bad call", http.StatusBadRequest)
			return
		}
		id, _ := n["id"].(string)
		mu.Lock()
		defer mu.Unlock()
		tries[id]++
		if tries[id] == 1 {
			http.Error(w, "try again", http.StatusServiceUnavailable)
			return
		}
		if _, dup := accepted[id]; dup {
			t.Errorf("notification %s delivered again after it was accepted", id)
		}
		accepted[id] = n
	}))
	defer hook.Close()

	dir := t.TempDir()
	listen := daemontest.FreeAddr(t)
	cfg := filepath.Join(dir, "blogs.yaml")
	y := fmt.Sprintf(`archive: %s
state: %s
listen: %s
log: {format: json, level: info}
notify:
  webhook: %s/hook?token=%s
  headers: {X-Hook-Secret: %s}
  retries: 2
blogs:
  - id: gone-a
    url: %s
    schedule: "@daily"
  - id: gone-b
    url: %s
    schedule: "@daily"
`, filepath.Join(dir, "archive"), filepath.Join(dir, "state", "schedule.db"), listen, hook.URL, token, header, deadURL(t), deadURL(t))
	if err := os.WriteFile(cfg, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	p := daemontest.Start(t, "run", "-config", cfg)
	daemontest.WaitFor(t, "two notifications delivered", 2*time.Minute, func() bool {
		return strings.Count(p.Logs.String(), `"msg":"notification delivered"`) >= 2
	})
	var st struct{ Blogs []map[string]any }
	if err := json.Unmarshal([]byte(daemontest.HTTPGet(t, "http://"+listen+"/status")), &st); err != nil {
		t.Fatal(err)
	}
	failures := 0
	for _, b := range st.Blogs {
		failures += int(b["consecutive_failures"].(float64))
	}
	mu.Lock()
	var blogs []string
	for id, n := range accepted {
		if n["event"] != "run-failed" || n["consecutive_failures"] != 1.0 || n["error"] == "" || tries[id] != 2 {
			t.Errorf("notification %s: %v after %d deliveries", id, n, tries[id])
		}
		blogs = append(blogs, fmt.Sprint(n["blog"]))
	}
	mu.Unlock()
	sort.Strings(blogs)
	if failures != 2 || strings.Join(blogs, ",") != "gone-a,gone-b" {
		t.Errorf("%d failed runs, notifications for %v; want one per failure, one per blog", failures, blogs)
	}
	shown := p.Logs.String() + daemontest.HTTPGet(t, "http://"+listen+"/status") + daemontest.HTTPGet(t, "http://"+listen+"/?refresh=0")
	for _, secret := range []string{token, header} {
		if strings.Contains(shown, secret) {
			t.Errorf("the secret %q appears in the log, /status or the status page", secret)
		}
	}
	if !strings.Contains(p.Logs.String(), `"msg":"notification failed; trying again"`) {
		t.Error("the refused first deliveries were not logged")
	}
	if code := p.Stop(t, syscall.SIGTERM, time.Minute); code != 0 {
		t.Errorf("exit %d after SIGTERM", code)
	}
}

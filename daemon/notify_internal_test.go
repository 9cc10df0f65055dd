package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestNotifierRetriesBounded: a webhook that always fails is tried
// 1 + retries times, then given up with an ERROR line naming it by scheme
// and host only; the command gets the same JSON body on its standard
// input; send never blocks, even with the queue full.
func TestNotifierRetriesBounded(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		http.Error(w, "down", http.StatusBadGateway)
	}))
	defer hook.Close()
	out := filepath.Join(t.TempDir(), "body.json")
	retries := 2
	var logs bytes.Buffer
	nt := newNotifier(Notify{Webhook: hook.URL + "/x?token=tok-secret", Retries: &retries,
		Command: []string{"sh", "-c", "cat > " + out}}, slog.New(slog.NewJSONHandler(&logs, nil)))
	nt.wait = func(int) time.Duration { return 0 }
	n := Notification{Event: "run-failed", Blog: "b", ConsecutiveFailures: 3}
	nt.send(n)
	n2 := <-nt.queue
	nt.deliver(context.Background(), n2)
	if got := calls.Load(); got != int32(1+retries) {
		t.Errorf("the failing webhook was called %d times, want %d", got, 1+retries)
	}
	if !strings.Contains(logs.String(), `"msg":"notification not delivered"`) || strings.Contains(logs.String(), "tok-secret") ||
		!strings.Contains(logs.String(), hook.URL+"/…") {
		t.Errorf("log:\n%s", logs.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var got Notification
	if err := json.Unmarshal(data, &got); err != nil || got.ID != n2.ID || got.Blog != "b" || got.ConsecutiveFailures != 3 {
		t.Errorf("the command read %s (%v), want the notification %s", data, err, n2.ID)
	}
	done := make(chan struct{})
	go func() {
		for range notifyQueue + 5 { // nobody delivers: the queue fills, the rest is dropped
			nt.send(n)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(3 * time.Minute):
		t.Fatal("send blocked on a full queue")
	}
}

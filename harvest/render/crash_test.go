package render_test

import (
	"context"
	"strings"
	"syscall"
	"testing"
)

// renderWhile renders slow.html (its script takes 1.5 s to arrive) and runs
// kill when the page asks for that script: the page is loading, in its
// renderer, and the render is not over.
func renderWhile(t *testing.T, kill func()) {
	t.Helper()
	b := browser(t)
	asked := blog.nextHit("/api/slowjs")
	go func() {
		<-asked
		kill()
	}()
	res, err := b.Render(context.Background(), "http://blog.test/slow.html")
	if err != nil {
		t.Fatalf("Render after the crash: %v", err)
	}
	if !strings.Contains(string(res.HTML), `<p id="state">done</p>`) {
		t.Errorf("page not rendered fully on retry:\n%s", res.HTML)
	}
	if len(res.Notes) == 0 || !strings.Contains(res.Notes[len(res.Notes)-1], "retried after browser failure") {
		t.Errorf("Notes = %q, want the retry noted", res.Notes)
	}
}

func TestBrowserKilledMidRender(t *testing.T) {
	b := browser(t)
	pid := b.PID()
	renderWhile(t, func() {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Errorf("kill browser %d: %v", pid, err)
		}
	})
	if b.PID() == pid || b.PID() == 0 {
		t.Errorf("browser pid %d after restart, was %d", b.PID(), pid)
	}
	renderOK(t, context.Background(), "http://blog.test/dynamic.html") // still works
}

func TestRendererKilledMidRender(t *testing.T) {
	b := browser(t)
	pid := b.PID()
	renderWhile(t, func() {
		killed := 0
		for _, p := range processTree(pid) {
			if strings.Contains(p.cmdline, "--type=renderer") {
				if syscall.Kill(p.pid, syscall.SIGKILL) == nil {
					killed++
				}
			}
		}
		if killed == 0 {
			t.Error("no renderer process found to kill")
		}
		t.Logf("killed %d renderer processes", killed)
	})
	if b.PID() != pid {
		t.Errorf("browser restarted (pid %d, was %d) though only a renderer died", b.PID(), pid)
	}
}

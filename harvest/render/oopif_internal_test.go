package render

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestOutOfProcessFrame keeps Chromium's site isolation on, so the comment
// frame of another site runs in a process of its own and is reached by
// attaching to its target: its "load more" is clicked and its document
// captured.
func TestOutOfProcessFrame(t *testing.T) {
	if _, err := findBrowser(""); err != nil {
		t.Skipf("no browser installed: %v", err)
	}
	siteIsolation = true
	defer func() { siteIsolation = false }()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!DOCTYPE html><title>p</title><h1>Post</h1><iframe src="http://thread.test/embed" width=500 height=300></iframe>`)
	}))
	defer page.Close()
	thread := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!DOCTYPE html><title>t</title><div id=c><p class=comment>one</p></div>
<button type=button onclick="var p=document.createElement('p');p.className='comment';p.textContent='two';document.getElementById('c').appendChild(p);this.remove()">Load more comments</button>`)
	}))
	defer thread.Close()
	rules := fmt.Sprintf("MAP post.test %s, MAP thread.test %s", strings.TrimPrefix(page.URL, "http://"), strings.TrimPrefix(thread.URL, "http://"))
	b, err := New(context.Background(), Options{Tabs: 1, Timeout: 2 * time.Minute, HostRules: rules})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	res, sessions := renderCounting(t, b, "http://post.test/")
	if sessions != 2 {
		t.Errorf("%d DevTools sessions, want the tab's and the frame's: is site isolation on?", sessions)
	}
	if len(res.Frames) != 1 || res.Frames[0].URL != "http://thread.test/embed" {
		t.Fatalf("frames %+v, notes %q; want the thread's frame", res.Frames, res.Notes)
	}
	if n := strings.Count(string(res.Frames[0].HTML), `class="comment"`); n != 2 || res.Clicks != 1 {
		t.Errorf("frame has %d comments after %d clicks, want 2 after 1; notes %q", n, res.Clicks, res.Notes)
	}
	if len(res.Notes) != 0 {
		t.Errorf("notes %q", res.Notes)
	}
}

// renderCounting renders url in a pooled tab as Render does and returns the
// result with the number of DevTools sessions the render used.
func renderCounting(t *testing.T, b *Browser, url string) (*Result, int) {
	t.Helper()
	ctx := context.Background()
	tb, err := b.acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p := &pageRun{o: b.o, url: url, t: tb, worlds: newWorlds(), cost: &b.cost}
	res, err := b.renderIn(ctx, p)
	n := len(p.sess)
	b.release(tb, resetTab(tb))
	p.closeSessions()
	if err != nil {
		t.Fatal(err)
	}
	return res, n
}

package render_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/render"
)

// TestUnrecordedResponseNamed: a response the browser received but whose
// body it did not keep for the recorder (a 40 MiB download, over
// Chromium's per-resource buffer) is not silently left out: it is named in
// Result.Unrecorded with the reason, and the page's other responses are
// still recorded.
func TestUnrecordedResponseNamed(t *testing.T) {
	browser(t) // skips without a browser, fails if it did not start
	o := sharedOptions()
	o.Record = true
	b, err := render.New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	res, err := b.Render(context.Background(), "http://blog.test/big.html")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.HTML), "41943040 bytes") {
		t.Fatalf("the page's script did not receive the whole file:\n%s", res.HTML)
	}
	for _, r := range res.Responses {
		if u := r.Exchanges[len(r.Exchanges)-1].URL; strings.Contains(u, "/api/big") {
			t.Skipf("this Chromium kept the 40 MiB body (%d bytes): nothing unrecorded to name", len(r.Body))
		}
	}
	var named bool
	for _, u := range res.Unrecorded {
		t.Logf("unrecorded: %s: %s", u.URL, u.Why)
		named = named || strings.Contains(u.URL, "/api/big?mb=40") && u.Why != ""
	}
	if !named {
		t.Errorf("the download whose body was not kept is not in Result.Unrecorded (%d responses recorded, unrecorded %v)",
			len(res.Responses), res.Unrecorded)
	}
	if len(res.Responses) == 0 {
		t.Error("no response recorded at all")
	}
}

// TestUnfinishedRequestNamed: a request the page sent that had not
// finished when the page was captured (a long poll the server never
// answers) may have reached the server, so it is named in
// Result.Unrecorded, not dropped without a word.
func TestUnfinishedRequestNamed(t *testing.T) {
	browser(t) // skips without a browser, fails if it did not start
	t.Parallel()
	o := sharedOptions()
	o.Record, o.Screenshot = true, false
	b, err := render.New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := b.Render(ctx, "http://blog.test/never.html")
	if err != nil {
		t.Fatal(err)
	}
	var named bool
	for _, u := range res.Unrecorded {
		named = named || strings.Contains(u.URL, "/api/hang") && strings.Contains(u.Why, "not loaded")
	}
	for _, r := range res.Responses {
		if strings.Contains(r.Exchanges[len(r.Exchanges)-1].URL, "/api/hang") {
			t.Errorf("the request never answered is recorded as a response")
		}
	}
	if !named {
		t.Errorf("the request still loading at capture is not in Result.Unrecorded (%d responses, unrecorded %v)",
			len(res.Responses), res.Unrecorded)
	}
}

// TestNoRequestAfterCaptureUnseen: every request that reached the server
// is one the results account for, recorded as a response or named in
// Result.Unrecorded. The page asks the server every 20 ms until its
// document is gone; the capture blocks the tab's requests before it reads
// the bodies, so none sent after it (while the bodies are read, and until
// the old document is torn down after the tab's reset) reaches the server
// unseen, as one did in TestWARCRecordsSayWhatHappened under load. The
// page is rendered twice in the browser's one tab: the second load lifts
// the block (its ticks are recorded too).
func TestNoRequestAfterCaptureUnseen(t *testing.T) {
	browser(t) // skips without a browser, fails if it did not start
	t.Parallel()
	o := sharedOptions()
	o.Record, o.Screenshot, o.Tabs = true, false, 1
	b, err := render.New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	before := blog.hitCount("/api/tick") // -count
	accounted := 0
	for i := range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		res, err := b.Render(ctx, "http://blog.test/ticker.html")
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		recorded, named := 0, 0
		for _, r := range res.Responses {
			if strings.Contains(r.Exchanges[len(r.Exchanges)-1].URL, "/api/tick") {
				recorded++
			}
		}
		for _, u := range res.Unrecorded {
			if strings.Contains(u.URL, "/api/tick") {
				named++
			}
		}
		t.Logf("render %d: /api/tick %d recorded, %d named unrecorded", i+1, recorded, named)
		// On a loaded machine the page's time may run out before any body
		// is read: every tick is then named, none recorded, which is the
		// promise kept too.
		if recorded+named == 0 {
			t.Fatalf("render %d: no tick recorded or named: the page did not run", i+1)
		}
		accounted += recorded + named
	}
	b.Close() // no tab left to ask
	served := blog.hitCount("/api/tick") - before

	t.Logf("/api/tick: %d served, %d accounted for", served, accounted)
	if served > accounted {
		t.Errorf("%d requests reached the server, the results account for %d", served, accounted)
	}
}

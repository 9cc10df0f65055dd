package render_test

import (
	"context"
	"testing"
)

func TestDebug(t *testing.T) {
	for _, u := range []string{"http://blog.test/never.html", "http://blog.test/lazy.html", "http://blog.test/iframe-same.html"} {
		res, err := browser(t).Render(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: clicks %d notes %q elapsed %s console %q neterr %q", u, res.Clicks, res.Notes, res.Elapsed, res.Console, res.NetErrors)
	}
}

package daemon

import (
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest"
)

// TestAdHocDelayZero: crawl -url … -delay 0 crawls with no delay.
func TestAdHocDelayZero(t *testing.T) {
	c, err := adHocConfig("https://blog.example/", t.TempDir(), "", 0, 10, "never", "")
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Duration(c.Blogs[0].Delay); d != 0 {
		t.Errorf("delay %v, want 0", d)
	}
	if o := crawlOptions(c, c.Blogs[0], nil); o.Delay != 0 {
		t.Errorf("harvest delay %v, want 0", o.Delay)
	}
}

// TestRenderTimeoutConfigured: render_timeout, from a blog or the
// defaults, is the harvest's RenderTimeout; unset, harvest's default.
func TestRenderTimeoutConfigured(t *testing.T) {
	c, err := ParseConfig("t.yaml", []byte("defaults:\n  render_timeout: 90s\nblogs:\n"+
		"  - id: a\n    url: https://a.example/\n    render_timeout: 2m\n"+
		"  - id: b\n    url: https://b.example/\n"))
	if err != nil {
		t.Fatal(err)
	}
	bare, err := ParseConfig("t.yaml", []byte("blogs:\n  - id: c\n    url: https://c.example/\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		c    *Config
		want time.Duration
	}{{c, 2 * time.Minute}, {c, 90 * time.Second}, {bare, harvest.DefaultRenderTimeout}} {
		b := tc.c.Blogs[0]
		if tc.want == 90*time.Second {
			b = tc.c.Blogs[1]
		}
		if got := crawlOptions(tc.c, b, nil).RenderTimeout; got != tc.want {
			t.Errorf("blog %s: RenderTimeout %v, want %v", b.ID, got, tc.want)
		}
	}
}

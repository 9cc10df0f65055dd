package daemon

import (
	"testing"
	"time"
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

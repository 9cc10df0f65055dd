package daemon_test

import (
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon"
)

// TestConfigExplicitZeroIsKept: a key set to its zero value says what it
// says (delay: 0 means no spacing) instead of taking the default; a key
// left out still takes the config's defaults, then the built-in ones.
func TestConfigExplicitZeroIsKept(t *testing.T) {
	y := `defaults:
  delay: 3s
  jitter: 5m
  exclude: ["/tag/"]
blogs:
  - id: zero
    url: https://zero.example/
    delay: 0
    jitter: 0s
    exclude: []
  - id: unset
    url: https://unset.example/
  - id: zerodefaults
    url: https://zd.example/
    delay: 0s
`
	c, err := daemon.ParseConfig("test", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	z, u, zd := c.Blogs[0], c.Blogs[1], c.Blogs[2]
	if z.Delay != 0 || z.Jitter != 0 || len(z.Exclude) != 0 {
		t.Errorf("explicit zeros replaced: delay %v, jitter %v, exclude %v", time.Duration(z.Delay), time.Duration(z.Jitter), z.Exclude)
	}
	if time.Duration(u.Delay) != 3*time.Second || time.Duration(u.Jitter) != 5*time.Minute || len(u.Exclude) != 1 ||
		u.MaxPages != 5000 || u.Concurrency != 1 {
		t.Errorf("unset keys lost their defaults: %+v", u)
	}
	if zd.Delay != 0 {
		t.Errorf("delay: 0s became %v", time.Duration(zd.Delay))
	}
	c, err = daemon.ParseConfig("test", []byte("defaults:\n  delay: 0\nblogs:\n  - id: a\n    url: https://a.example/\n"))
	if err != nil || c.Blogs[0].Delay != 0 {
		t.Errorf("defaults.delay: 0 not passed on: %v %v", err, c)
	}
}

// TestConfigZeroWithoutMeaningRejected: max_pages: 0, concurrency_per_host: 0
// and concurrency: 0 would crawl nothing; they are errors, not defaults.
func TestConfigZeroWithoutMeaningRejected(t *testing.T) {
	for key, y := range map[string]string{
		"max_pages":            "blogs:\n  - id: a\n    url: https://a.example/\n    max_pages: 0\n",
		"concurrency_per_host": "blogs:\n  - id: a\n    url: https://a.example/\n    concurrency_per_host: 0\n",
		"concurrency":          "concurrency: 0\nblogs:\n  - id: a\n    url: https://a.example/\n",
		"defaults.max_pages":   "defaults:\n  max_pages: 0\nblogs:\n  - id: a\n    url: https://a.example/\n",
	} {
		_, err := daemon.ParseConfig("test", []byte(y))
		if err == nil || !strings.Contains(err.Error(), "must be at least 1") {
			t.Errorf("%s: 0 accepted: %v", key, err)
		}
	}
}

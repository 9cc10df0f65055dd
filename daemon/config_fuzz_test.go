package daemon_test

import (
	"errors"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/daemon"
	"github.com/blogharvest/blogharvest/schedule"
)

// FuzzParseConfig checks that ParseConfig never panics; that it refuses a
// config only with a *ConfigError naming each problem's key and reason;
// and that a config it accepts is one the daemon can run: at least one
// blog, unique valid ids, http(s) URLs with a host, schedules, time zones
// and URL patterns that parse, a positive concurrency.
func FuzzParseConfig(f *testing.F) {
	if b, err := os.ReadFile("../blogs.example.yaml"); err == nil {
		f.Add(b)
	}
	f.Add([]byte("blogs:\n  - id: a\n    url: https://a.example/\n"))
	f.Add([]byte("defaults: {schedule: \"TZ=Europe/Paris 0 3 * * *\", jitter: 1h, delay: 2s}\nblogs: [{id: a, url: \"http://h\", include: [\"(\"]}]\n"))
	f.Add([]byte("blogs:\n  - &x {id: a, url: \"https://a/\"}\n  - *x\nconcurrency: -1\nlog: {level: loud}\n"))
	f.Add([]byte("- just\n- a list\n"))
	f.Add([]byte("blogs:\n  - id: a\n    url: https://a.example/\n    time_zone: ../../etc/passwd\n    delay: -1s\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := daemon.ParseConfig("fuzz.yaml", data)
		if err != nil {
			var ce *daemon.ConfigError
			if !errors.As(err, &ce) || len(ce.Problems) == 0 {
				t.Fatalf("error %T %v, want a *ConfigError with problems", err, err)
			}
			for _, p := range ce.Problems {
				if p.Key == "" || p.Reason == "" {
					t.Fatalf("problem without key or reason: %+v", p)
				}
			}
			return
		}
		if len(c.Blogs) == 0 || c.Concurrency < 1 || c.Archive == "" || c.State == "" {
			t.Fatalf("accepted config %+v", c)
		}
		seen := map[string]bool{}
		for _, b := range c.Blogs {
			if blogharvest.ValidID(b.ID) != nil || seen[b.ID] {
				t.Fatalf("accepted blog id %q (invalid or duplicate)", b.ID)
			}
			seen[b.ID] = true
			for _, raw := range []string{b.URL, b.Feed} {
				if u, err := url.Parse(raw); raw != "" && (err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https") {
					t.Fatalf("blog %s: accepted URL %q", b.ID, raw)
				}
			}
			if _, err := time.LoadLocation(b.TimeZone); err != nil {
				t.Fatalf("blog %s: accepted time zone %q", b.ID, b.TimeZone)
			}
			if _, err := schedule.ParseSpec(b.Schedule, b.Location(), time.Duration(b.Jitter), b.ID); err != nil {
				t.Fatalf("blog %s: accepted schedule: %v", b.ID, err)
			}
			if b.Delay < 0 || b.Jitter < 0 || b.MaxPages < 0 || b.Concurrency < 0 {
				t.Fatalf("blog %s: accepted negative limits %+v", b.ID, b)
			}
			b.Regexps()
		}
	})
}

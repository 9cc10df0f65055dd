package lifecycle_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// otherWords are the vocabulary of another person's blog: none of words.
var otherWords = strings.Fields(`kernel compiler pointer register cache latency thread mutex channel socket
	packet router switch firewall protocol header payload checksum buffer queue stack heap allocator
	garbage collector benchmark profile trace metric histogram quantile sampler exporter dashboard alert
	deploy rollback canary cluster node pod container image registry manifest schema migration index
	query planner join cursor transaction commit rollback replica shard partition leader follower vote
	term snapshot compaction tombstone bloom filter hash ring token lease deadline retry backoff jitter`)

// parking is a page a lapsed domain serves at every path.
const parking = `<!DOCTYPE html><html><head><title>towpath-notes.example is for sale</title></head>
<body><h1>This domain is for sale!</h1><p>Buy this domain today. Premium domains at low prices, secure
checkout, fast transfer. Make an offer.</p><p>Related searches: cheap flights, car insurance, online degree.</p></body></html>`

// TestStranger: a Pelican blog of 12 posts harvested by the daemon
// (@every 2s), then replaced at its address by a parking page (200 or
// 403 at every path) or by another person's blog (Hugo, other posts, the
// old feed gone): the daemon writes nothing for the blog (12 entries, 12
// versions), flags it "identity changed" on /status and the status page,
// keeps the run's evidence in .state/<id>/identity-*.tsv, and its next
// scheduled runs ask the server nothing; once accept_change names the
// day (the config reloaded by SIGHUP) the blog is crawled again: the
// other blog's posts are archived and the flag is lifted.
func TestStranger(t *testing.T) {
	needEngines(t, "pelican", "hugo")
	for _, tc := range []string{"parking200", "parking403", "otherblog"} {
		t.Run(tc, func(t *testing.T) {
			t.Parallel()
			posts := makePosts(12)
			srv := newBlogServer(t)
			dir := t.TempDir()
			archive, cfg, listen := filepath.Join(dir, "archive"), filepath.Join(dir, "blogs.yaml"), daemontest.FreeAddr(t)
			config := func(more string) {
				y := fmt.Sprintf(`archive: %s
state: %s
listen: %s
organization: Test Library
log: {format: json, level: info}
blogs:
  - id: towpath
    url: %s/
    schedule: "@every 2s"
    delay: 1ms
    render: never
    requisites: none
%s`, archive, filepath.Join(dir, "state", "schedule.db"), listen, srv.URL, more)
				if err := os.WriteFile(cfg, []byte(y), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			config("")
			srv.cur.Store(&site{dir: buildPelican(t, posts, srv.URL, "simple")})
			var other []post
			var stranger *site
			switch tc {
			case "parking200", "parking403":
				code := 200
				if tc == "parking403" {
					code = 403
				}
				stranger = &site{handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "text/html; charset=utf-8")
					w.WriteHeader(code)
					w.Write([]byte(parking))
				})}
			default:
				other = makePostsOf(12, otherWords, rand.New(rand.NewPCG(9, 11)), time.Date(2024, 5, 1, 18, 0, 0, 0, time.UTC))
				stranger = &site{dir: buildHugo(t, other, srv.URL)}
			}

			d := daemontest.Start(t, "run", "-config", cfg)
			daemontest.WaitFor(t, "the first harvest", 4*time.Minute, func() bool {
				st := status(listen)
				return st != nil && st["outcome"] == "ok" && st["entries_archived"] == float64(len(posts))
			})
			before := entries(t, archive)
			if len(before) != len(posts) {
				t.Fatalf("the first harvest archived %d entries, want %d", len(before), len(posts))
			}

			srv.cur.Store(stranger)
			daemontest.WaitFor(t, "the blog flagged identity changed", 4*time.Minute, func() bool {
				st := status(listen)
				return st != nil && st["identity_changed"] != nil
			})
			asked := srv.requests.Load()
			paused := strings.Count(d.Logs.String(), "blog paused")
			daemontest.WaitFor(t, "two scheduled runs of the paused blog", 2*time.Minute, func() bool {
				return strings.Count(d.Logs.String(), "blog paused") >= paused+2
			})
			if n := srv.requests.Load() - asked; n != 0 {
				t.Errorf("the paused blog's scheduled runs asked the server %d times, want 0", n)
			}
			after := entries(t, archive)
			st := status(listen)
			t.Logf("%s: entries %d → %d, versions %d → %d; evidence: %v", tc, len(before), len(after), versions(before), versions(after), st["identity_evidence"])
			if len(after) != len(before) || versions(after) != versions(before) {
				t.Errorf("after the stranger: %d entries, %d versions; want the %d and %d of before", len(after), versions(after), len(before), versions(before))
			}
			if ev, _ := st["identity_evidence"].(string); !strings.Contains(ev, "archived post") {
				t.Errorf("/status identity_evidence %q names no archived post", ev)
			}
			if page := daemontest.HTTPGet(t, "http://"+listen+"/"); !strings.Contains(page, "identity changed") {
				t.Errorf("the status page does not say identity changed")
			}
			kept, _ := filepath.Glob(filepath.Join(archive, ".state", "towpath", "identity-*.tsv"))
			if len(kept) == 0 {
				t.Errorf("no identity evidence kept in %s", filepath.Join(archive, ".state", "towpath"))
			} else if data, _ := os.ReadFile(kept[0]); !strings.Contains(string(data), pelicanURL(srv.URL, posts[len(posts)-1])) {
				t.Errorf("the evidence %s does not name the newest archived post:\n%s", kept[0], data)
			}
			daemontest.CheckArchive(t, archive)

			config("    accept_change: " + time.Now().UTC().Format(time.DateOnly) + "\n")
			asked = srv.requests.Load()
			if err := d.Cmd.Process.Signal(syscall.SIGHUP); err != nil {
				t.Fatal(err)
			}
			if other == nil {
				daemontest.WaitFor(t, "the parked address asked again after accept_change", 2*time.Minute, func() bool {
					return srv.requests.Load() > asked
				})
			} else {
				daemontest.WaitFor(t, "the other blog archived after accept_change", 4*time.Minute, func() bool {
					st := status(listen)
					return st != nil && st["identity_changed"] == nil && len(entries(t, archive)) == len(posts)+len(other)
				})
				daemontest.CheckArchive(t, archive)
			}
			if code := d.Stop(t, syscall.SIGTERM, time.Minute); code != 0 {
				t.Errorf("the daemon exited %d", code)
			}
		})
	}
}

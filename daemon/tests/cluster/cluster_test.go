package cluster_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/cluster"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// clusterEnv is a cluster test: a NATS server with JetStream in this
// process (its data in a temp dir), fixture blogs each on its own loopback
// server, and a config for the scheduler and the workers.
type clusterEnv struct {
	t        testing.TB
	dir      string
	archive  string
	state    string
	natsAddr string
	natsDir  string
	nats     *cluster.Server
	blogs    []string // ids
	sites    map[string]string
	slow     atomic.Int64 // milliseconds each blog page waits before answering

	workerAddr []string // the workers' /healthz and /metrics addresses

	members map[string]string // name → public nkey of every member
	keyDir  string            // <name>.nk: each member's nkey seed

	store aip.Store // the S3 archive's, or nil for a folder
}

// memberNames are the members of a test cluster: the scheduler(s), the
// workers, and "w9", a member's identity in a forger's hands.
var memberNames = []string{"sched", "w1", "w2", "w3", "w9"}

// makeMembers makes an nkey for each member, its seed in keyDir.
func (e *clusterEnv) makeMembers() {
	e.members = map[string]string{}
	e.keyDir = filepath.Join(e.dir, "keys")
	if err := os.MkdirAll(e.keyDir, 0o700); err != nil {
		e.t.Fatal(err)
	}
	for _, n := range memberNames {
		id, seed, err := cluster.NewIdentity()
		if err != nil {
			e.t.Fatal(err)
		}
		if err := os.WriteFile(e.keyFile(n), seed, 0o600); err != nil {
			e.t.Fatal(err)
		}
		e.members[n] = id.Public()
	}
}

// keyFile is member name's nkey seed file.
func (e *clusterEnv) keyFile(name string) string { return filepath.Join(e.keyDir, name+".nk") }

// clusterYAML is the cluster key's flow mapping for the scheduler "sched"
// (workers override name and nkey), with the options given.
func (e *clusterEnv) clusterYAML(more string) string {
	var m []string
	for _, n := range memberNames {
		m = append(m, n+": "+e.members[n])
	}
	return fmt.Sprintf(`{nats_url: "nats://%s", name: sched, nkey_file: %s, members: {%s}%s}`, e.natsAddr,
		e.keyFile("sched"), strings.Join(m, ", "), more)
}

// clusterOpts shape a cluster test's config.
type clusterOpts struct {
	blogs      int
	maxDeliver int
	maxPages   int
	poison     bool // add a blog "poison" whose server always answers 503
	// concurrency is each process's; default 2.
	concurrency int
	// latency delays every answer of the blogs' servers.
	latency time.Duration
	// ttl is the lease TTL and the ack wait; default testTTL.
	ttl time.Duration
	// store, if set, is an S3 archive (its URL archive): the config names
	// it instead of a folder, and the checks read it through store.
	store   aip.Store
	archive string
}

// testTTL is the tests' lease TTL and ack wait: long enough that a loaded
// machine renews leases and sends heartbeats in time (2s was not).
const testTTL = 5 * time.Second

func newClusterEnv(t testing.TB, o clusterOpts) *clusterEnv {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a NATS server and several processes")
	}
	e := &clusterEnv{t: t, dir: t.TempDir(), sites: map[string]string{}}
	e.archive = cmp.Or(o.archive, filepath.Join(e.dir, "archive"))
	e.store = o.store
	e.state = filepath.Join(e.dir, "state", "schedule.db")
	e.natsDir = filepath.Join(e.dir, "nats")
	e.natsAddr = daemontest.FreeAddr(t)
	e.makeMembers()
	e.startNATS()
	t.Cleanup(func() { e.nats.Close() })
	names := fixture.Names()
	for i := range o.blogs {
		site := fixture.MustNew(names[i%len(names)])
		h := site.Handler()
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if ms := e.slow.Load(); ms > 0 && !strings.HasSuffix(r.URL.Path, "robots.txt") {
				time.Sleep(time.Duration(ms) * time.Millisecond)
			}
			time.Sleep(o.latency)
			h.ServeHTTP(w, r)
		}))
		t.Cleanup(srv.Close)
		id := fmt.Sprintf("b%02d-%s", i, site.Name())
		e.blogs = append(e.blogs, id)
		e.sites[id] = srv.URL
	}
	if o.poison {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "always down", http.StatusServiceUnavailable)
		}))
		t.Cleanup(srv.Close)
		e.blogs = append(e.blogs, "poison")
		e.sites["poison"] = srv.URL
	}
	e.writeConfig("blogs.yaml", daemontest.FreeAddr(t), o)
	return e
}

// startNATS starts (or restarts) the NATS server on its address and data.
func (e *clusterEnv) startNATS() {
	s, err := cluster.StartServer(cluster.ServerOptions{Listen: e.natsAddr, StoreDir: e.natsDir, Members: e.members})
	if err != nil {
		e.t.Fatal(err)
	}
	e.nats = s
}

// writeConfig writes a config named name whose status server listens on
// listen; the rest is shared by every process of the cluster.
func (e *clusterEnv) writeConfig(name, listen string, o clusterOpts) string {
	var y strings.Builder
	fmt.Fprintf(&y, `archive: %s
state: %s
listen: %s
concurrency: %d
organization: Test Library
log: {format: json, level: info}
cluster: %s
blogs:
`, e.archive, e.state, listen, cmp.Or(o.concurrency, 2),
		e.clusterYAML(fmt.Sprintf(", ack_wait: %s, lease_ttl: %[1]s, max_deliver: %d, retry_delay: 300ms",
			cmp.Or(o.ttl, testTTL), o.maxDeliver)))
	for _, id := range e.blogs {
		fmt.Fprintf(&y, "  - {id: %s, url: %s/, schedule: \"@every 1h\", delay: 1ms, render: never, max_pages: %d}\n",
			id, e.sites[id], o.maxPages)
	}
	path := filepath.Join(e.dir, name)
	if err := os.WriteFile(path, []byte(y.String()), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return path
}

func (e *clusterEnv) config() string { return filepath.Join(e.dir, "blogs.yaml") }

// listenOf returns the status address written in config path.
func listenOf(t testing.TB, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "listen: "); ok {
			return v
		}
	}
	t.Fatal("no listen in " + path)
	return ""
}

// worker starts a worker process named name.
func (e *clusterEnv) worker(name string) *daemontest.Proc {
	t := e.t.(*testing.T)
	listen := daemontest.FreeAddr(t)
	p := daemontest.Start(t, "worker", "-config", e.config(), "-name", name, "-nkey", e.keyFile(name), "-listen", listen)
	e.workerAddr = append(e.workerAddr, listen)
	return p
}

// clusterStatus is the scheduler's /status.
type clusterStatus struct {
	Blogs []struct {
		ID        string    `json:"id"`
		Outcome   string    `json:"outcome"`
		LastError string    `json:"last_error"`
		Runs      int       `json:"runs"`
		Entries   int       `json:"entries_archived"`
		Failures  int       `json:"consecutive_failures"`
		Worker    string    `json:"worker"`
		Attempt   int       `json:"attempt"`
		Watermark time.Time `json:"watermark"`
	} `json:"blogs"`
	Cluster map[string]any `json:"cluster"`
}

func getStatus(listen string) (clusterStatus, bool) {
	var st clusterStatus
	resp, err := http.Get("http://" + listen + "/status")
	if err != nil {
		return st, false
	}
	defer resp.Body.Close()
	return st, json.NewDecoder(resp.Body).Decode(&st) == nil
}

// ended reports whether every blog's first run has ended.
func ended(listen string) func() bool {
	return func() bool {
		st, ok := getStatus(listen)
		if !ok || len(st.Blogs) == 0 {
			return false
		}
		for _, b := range st.Blogs {
			if b.Outcome == "" || b.Outcome == "running" {
				return false
			}
		}
		return true
	}
}

// versions maps each entry folder of the archive to its version count.
func (e *clusterEnv) versions() map[string]int {
	out := map[string]int{}
	if e.store != nil {
		bags, _ := fs.Glob(e.store, "*/entries/*/*/v*")
		for _, v := range bags {
			out[path.Dir(v)]++
		}
		return out
	}
	bags, _ := filepath.Glob(filepath.Join(e.archive, "*", "entries", "*", "*", "v*"))
	for _, v := range bags {
		out[filepath.Dir(v)]++
	}
	return out
}

// checkCluster checks what every cluster test must show once each blog's
// run ended: each run once (runs 1), outcome ok (but for poison), the same
// number of entries archived for every blog (the fixture blogs, cut at
// max_pages, have as many), one version per entry, and `blogharvest check`
// passes. With logs, each blog was crawled to the end exactly once.
func (e *clusterEnv) checkCluster(listen string, logs ...*daemontest.Proc) {
	t := e.t
	t.Helper()
	st, _ := getStatus(listen)
	perBlog := map[string]int{}
	for dir, n := range e.versions() {
		if n != 1 {
			t.Errorf("%s: %d versions, want 1", dir, n)
		}
		rel, _ := filepath.Rel(e.archive, dir)
		if e.store != nil {
			rel = filepath.FromSlash(dir)
		}
		perBlog[strings.Split(rel, string(filepath.Separator))[0]]++
	}
	for _, b := range st.Blogs {
		if b.ID == "poison" {
			continue
		}
		if b.Runs != 1 || b.Outcome != "ok" || perBlog[b.ID] != perBlog[e.blogs[0]] || perBlog[b.ID] == 0 {
			t.Errorf("blog %s: runs %d, outcome %q (%s), %d entries in the archive (%s has %d); want 1 run, ok, as many",
				b.ID, b.Runs, b.Outcome, b.LastError, perBlog[b.ID], e.blogs[0], perBlog[e.blogs[0]])
		}
	}
	out, err := exec.Command(daemontest.Binary(), "check", e.archive).CombinedOutput()
	if err != nil {
		t.Errorf("check: %v\n%s", err, daemontest.LastLines(string(out), 20))
	}
	for _, id := range e.blogs {
		if n := startedCount(id, logs...); len(logs) > 0 && id != "poison" && n != 1 {
			t.Errorf("blog %s: %d crawls finished by the workers, want 1", id, n)
		}
	}
}

// startedCount counts the crawls of blog id the workers' logs say finished.
func startedCount(id string, ps ...*daemontest.Proc) int {
	n := 0
	for _, p := range ps {
		for _, line := range strings.Split(p.Logs.String(), "\n") {
			if strings.Contains(line, `"msg":"harvest finished"`) && strings.Contains(line, `"blog":"`+id+`"`) {
				n++
			}
		}
	}
	return n
}

// TestClusterEndToEnd: a NATS server with JetStream, one scheduler and
// three worker processes archive 20 fixture blogs, each once for its due
// run, every worker taking part, with one version per entry and a
// passing check.
func TestClusterEndToEnd(t *testing.T) {
	t.Parallel()
	e := newClusterEnv(t, clusterOpts{blogs: 20, maxDeliver: 5, maxPages: 8})
	listen := listenOf(t, e.config())
	sched := daemontest.Start(t, "run", "-config", e.config())
	var ws []*daemontest.Proc
	for _, n := range []string{"w1", "w2", "w3"} {
		ws = append(ws, e.worker(n))
	}
	daemontest.WaitFor(t, "every blog's run ended", 80*time.Second, ended(listen))
	e.checkCluster(listen, ws...)
	for i, w := range ws {
		n := strings.Count(w.Logs.String(), `"msg":"harvest finished"`)
		t.Logf("worker w%d crawled %d blogs", i+1, n)
		if n == 0 {
			t.Errorf("worker w%d crawled nothing", i+1)
		}
	}
	for _, addr := range e.workerAddr {
		if body := daemontest.HTTPGet(t, "http://"+addr+"/healthz"); body != "ok\n" {
			t.Errorf("worker /healthz = %q", body)
		}
		if m := daemontest.HTTPGet(t, "http://"+addr+"/metrics"); !strings.Contains(m, `blogharvest_runs_total{outcome="ok"}`) {
			t.Errorf("worker /metrics lacks its runs")
		}
	}
	st, _ := getStatus(listen)
	for _, b := range st.Blogs {
		if b.Worker == "" || b.Attempt != 1 {
			t.Errorf("/status: blog %s: worker %q, attempt %d; want the worker that ran it, attempt 1", b.ID, b.Worker, b.Attempt)
		}
	}
	t.Logf("/status cluster %v; blog %s: %+v", st.Cluster, st.Blogs[0].ID, st.Blogs[0])
	if st.Cluster == nil || st.Cluster["queue_depth"] != float64(0) {
		t.Errorf("/status cluster = %v, want queue_depth 0", st.Cluster)
	}
	for _, w := range ws {
		if c := w.Stop(t, syscall.SIGTERM, 2*time.Minute); c != 0 {
			t.Errorf("worker exit code %d", c)
		}
	}
	if c := sched.Stop(t, syscall.SIGTERM, 2*time.Minute); c != 0 {
		t.Errorf("scheduler exit code %d", c)
	}
}

package process_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/aip/s3store"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/s3test"
)

// deadURL returns the URL of a loopback port nothing listens on: a blog
// whose server is down (connection refused).
func deadURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "http://" + ln.Addr().String() + "/"
	ln.Close()
	return u
}

// TestScheduledAudit runs the daemon on a copy of the aip package's
// golden archive (a Blog and an Entry AIP) in which one byte of the Entry
// AIP's payload is flipped, with audits every
// second over one share (the whole archive each time). The first audit
// must read every bag, find the flipped one (and no other), and show it
// on the status page, in /status and in /metrics, and record a PREMIS
// fixity check event with outcome "fail" naming the bag in the archive.
// A screenshot of the status page's audit section goes to the artifacts.
func TestScheduledAudit(t *testing.T) {
	t.Parallel()
	archive := goldenArchive(t)
	infos, _ := filepath.Glob(filepath.Join(archive, "*", "entries", "*", "*", "v1"))
	if len(infos) == 0 {
		t.Fatal("no Entry AIP in the golden archive")
	}
	bagDir := infos[len(infos)/2]
	bag, _ := filepath.Rel(archive, bagDir)
	bag = filepath.ToSlash(bag)
	pages, _ := filepath.Glob(filepath.Join(bagDir, "data", "objects", "*", "*.html"))
	if len(pages) == 0 {
		t.Fatalf("no HTML file in %s", bag)
	}
	data, err := os.ReadFile(pages[0])
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x01
	if err := os.WriteFile(pages[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	all, _ := filepath.Glob(filepath.Join(archive, "*", "*", "v*", "bagit.txt"))
	entries, _ := filepath.Glob(filepath.Join(archive, "*", "entries", "*", "*", "v*", "bagit.txt"))
	nBags := len(all) + len(entries)

	dir := t.TempDir()
	listen := daemontest.FreeAddr(t)
	cfg := filepath.Join(dir, "blogs.yaml")
	y := fmt.Sprintf(`archive: %s
state: %s
listen: %s
log: {format: json, level: info}
audit:
  schedule: "@every 1s"
  shares: 1
blogs:
  - id: gone
    url: %s
    schedule: "@daily"
`, archive, filepath.Join(dir, "state", "schedule.db"), listen, deadURL(t))
	if err := os.WriteFile(cfg, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	p := daemontest.Start(t, "run", "-config", cfg)

	var st struct {
		Audit *struct {
			Last *struct {
				Seq      int `json:"seq"`
				Bags     int `json:"bags"`
				Problems []struct {
					Bag    string `json:"bag"`
					Reason string `json:"reason"`
				} `json:"problems"`
			} `json:"last"`
			Record string `json:"record"`
		} `json:"audit"`
	}
	daemontest.WaitFor(t, "the first audit", 2*time.Minute, func() bool {
		st.Audit = nil
		resp, err := http.Get("http://" + listen + "/status")
		if err != nil {
			return false // not listening yet
		}
		defer resp.Body.Close()
		return json.NewDecoder(resp.Body).Decode(&st) == nil && st.Audit != nil && st.Audit.Last != nil
	})
	last := st.Audit.Last
	if last.Bags != nBags {
		t.Errorf("the audit read %d bags, the archive holds %d", last.Bags, nBags)
	}
	if len(last.Problems) == 0 {
		t.Fatalf("the audit found no problem; %s has a byte flipped", bag)
	}
	for _, pr := range last.Problems {
		if pr.Bag != bag {
			t.Errorf("problem in %q (%s), want only %s", pr.Bag, pr.Reason, bag)
		}
		if strings.Contains(pr.Reason, archive) {
			t.Errorf("a problem shows the archive's local path: %s", pr.Reason)
		}
	}
	page := daemontest.HTTPGet(t, "http://"+listen+"/?refresh=0")
	for _, want := range []string{`id="audit"`, bag, ">fail<", "checksum"} {
		if !strings.Contains(page, want) {
			t.Errorf("the status page lacks %q", want)
		}
	}
	metrics := daemontest.HTTPGet(t, "http://"+listen+"/metrics")
	for name, want := range map[string]func(float64) bool{
		"blogharvest_audit_last_problems":          func(v float64) bool { return v >= 1 },
		"blogharvest_audit_last_bags_checked":      func(v float64) bool { return v == float64(nBags) },
		"blogharvest_audit_last_timestamp_seconds": func(v float64) bool { return v > 1.7e9 },
		"blogharvest_audit_bags_checked_total":     func(v float64) bool { return v >= float64(nBags) },
	} {
		m := regexp.MustCompile(`(?m)^` + name + ` (\S+)$`).FindStringSubmatch(metrics)
		if m == nil {
			t.Errorf("/metrics has no %s", name)
			continue
		}
		if v, err := strconv.ParseFloat(m[1], 64); err != nil || !want(v) {
			t.Errorf("/metrics: %s %s", name, m[1])
		}
	}
	premis, err := os.ReadFile(filepath.Join(archive, filepath.FromSlash(st.Audit.Record), "premis.xml"))
	if err != nil {
		t.Fatalf("the audit record: %v", err)
	}
	for _, want := range []string{"eventType/fix", "<premis:eventOutcome>fail</premis:eventOutcome>", bag + ": "} {
		if !strings.Contains(string(premis), want) {
			t.Errorf("%s/premis.xml lacks %q", st.Audit.Record, want)
		}
	}
	if _, err := exec.LookPath("chromium"); err == nil {
		b := daemontest.NewBrowser(t)
		b.Run(t, chromedp.Navigate("http://"+listen+"/?refresh=0"), chromedp.WaitVisible("#audit-problems", chromedp.ByQuery),
			chromedp.ScrollIntoView("#audit", chromedp.ByQuery))
		b.Screenshot(t, "audit")
		b.CheckConsole(t)
	}
	if code := p.Stop(t, syscall.SIGTERM, time.Minute); code != 0 {
		t.Errorf("exit %d after SIGTERM", code)
	}
}

// TestScheduledAuditS3 runs the first scheduled audit on a copy of the
// aip package's golden archive in an S3-compatible store (internal/s3test): it reads
// every bag through the store, finds nothing wrong, and publishes its
// record in the store (.audit/a0000000001), which an S3 LatestAudit reads.
func TestScheduledAuditS3(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	var b [6]byte
	rand.Read(b[:])
	prefix := "TestScheduledAuditS3-" + hex.EncodeToString(b[:])
	st, err := s3store.New(context.Background(), s3store.Config{Endpoint: srv.Endpoint, Insecure: true, Bucket: srv.Bucket,
		Prefix: prefix, AccessKey: srv.AccessKey, SecretKey: srv.SecretKey})
	if err != nil {
		t.Fatal(err)
	}
	n := publishAll(t, goldenArchive(t), st)
	dir := t.TempDir()
	listen := daemontest.FreeAddr(t)
	cfg := filepath.Join(dir, "blogs.yaml")
	y := fmt.Sprintf("archive: s3://%s/%s\nstate: %s\nlisten: %s\naudit: {schedule: \"@every 1s\"}\nblogs:\n  - id: gone\n    url: %s\n    schedule: \"@daily\"\n",
		srv.Bucket, prefix, filepath.Join(dir, "state", "schedule.db"), listen, deadURL(t))
	if err := os.WriteFile(cfg, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	p := daemontest.StartEnv(t, append(os.Environ(), srv.Env()...), "run", "-config", cfg)
	var rec *aip.AuditRecord
	daemontest.WaitFor(t, "the first audit's record in the store", 2*time.Minute, func() bool {
		rec, err = aip.LatestAudit(st)
		return err == nil && rec != nil
	})
	if rec.Seq < 1 || rec.Bags != n || len(rec.Problems) != 0 || rec.Outcome() != "pass" {
		t.Errorf("audit record %+v; want an audit reading the %d bags copied, no problem", rec, n)
	}
	if code := p.Stop(t, syscall.SIGTERM, time.Minute); code != 0 {
		t.Errorf("exit %d after SIGTERM", code)
	}
}

// publishAll publishes every bag of the archive folder src into dst, as
// a Writer publishes one (Stage, Put of every file, Publish), and returns
// how many.
func publishAll(t *testing.T, src string, dst aip.Store) int {
	t.Helper()
	ctx := context.Background()
	bags, _ := filepath.Glob(filepath.Join(src, "*", "*", "v*", "bagit.txt"))
	entries, _ := filepath.Glob(filepath.Join(src, "*", "entries", "*", "*", "v*", "bagit.txt"))
	for _, b := range append(bags, entries...) {
		dir := filepath.Dir(b)
		name, _ := filepath.Rel(src, dir)
		sb, err := dst.Stage(ctx, filepath.ToSlash(name))
		if err != nil {
			t.Fatal(err)
		}
		err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			_, err = sb.Put(ctx, filepath.ToSlash(rel), bytes.NewReader(data), int64(len(data)))
			return err
		})
		if err == nil {
			err = sb.Publish(ctx)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return len(bags) + len(entries)
}

// goldenArchive returns a copy of the aip package's golden archive: the
// blog garden, its Blog AIP and one Entry AIP, valid.
func goldenArchive(t *testing.T) string {
	t.Helper()
	archive := filepath.Join(t.TempDir(), "archive")
	if err := os.CopyFS(archive, os.DirFS("../../../aip/testdata/valid")); err != nil {
		t.Fatal(err)
	}
	return archive
}

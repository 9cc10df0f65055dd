package harvest_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// carriedBytes weighs what a File keeps in memory besides the struct
// itself: its strings, body, headers and exchanges.
func carriedBytes(f blogharvest.File) int {
	n := len(f.URL) + len(f.Role) + len(f.MediaType) + len(f.Body) + len(f.Path) + len(f.SHA256) +
		len(f.WARCRecordID) + len(f.Reused) + len(f.ReusedIn) + headerBytes(f.Header)
	for _, x := range f.Exchanges {
		n += len(x.Method) + len(x.URL) + len(x.RequestProto) + headerBytes(x.RequestHeader) + len(x.Proto) +
			len(x.Reason) + headerBytes(x.ResponseHeader) + len(x.Body) + len(x.RemoteIP)
	}
	return n
}

func headerBytes(h map[string][]string) int {
	n := 0
	for k, vs := range h {
		n += len(k)
		for _, v := range vs {
			n += len(v)
		}
	}
	return n
}

// robotsOf returns the robots.txt files among files.
func robotsOf(files []blogharvest.File) []blogharvest.File {
	var out []blogharvest.File
	for _, f := range files {
		if f.Role == blogharvest.RoleRobots {
			out = append(out, f)
		}
	}
	return out
}

// TestCarriedRobotsSize weighs what a crawl leaves of its robots.txt for
// the next one (State.Robots, which the daemon keeps in memory for every
// blog between two runs): the rules' source, its digest and capture time,
// not the exchanges and headers the Blog record's capture holds. It failed
// when the whole capture was carried (BenchmarkScale's ~3 KB a blog run,
// doc/scale.md).
func TestCarriedRobotsSize(t *testing.T) {
	t.Parallel()
	_, srv := serve(t, "blogger", nil)
	res, out := crawl(t, options("blogger", srv.URL))
	if len(out.Blogs) != 1 {
		t.Fatalf("%d Blog records, want 1", len(out.Blogs))
	}
	archived := robotsOf(out.Blogs[0].Files)
	if len(archived) != 1 || len(res.State.Robots) != 1 {
		t.Fatalf("robots.txt: %d in the Blog record, %d carried; want 1 and 1", len(archived), len(res.State.Robots))
	}
	full, kept := archived[0], res.State.Robots[0]
	t.Logf("robots.txt of %d bytes: the Blog record's capture weighs %d bytes, the carried copy %d", len(full.Body), carriedBytes(full), carriedBytes(kept))
	if len(kept.Exchanges) != 0 || len(kept.Header) != 0 {
		t.Errorf("the carried robots.txt keeps %d exchanges and %d headers, want none", len(kept.Exchanges), len(kept.Header))
	}
	// The body, the URL, the digest and the media type: nothing else of size.
	if limit := len(kept.Body) + len(kept.URL) + 64 + len(kept.MediaType) + 16; carriedBytes(kept) > limit {
		t.Errorf("the carried robots.txt weighs %d bytes, want at most %d", carriedBytes(kept), limit)
	}
	if string(kept.Body) != string(full.Body) || kept.Captured != full.Captured || kept.Status != full.Status {
		t.Errorf("the carried robots.txt lost what seeds the next crawl: %d bytes (want %d), captured %v (want %v), status %d",
			len(kept.Body), len(full.Body), kept.Captured, full.Captured, kept.Status)
	}
}

// TestReusedRobotsInBlogAIP: an update that writes the Blog record (its
// daily recheck due) while the robots.txt it was given is still fresh
// records it as a reused capture when an AIP holds it (StateFrom: File.Reused
// names its record; not fetched, no WARC record copies it, the Blog AIP
// checks valid), and fetches it again when none does (a robots.txt carried
// from an update that wrote no Blog AIP: the carried copy has no
// exchanges to record).
func TestReusedRobotsInBlogAIP(t *testing.T) {
	t.Parallel()
	log := &requestLog{}
	site, srv := serve(t, "blogger", log.Wrap)
	first := newestActivity(site).Add(24 * time.Hour)
	o := options("blogger", srv.URL)
	o.Now = func() time.Time { return first }
	res, out := crawl(t, o)
	root := t.TempDir()
	w := &aip.Writer{Root: root, Software: "blogharvest test", Now: func() time.Time { return first }}
	defer w.Close()
	for _, b := range out.Blogs {
		if _, err := w.WriteBlog(context.Background(), b); err != nil {
			t.Fatalf("write blog: %v", err)
		}
	}
	ab, err := aip.LatestBlog(&aip.Local{Root: root}, "blogger")
	if err != nil || ab == nil {
		t.Fatalf("latest Blog AIP: %v %v", ab, err)
	}
	st, ok := harvest.StateFrom(ab.Files, ab.Rules)
	if !ok || len(st.Robots) != 1 || st.Robots[0].Reused == "" || len(st.Robots[0].Exchanges) != 0 || len(st.Robots[0].Body) == 0 {
		t.Fatalf("StateFrom: ok %v, robots %d, want one with its body, naming its record and without exchanges", ok, len(st.Robots))
	}

	update := func(state harvest.State, at time.Time) (*output, []string) {
		t.Helper()
		log.Reset()
		uo := o
		uo.State, uo.RecheckPosts = state, time.Hour // the recheck due: the Blog record is written
		uo.Now = func() time.Time { return at }
		w.Now = uo.Now
		out := &output{}
		if _, err := harvest.UpdateCrawl(context.Background(), uo, res.Watermark, out.Emit); err != nil {
			t.Fatal(err)
		}
		if len(out.Blogs) != 1 {
			t.Fatalf("%d Blog records emitted by the recheck, want 1", len(out.Blogs))
		}
		return out, log.All()
	}
	robotsAsked := func(paths []string) int {
		n := 0
		for _, p := range paths {
			if p == "/robots.txt" {
				n++
			}
		}
		return n
	}

	// Reused from the archive: not fetched, recorded as reused. A new
	// post changes the Blog record, so that a new version is written.
	site.AddPost(fixture.PostSpec{Title: "A post after the first crawl", Date: first.Add(time.Hour),
		Body: "<p>" + strings.Repeat("Something new to say about robots. ", 8) + "</p>"})
	st.CrawlState = res.State.CrawlState
	st.Rules = res.State.Rules
	out2, paths := update(st, first.Add(2*time.Hour))
	if n := robotsAsked(paths); n != 0 {
		t.Errorf("robots.txt asked for %d times, want 0: the archived capture is fresh", n)
	}
	rb := robotsOf(out2.Blogs[0].Files)
	if len(rb) != 1 || rb[0].Reused != st.Robots[0].Reused || len(rb[0].Exchanges) != 0 {
		t.Fatalf("the Blog record's robots.txt: %+v, want one reusing record %s, without exchanges", rb, st.Robots[0].Reused)
	}
	r, err := w.WriteBlog(context.Background(), out2.Blogs[0])
	if err != nil || !r.Written {
		t.Fatalf("write the update's Blog record: %+v %v", r, err)
	}
	if errs := aip.Check(root); len(errs) > 0 {
		t.Errorf("check: %v", errors.Join(errs...))
	}
	v2 := filepath.Join(r.Dir, "data")
	index, err := os.ReadFile(filepath.Join(v2, "logs", "index.cdxj"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(index), "/robots.txt") {
		t.Errorf("the new version's WARC copies the reused robots.txt:\n%s", index)
	}
	if !strings.Contains(string(index), "/feed") {
		t.Errorf("the new version's WARC index names no feed: the test reads the wrong file?\n%s", index)
	}
	mets, err := os.ReadFile(filepath.Join(v2, "METS.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mets), st.Robots[0].Reused) {
		t.Errorf("the new version's METS does not name the reused robots.txt's record %s", st.Robots[0].Reused)
	}

	// Carried from a crawl that archived it nowhere: fetched again.
	out3, paths := update(res.State, first.Add(3*time.Hour))
	if n := robotsAsked(paths); n != 1 {
		t.Errorf("robots.txt asked for %d times, want 1: the carried copy has no record to name", n)
	}
	rb = robotsOf(out3.Blogs[0].Files)
	if len(rb) != 1 || rb[0].Reused != "" || len(rb[0].Exchanges) == 0 {
		t.Errorf("the Blog record's robots.txt: %d files, want one fetched anew with its exchanges", len(rb))
	}
	if _, err := w.WriteBlog(context.Background(), out3.Blogs[0]); err != nil {
		t.Fatalf("write the second update's Blog record: %v", err)
	}
	if errs := aip.Check(root); len(errs) > 0 {
		t.Errorf("check: %v", errors.Join(errs...))
	}
}

package daemon

import (
	"context"
	"io/fs"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// TestDaemonUpdateReusesArchivedMedia runs a fixture Blogger blog through
// the daemon twice, a comment added to a post with pictures in between:
// the update writes a new version of that post whose bag holds the
// pictures (its own copies, the capture reused from the version before),
// the archive passes Check (WARC ties included), and the pictures were
// fetched zero times by the update. Then the post is edited to show
// another picture in place of its first: the next update fetches that
// one, not the picture the post kept. Over a folder and an S3 archive
// alike: the update reads the pictures back through the archive's store.
func TestDaemonUpdateReusesArchivedMedia(t *testing.T) {
	for _, b := range archiveBackends {
		t.Run(b.name, func(t *testing.T) { testDaemonUpdateReusesArchivedMedia(t, b) })
	}
}

func testDaemonUpdateReusesArchivedMedia(t *testing.T, b archiveBackend) {
	site := fixture.MustNew("blogger")
	h, c := sampleBlogConfig(t, site)
	b.use(t, c)
	base := strings.TrimSuffix(c.Blogs[0].URL, "/")
	d := openTestDaemon(t, c)
	st := d.arch.store()
	if _, err := d.runBlog(context.Background(), c.Blogs[0], nil); err != nil {
		t.Fatal(err)
	}
	h.take()
	commented := site.Posts()[2]
	site.AddComment(commented.Slug, fixture.CommentSpec{Author: "Late Reader", Text: "Arrived late, but glad I did.",
		Date: time.Now().Add(-time.Minute)})
	if _, err := d.runBlog(context.Background(), c.Blogs[0], nil); err != nil {
		t.Fatal(err)
	}
	second := h.take()
	t.Logf("update: %d requests %q", len(second), second)

	v2, err := fs.Glob(st, "sample/entries/*/*/v2")
	if err != nil || len(v2) != 1 {
		t.Fatalf("new versions %q (%v); want one, of %s", v2, err, commented.Path)
	}
	log, err := fs.ReadFile(st, v2[0]+"/data/logs/capture.log")
	if err != nil {
		t.Fatal(err)
	}
	pictures := 0
	for _, line := range strings.Split(string(log), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 6 || !strings.HasPrefix(f[4], "data/objects/media/") {
			continue
		}
		pictures++
		if _, err := fs.Stat(st, v2[0]+"/"+f[4]); err != nil {
			t.Errorf("v2 lacks its own copy of %s: %v", f[5], err)
		}
		u, err := url.Parse(f[5])
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(second, u.RequestURI()) {
			t.Errorf("picture %s fetched again by the update", f[5])
		}
	}
	if pictures == 0 {
		t.Fatalf("v2 of %s holds no pictures: capture log\n%s", commented.Path, log)
	}
	mets, err := fs.ReadFile(st, v2[0]+"/data/METS.xml")
	if err != nil || !strings.Contains(string(mets), "capture reused from WARC record") {
		t.Errorf("v2's METS does not say the pictures' capture was reused (%v)", err)
	}
	if _, probs := aip.CheckStore(context.Background(), st, nil); len(probs) > 0 {
		t.Error(probs)
	}

	// The post edited to show another picture in place of its first: the
	// other one is fetched, the one kept is not.
	truth := site.Truth(base)
	var body, other string
	for _, p := range truth.Posts {
		if p.URL == base+commented.Path {
			body = p.BodyHTML
		} else if m := imgSrc.FindStringSubmatch(p.BodyHTML); m != nil && other == "" {
			other = m[1]
		}
	}
	srcs := imgSrc.FindAllStringSubmatch(body, -1)
	if len(srcs) < 2 || other == "" {
		t.Fatalf("fixture: want a post with two pictures and another picture elsewhere, got %q and %q", srcs, other)
	}
	site.EditPost(commented.Slug, strings.Replace(body, srcs[0][1], other, 1))
	if _, err := d.runBlog(context.Background(), c.Blogs[0], nil); err != nil {
		t.Fatal(err)
	}
	third := h.take()
	t.Logf("update after the edit: %d requests %q", len(third), third)
	if !slices.Contains(third, pathOf(t, other)) {
		t.Errorf("the post's new picture %s was not fetched", other)
	}
	if slices.Contains(third, pathOf(t, srcs[1][1])) {
		t.Errorf("the picture the post kept, %s, was fetched again", srcs[1][1])
	}
	if _, probs := aip.CheckStore(context.Background(), st, nil); len(probs) > 0 {
		t.Error(probs)
	}
}

// imgSrc matches the src of an img element in a fixture's body HTML.
var imgSrc = regexp.MustCompile(`<img src="([^"]+)"`)

// pathOf returns the request URI of a URL.
func pathOf(t *testing.T, raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.RequestURI()
}

package harvest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
)

// TestNewCrawlAliasOpensNoSecondEntry: a post whose feed item links to a
// redirect stub (a Hugo alias, /old/first-bridge/) is archived from the
// feed, dated; its page, which shows no date, links to a second alias of
// it (/legacy/first-bridge.html), met only after the post was emitted, so
// the post is read again for that alias. The second reading is the same
// entry: the feed's date, title and guid, and in the archive one entry
// folder with two versions, not a second, undated entry (issue 36,
// cause 3).
func TestNewCrawlAliasOpensNoSecondEntry(t *testing.T) {
	s := newMiniSite()
	start := time.Date(2016, 6, 2, 18, 30, 0, 0, time.UTC)
	var items []miniItem
	for i := 3; i >= 0; i-- {
		path := fmt.Sprintf("/2016/06/bridge-%d/", i)
		title := fmt.Sprintf("The bridge at the %d lock", i)
		extra, link := "", path
		if i == 0 {
			link = "/old/first-bridge/"
			extra = `<p class="share">Old address: <a href="{{base}}/legacy/first-bridge.html">legacy link</a></p>`
		}
		body := prose(fmt.Sprintf("bridge %d", i), 5)
		items = append(items, miniItem{path: link, title: title, body: body, date: start.AddDate(0, 0, 3*i),
			guid: fmt.Sprintf("tag:canal.example,2016:post-%d", i), comments: -1})
		s.docs[path] = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>` + title + ` – Canal</title></head><body>
<header><a href="{{base}}/">Canal</a></header><main><article><h1>` + title + `</h1>` + body + extra + `</article></main></body></html>`
	}
	stub := `<!DOCTYPE html><html lang="en"><head><title>{{base}}/2016/06/bridge-0/</title><link rel="canonical" href="{{base}}/2016/06/bridge-0/"><meta charset="utf-8"><meta http-equiv="refresh" content="0; url={{base}}/2016/06/bridge-0/"></head></html>`
	s.docs["/old/first-bridge/"] = stub
	s.docs["/legacy/first-bridge.html"] = stub
	s.docs["/feed.xml"] = rss("Canal", "en", items)
	s.docs["/"] = `<!DOCTYPE html><html><head><title>Canal</title><link rel="alternate" type="application/rss+xml" href="{{base}}/feed.xml"></head><body><p>Canal</p></body></html>`
	srv := s.start(t)

	root := t.TempDir()
	w := &aip.Writer{Root: root, Organization: "Test", Software: "blogharvest-test"}
	defer w.Close()
	target, emitted := srv.URL+"/2016/06/bridge-0/", 0
	out := &output{}
	o := options("alias", srv.URL)
	_, err := harvest.NewCrawl(context.Background(), o, func(r harvest.Record) error {
		if r.Entry == nil {
			return nil
		}
		e := r.Entry
		out.Entries = append(out.Entries, e)
		if e.URL == target {
			emitted++
			if !e.Created.Equal(start) || e.Title != "The bridge at the 0 lock" || e.AltIdentifier != "tag:canal.example,2016:post-0" {
				t.Errorf("emission %d of %s: created %v, title %q, guid %q; want the feed's %v, %q, %q", emitted, e.URL,
					e.Created, e.Title, e.AltIdentifier, start, "The bridge at the 0 lock", "tag:canal.example,2016:post-0")
			}
		}
		_, err := w.WriteEntry(context.Background(), e)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if emitted < 2 {
		t.Fatalf("%s emitted %d times: the fixture no longer makes the crawl read it again for its late alias", target, emitted)
	}
	all, _ := filepath.Glob(filepath.Join(root, "alias", "entries", "*", blogharvest.EntryKey(target, "")))
	if len(all) != 1 {
		t.Errorf("the post is in %d entry folders, want 1: %q", len(all), all)
	}
	for _, err := range aip.Check(root) {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(root, "alias", "entries", aip.Undated)); err == nil {
		t.Errorf("an undated entry folder was written")
	}
}

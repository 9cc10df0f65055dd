package harvest

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
)

// StateFrom rebuilds, from what a blog's latest Blog AIP holds, the State
// and the since its next UpdateCrawl starts from, as if the crawl that
// wrote the AIP had just left them: files are the AIP's captures with
// their original headers (the posts feed's first page, in the order the
// crawl captured them, then its other pages; robots.txt; the blog-wide
// comment feed's first page as blogharvest.RoleCommentFeed; the Atom twin
// of an RSS feed, feed.AtomTwin, when the crawl asked it), rules the
// learned rules it holds. The posts feed's validators are its first
// page's ETag, Last-Modified and SHA-256; the items' signatures are read
// from that page, with the modification dates of its archived Atom twin
// (feed.DateFromTwin), as the crawl computed them; PostsChecked is its capture time, and since that time
// less WatermarkMargin. ok is false when files hold no posts feed that
// parses: the caller then runs a NewCrawl.
func StateFrom(files []blogharvest.File, rules []byte) (st State, ok bool) {
	var first, comments *blogharvest.File
	for i := range files {
		f := &files[i]
		switch {
		case f.Role == blogharvest.RoleFeed && first == nil:
			first = f
		case f.Role == blogharvest.RoleCommentFeed && comments == nil:
			comments = f
		case f.Role == blogharvest.RoleRobots:
			st.Robots = append(st.Robots, *f)
		}
	}
	st.Robots = carriedRobots(st.Robots)
	if first == nil {
		return State{}, false
	}
	body, err := fileBody(first)
	if err != nil {
		return State{}, false
	}
	parsed, err := feed.Parse(body, first.URL)
	if err != nil {
		return State{}, false
	}
	st.Feed = archivedValidators(first, body)
	twinDates(parsed, files)
	if comments != nil {
		if b, err := fileBody(comments); err == nil {
			st.CommentFeed = archivedValidators(comments, b)
		}
	}
	st.Items = make(map[string]string, len(parsed.Items))
	for i := range parsed.Items {
		if k := itemKey(&parsed.Items[i]); k != "" {
			st.Items[k] = itemSignature(&parsed.Items[i])
		}
	}
	st.PostsChecked = first.Captured
	if json.Valid(rules) {
		st.Rules = json.RawMessage(rules)
	}
	return st, true
}

// twinDates dates the items of the posts feed's first page from its Atom
// twin's capture among files, when there is one that parses.
func twinDates(parsed *feed.Feed, files []blogharvest.File) {
	twin := feed.AtomTwin(parsed)
	if twin == "" {
		return
	}
	for i := range files {
		if files[i].Role != blogharvest.RoleFeed || files[i].URL != twin {
			continue
		}
		if body, err := fileBody(&files[i]); err == nil {
			if atom, err := feed.Parse(body, twin); err == nil {
				feed.DateFromTwin(parsed, atom)
				return
			}
		}
	}
}

// Since returns the since of the UpdateCrawl that follows a crawl whose
// posts feed was captured at st.PostsChecked (StateFrom).
func (st State) Since() time.Time { return st.PostsChecked.Add(-WatermarkMargin) }

// archivedValidators returns the validators of an archived feed capture.
func archivedValidators(f *blogharvest.File, body []byte) blogharvest.Validators {
	h := http.Header(f.Header)
	return blogharvest.Validators{URL: f.URL, ETag: h.Get("ETag"), LastModified: h.Get("Last-Modified"), Digest: blogharvest.DigestOf(body)}
}

// fileBody returns a file's content: its Body, else the archived object
// it was loaded from, read through the archive's store (File.Stored).
func fileBody(f *blogharvest.File) ([]byte, error) {
	if f.Body != nil || f.Stored == nil {
		return f.Body, nil
	}
	return f.Content()
}

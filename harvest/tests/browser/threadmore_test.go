package browser_test

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/harvest/textsim"
	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// pagedThreads is a comment service that gives threads in part, as
// comment apps do: /api/thread?post=P answers two top-level comments a
// page, each with its first two replies and its reply_count (5), and a
// next_cursor for the next page; /api/replies?comment=C&after=R answers
// two further replies of C and a next link (root-relative) to the rest.
// Its widget draws what it fetched: on the "buttons" post it shows the
// app's own "Show N more replies" and "Load more comments" buttons; on the
// "quiet" post it shows no control at all, and opens the replies of the
// first comment by itself (so the crawl sees the app's replies endpoint
// once). Every reply names its thread (parent_id); the last reply of each
// thread answers the one before it (in_reply_to_id).
type pagedThreads struct {
	mu       sync.Mutex
	requests map[string]int // by post ("buttons", "quiet") and client ("browser", "crawl")
}

const (
	threadsTop     = 3 // top-level comments per post
	threadsReplies = 5 // replies per top-level comment
)

// pagedComment is one comment of the service.
type pagedComment struct {
	ID          string         `json:"id"`
	ParentID    string         `json:"parent_id,omitempty"`
	InReplyToID string         `json:"in_reply_to_id,omitempty"`
	Author      string         `json:"author"`
	Text        string         `json:"text"`
	CreatedAt   string         `json:"created_at"`
	ReplyCount  *int           `json:"reply_count,omitempty"`
	Replies     []pagedComment `json:"replies,omitempty"`
}

var pagedNames = []string{"Ann Lee", "Bob Ray", "Chloé Martin", "Dev Patel", "Eve Stone", "Frank Ode", "Grace Hu", "Hal Berg", "Ivy Novak", "Jon Park", "Kim Sato", "Lea Roux"}

// top returns top-level comment i of post, with its first two replies.
func (s *pagedThreads) top(post string, i int) pagedComment {
	n := threadsReplies
	c := pagedComment{ID: fmt.Sprintf("%s%dtop", post, i), Author: pagedNames[i%len(pagedNames)],
		Text:      fmt.Sprintf("Top-level comment %d on the %s post, about the crumb of rye bread.", i, post),
		CreatedAt: time.Date(2025, 3, 10, 9+i, 0, 0, 0, time.UTC).Format(time.RFC3339), ReplyCount: &n}
	c.Replies = s.replies(post, i)[:2]
	return c
}

// replies returns every reply of top-level comment i of post.
func (s *pagedThreads) replies(post string, i int) []pagedComment {
	var out []pagedComment
	for k := 0; k < threadsReplies; k++ {
		r := pagedComment{ID: fmt.Sprintf("%s%dreply%d", post, i, k), ParentID: fmt.Sprintf("%s%dtop", post, i),
			Author:    pagedNames[(i*threadsReplies+k+1)%len(pagedNames)],
			Text:      fmt.Sprintf("Reply %d in thread %d on the %s post: more water helps the rye.", k, i, post),
			CreatedAt: time.Date(2025, 3, 11, i, k, 0, 0, time.UTC).Format(time.RFC3339)}
		if k == threadsReplies-1 {
			r.InReplyToID = out[k-1].ID
		}
		out = append(out, r)
	}
	return out
}

// truth returns every comment of post: its key (author, text) and its
// parent's key.
func (s *pagedThreads) truth(post string) map[string]string {
	out := map[string]string{}
	for i := 0; i < threadsTop; i++ {
		top := s.top(post, i)
		out[commentKey(top.Author, top.Text)] = ""
		rs := s.replies(post, i)
		for k, r := range rs {
			parent := top
			if r.InReplyToID != "" {
				parent = rs[k-1]
			}
			out[commentKey(r.Author, r.Text)] = commentKey(parent.Author, parent.Text)
		}
	}
	return out
}

func (s *pagedThreads) count(post string, r *http.Request) {
	who := "crawl"
	if strings.Contains(r.UserAgent(), "Chrome") {
		who = "browser"
	}
	s.mu.Lock()
	s.requests[post+" "+who]++
	s.mu.Unlock()
}

// ServeHTTP serves the service's API.
func (s *pagedThreads) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Content-Type", "application/json")
	q := r.URL.Query()
	switch r.URL.Path {
	case "/api/thread":
		post := q.Get("post")
		s.count(post, r)
		from := 0
		if q.Get("cursor") == "page2" {
			from = 2
		}
		var a struct {
			Comments   []pagedComment `json:"comments"`
			NextCursor *string        `json:"next_cursor"`
		}
		for i := from; i < min(from+2, threadsTop); i++ {
			a.Comments = append(a.Comments, s.top(post, i))
		}
		if from+2 < threadsTop {
			c := "page2"
			a.NextCursor = &c
		}
		json.NewEncoder(w).Encode(a)
	case "/api/replies":
		id := q.Get("comment")
		post, i := "", -1
		for _, p := range []string{"buttons", "quiet"} {
			for k := 0; k < threadsTop; k++ {
				if id == fmt.Sprintf("%s%dtop", p, k) {
					post, i = p, k
				}
			}
		}
		if i < 0 {
			http.NotFound(w, r)
			return
		}
		s.count(post, r)
		rs := s.replies(post, i)
		from := 0
		for k, x := range rs {
			if x.ID == q.Get("after") {
				from = k + 1
			}
		}
		var a struct {
			Replies []pagedComment `json:"replies"`
			Next    *string        `json:"next"`
		}
		a.Replies = rs[from:min(from+2, len(rs))]
		if from+2 < len(rs) {
			n := "/api/replies?comment=" + id + "&after=" + rs[from+1].ID
			a.Next = &n
		}
		json.NewEncoder(w).Encode(a)
	default:
		http.NotFound(w, r)
	}
}

// pagedWidget is the widget's script (see pagedThreads).
const pagedWidget = `(function () {
  var me = document.currentScript, svc = me.dataset.svc, post = me.dataset.post, quiet = post === 'quiet';
  var root = document.getElementById('thread');
  function get(u) { return fetch(svc + u).then(function (r) { return r.json(); }); }
  function draw(c, into) {
    var d = document.createElement('div');
    d.className = 'cmt';
    var b = document.createElement('b'); b.textContent = c.author; d.appendChild(b);
    var p = document.createElement('p'); p.textContent = c.text; d.appendChild(p);
    into.appendChild(d);
    return d;
  }
  function button(into, label, then) {
    if (quiet) return;
    var b = document.createElement('button');
    b.type = 'button'; b.textContent = label;
    b.onclick = function () { b.remove(); then(); };
    into.appendChild(b);
  }
  function moreReplies(box, u, left) {
    button(box, left === 1 ? 'Show 1 more reply' : 'Show ' + left + ' more replies', function () {
      get(u).then(function (a) {
        a.replies.forEach(function (r) { draw(r, box); });
        if (a.next) moreReplies(box, a.next, left - a.replies.length);
      });
    });
  }
  function page(u, first) {
    get(u).then(function (a) {
      a.comments.forEach(function (c, k) {
        var d = draw(c, root), box = document.createElement('div');
        d.appendChild(box);
        c.replies.forEach(function (r) { draw(r, box); });
        var last = c.replies[c.replies.length - 1].id;
        var ru = '/api/replies?comment=' + encodeURIComponent(c.id) + '&after=' + encodeURIComponent(last);
        if (quiet && first && k === 0) {
          get(ru).then(function (x) { x.replies.forEach(function (r) { draw(r, box); }); });
        } else if (c.reply_count > c.replies.length) {
          moreReplies(box, ru, c.reply_count - c.replies.length);
        }
      });
      if (a.next_cursor) button(root, 'Load more comments', function () { page('/api/thread?post=' + post + '&cursor=' + a.next_cursor, false); });
    });
  }
  page('/api/thread?post=' + post, true);
})();`

// servePagedBlog serves a blog of two posts ("buttons", "quiet") whose
// comments the pagedThreads service on another origin gives.
func servePagedBlog(t *testing.T) (*pagedThreads, *httptest.Server, *httptest.Server) {
	svc := &pagedThreads{requests: map[string]int{}}
	api := httptest.NewServer(svc)
	t.Cleanup(api.Close)
	posts := []string{"buttons", "quiet"}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `<!doctype html><html><head><title>Crumb notes</title><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><body><h1>Crumb notes</h1><ul>`)
		for _, p := range posts {
			fmt.Fprintf(w, `<li><a href="/posts/%s/">The %s post</a></li>`, p, p)
		}
		fmt.Fprint(w, `</ul></body></html>`)
	})
	mux.HandleFunc("/feed.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/rss+xml")
		base := "http://" + r.Host
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Crumb notes</title><link>%s/</link><description>Baking</description>`, base)
		for k, p := range posts {
			fmt.Fprintf(w, `<item><title>The %s post</title><link>%s/posts/%s/</link><guid>%s/posts/%s/</guid><pubDate>%s</pubDate><description>%s</description></item>`,
				p, base, p, base, p, time.Date(2025, 3, 10-k, 9, 0, 0, 0, time.UTC).Format(time.RFC1123Z), html.EscapeString(pagedBody(p)))
		}
		fmt.Fprint(w, `</channel></rss>`)
	})
	for _, p := range posts {
		mux.HandleFunc("/posts/"+p+"/", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><html><head><title>The %s post</title></head><body><header><a href="/">Crumb notes</a></header>
<main><article><h1>The %s post</h1><p class="byline">By Mara Quinn</p>%s</article>
<section><h2>Comments</h2><div id="thread"></div><script data-svc="%s" data-post="%s">%s</script></section></main></body></html>`,
				p, p, pagedBody(p), api.URL, p, pagedWidget)
		})
	}
	blog := httptest.NewServer(mux)
	t.Cleanup(blog.Close)
	return svc, blog, api
}

func pagedBody(p string) string {
	return fmt.Sprintf("<p>This post is about %s threads. It explains, step by step, what we learned from baking every weekend for a year.</p>"+
		"<p>Flour, water, salt and time are all it takes; the rest is patience and a warm kitchen. We kept notes on %s for months.</p>", p, p)
}

// TestNewCrawlReadsThreadsWhole crawls the pagedThreads blog with the
// browser: every comment of both posts is archived with its parent, those
// behind the app's buttons by pressing them, those behind no control by
// following the API (the cursor of the thread's next page, the replies
// endpoint the app used for another comment, its next links), and the
// answers read are archived with the entry. With max_comments_per_post
// below the thread's size, the reading stops there and the shortfall is in
// the ledger.
func TestNewCrawlReadsThreadsWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	if _, err := exec.LookPath("chromium"); err != nil {
		toolskip.Missing(t, "chromium", err)
	}
	t.Parallel()
	svc, blog, api := servePagedBlog(t)
	o := options("paged", blog.URL)
	o.Render, o.Allow = harvest.RenderAlways, []string{api.URL}
	res, out := crawl(t, o)
	got := out.ByURL(t)
	for _, post := range []string{"buttons", "quiet"} {
		e := got[blog.URL+"/posts/"+post+"/"]
		if e == nil {
			t.Fatalf("%s: not archived; ledger %s", post, harvest.FateSummary(res.Ledger))
		}
		archived, matched, parents := scoreThread(t, post, e, svc.truth(post))
		t.Logf("%s: %d archived of %d seeded, %d matched, %d with the right parent; service requests: browser %d, crawl %d",
			post, archived, len(svc.truth(post)), matched, parents, svc.requests[post+" browser"], svc.requests[post+" crawl"])
	}
	quiet := got[blog.URL+"/posts/quiet/"]
	files := 0
	for _, f := range quiet.Files {
		if f.Role == blogharvest.RoleCommentFeed && strings.HasPrefix(f.URL, api.URL+"/api/") {
			files++
		}
	}
	if files == 0 || files != svc.requests["quiet crawl"] {
		t.Errorf("quiet: %d API answers archived with the entry, want the %d the crawl asked for", files, svc.requests["quiet crawl"])
	}
	for _, r := range harvest.Shortfalls(res.Ledger) {
		t.Errorf("a shortfall where every comment was read: %s %s", r.URL, r.Comments)
	}

	// The cap: max_comments_per_post 12, below the 18 comments of the
	// quiet post (the page's own answers hold 8).
	o.MaxComments = 12
	res, out = crawl(t, o)
	e := out.ByURL(t)[blog.URL+"/posts/quiet/"]
	if e == nil {
		t.Fatalf("quiet: not archived with the cap")
	}
	if len(e.Comments) != o.MaxComments {
		t.Errorf("quiet with max_comments_per_post %d: %d comments archived, want %[1]d", o.MaxComments, len(e.Comments))
	}
	short := ""
	for _, r := range harvest.Shortfalls(res.Ledger) {
		if r.URL == e.URL {
			short = r.Comments
		}
	}
	t.Logf("quiet with max_comments_per_post %d: %d archived; ledger: %s", o.MaxComments, len(e.Comments), short)
	if !strings.Contains(short, "max_comments_per_post 12") {
		t.Errorf("quiet: ledger comments column %q, want the shortfall naming max_comments_per_post 12", short)
	}
}

// scoreThread checks the comments of e against truth (key → parent key):
// every one archived with its parent, nothing else.
func scoreThread(t *testing.T, post string, e *blogharvest.Entry, truth map[string]string) (archived, matched, parents int) {
	t.Helper()
	keyOf := map[string]string{}
	for _, c := range e.Comments {
		keyOf[c.ID] = commentKey(c.Author, textsim.HTMLText(c.Content))
	}
	seen := map[string]bool{}
	for _, c := range e.Comments {
		k := keyOf[c.ID]
		want, ok := truth[k]
		switch {
		case !ok:
			t.Errorf("%s: archived %q by %s, which the service does not hold", post, textsim.HTMLText(c.Content), c.Author)
			continue
		case seen[k]:
			t.Errorf("%s: %q by %s archived twice", post, textsim.HTMLText(c.Content), c.Author)
			continue
		}
		seen[k] = true
		matched++
		if keyOf[c.ParentID] == want {
			parents++
		} else {
			t.Errorf("%s: %q by %s: parent %q, want %q", post, textsim.HTMLText(c.Content), c.Author, keyOf[c.ParentID], want)
		}
	}
	for k := range truth {
		if !seen[k] {
			t.Errorf("%s: %q not archived", post, k)
		}
	}
	return len(e.Comments), matched, parents
}

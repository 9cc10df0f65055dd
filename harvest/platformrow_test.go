package harvest_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/harvest/platform"
	"github.com/blogharvest/blogharvest/harvest/render"
	"github.com/blogharvest/blogharvest/harvest/textsim"

	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// chatterbox is a made-up comment system: a thread element the page
// holds, filled by its script with two comments and a "▾" control (no
// label a generic "load more" pattern knows) that adds the others.
var chatterbox = platform.Platform{
	ID: "chatterbox", Name: "Chatterbox",
	CommentIDPrefixes: []string{"cbx-comment-"},
	CommentClasses:    []string{"cbx-msg"},
	JSMarkers:         []string{"cbx-thread"},
	LoadMore:          []string{".cbx-more"},
}

// chatterboxJS builds the thread from the comments it is given.
const chatterboxJS = `(function(){
var t = document.getElementById('cbx-thread'), all = %s, shown = 0;
function add(n){ for (; shown < n && shown < all.length; shown++) { var c = all[shown], d = document.createElement('div');
  d.id = 'cbx-comment-' + c.id; d.className = 'cbx-msg';
  d.innerHTML = '<span class="cbx-author">' + c.author + '</span> <time datetime="' + c.date + '">' + c.date.slice(0, 10) + '</time>' +
    '<div class="cbx-text"><p>' + c.text + '</p></div>';
  t.insertBefore(d, more); } if (shown >= all.length) more.remove(); }
var more = document.createElement('button'); more.className = 'cbx-more'; more.type = 'button'; more.textContent = '\u25be';
more.addEventListener('click', function(){ add(all.length); });
t.appendChild(more); add(2);
})();`

// cbxComment is one Chatterbox comment.
type cbxComment struct{ id, author, date, text string }

// cbxTexts are the comments' texts, different enough not to be taken
// for copies of one another.
var cbxTexts = []string{
	"The footbridge by the mill was flooded again this spring.",
	"My grandmother kept a rowing boat under that very willow.",
	"Has anyone walked the towpath since the lock keeper retired?",
	"Lovely photographs; the heron in the third one looks annoyed.",
	"We counted forty swans near the weir on Sunday morning.",
}

// cbxThread returns the Chatterbox comments of post i.
func cbxThread(i int) []cbxComment {
	var out []cbxComment
	for k := range 5 {
		out = append(out, cbxComment{strconv.Itoa(100*i + k), tinyReaders[(i+k)%len(tinyReaders)],
			fmt.Sprintf("2024-03-%02dT10:00:00Z", k+2),
			fmt.Sprintf("Post %d, reply %d: %s", i, k, cbxTexts[k])})
	}
	return out
}

// chatterboxBlog serves tinyBlog's posts without comments with a
// Chatterbox thread, and the Chatterbox script.
func chatterboxBlog(t *testing.T, blog *tinyBlog) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/cbx/embed.js" {
			i, _ := strconv.Atoi(r.URL.Query().Get("post"))
			var js []string
			for _, c := range cbxThread(i) {
				js = append(js, fmt.Sprintf(`{"id":%q,"author":%q,"date":%q,"text":%q}`, c.id, c.author, c.date, c.text))
			}
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprintf(w, chatterboxJS, "["+strings.Join(js, ",")+"]")
			return
		}
		rec := httptest.NewRecorder()
		blog.ServeHTTP(rec, r)
		page := rec.Body.String()
		if i, ok := cbxPost(blog, r.URL.Path); ok {
			page = strings.Replace(page, `</main>`, fmt.Sprintf(`<div id="cbx-thread"></div><script src="/cbx/embed.js?post=%d"></script></main>`, i), 1)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// cbxPost returns the index of the post at path when it has a Chatterbox
// thread: the posts without static comments.
func cbxPost(blog *tinyBlog, path string) (int, bool) {
	for i := range blog.posts {
		if blog.path(i) == path && blog.commentCount(i) == 0 {
			return i, true
		}
	}
	return 0, false
}

// TestPlatformRowIsEnough adds a made-up comment system to the platform
// table and checks that the crawler detects it on a page, renders that
// page in Chromium clicking the system's own "load more" control, and
// archives every comment with its author; and that without the row only
// the generic path works (commentsignals.go: the empty thread element is
// a sign): the page is rendered and the comments shown before the unknown
// control are archived, not those behind it.
func TestPlatformRowIsEnough(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	if _, err := exec.LookPath("chromium"); err != nil {
		toolskip.Missing(t, "chromium", err)
	}
	// Parallel with the other crawls although "with the row" adds a row to
	// the platform table every crawl reads (under its lock): the row's
	// markers, classes, ids and control are this test's own, on no other
	// test's pages, and no other test of the package adds a row.
	t.Parallel()
	b, err := render.New(context.Background(), render.Options{Tabs: 2})
	if errors.Is(err, render.ErrNoBrowser) {
		t.Skipf("no browser installed: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	blog := newTinyBlog(4)
	srv := chatterboxBlog(t, blog)
	run := func() map[string]*blogharvest.Entry {
		o := options("cbx", srv.URL)
		o.Render, o.Browser = harvest.RenderAuto, b
		_, out := crawl(t, o)
		return out.ByURL(t)
	}
	t.Run("without the row", func(t *testing.T) {
		for path, e := range cbxEntries(t, blog, srv.URL, run()) {
			i, _ := cbxPost(blog, path)
			if got, want := commentKeys(e.Comments), cbxKeys(cbxThread(i)[:2]); !rendered(e) || got != want {
				t.Errorf("%s: rendered %v, comments\n%s\nwant the two shown before the control\n%s", path, rendered(e), got, want)
			}
		}
	})
	t.Run("with the row", func(t *testing.T) {
		defer platform.Add(chatterbox)()
		for path, e := range cbxEntries(t, blog, srv.URL, run()) {
			i, _ := cbxPost(blog, path)
			if !rendered(e) {
				t.Errorf("%s: not rendered", path)
			}
			if got, want := commentKeys(e.Comments), cbxKeys(cbxThread(i)); got != want {
				t.Errorf("%s: comments\n%s\nwant\n%s", path, got, want)
			}
		}
	})
}

// cbxEntries returns the archived entries of the posts with a Chatterbox
// thread, by path, failing when one is missing.
func cbxEntries(t *testing.T, blog *tinyBlog, base string, got map[string]*blogharvest.Entry) map[string]*blogharvest.Entry {
	t.Helper()
	out := map[string]*blogharvest.Entry{}
	for i := range blog.posts {
		if _, ok := cbxPost(blog, blog.path(i)); !ok {
			continue
		}
		e := got[base+blog.path(i)]
		if e == nil {
			t.Fatalf("post %s not archived", blog.path(i))
		}
		out[blog.path(i)] = e
	}
	return out
}

// rendered reports whether the entry keeps a rendered DOM.
func rendered(e *blogharvest.Entry) bool {
	for _, f := range e.Files {
		if f.Role == blogharvest.RoleRendered {
			return true
		}
	}
	return false
}

// commentKeys lists comments as sorted "author: text" lines.
func commentKeys(cs []blogharvest.Comment) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Author+": "+textsim.HTMLText(c.Content))
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// cbxKeys lists Chatterbox comments as commentKeys does.
func cbxKeys(cs []cbxComment) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.author+": "+c.text)
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

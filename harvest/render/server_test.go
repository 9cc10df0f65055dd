package render_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"
)

// site is a test web server: the pages of testdata/ plus the JSON endpoints
// their scripts call. It counts the requests per path.
type site struct {
	srv     *httptest.Server
	mu      sync.Mutex
	hits    map[string]int
	waiters map[string][]chan struct{} // closed at the next request of the path
}

func newSite() *site {
	s := &site{hits: map[string]int{}, waiters: map[string][]chan struct{}{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/comments", s.comments)
	mux.HandleFunc("/api/batch", s.batch)
	mux.HandleFunc("/api/post", s.post)
	mux.HandleFunc("/api/hang", s.hang)
	mux.HandleFunc("/api/tick", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("{}")) })
	mux.HandleFunc("/api/slowjs", s.slowJS)
	mux.HandleFunc("/img/", s.image)
	mux.HandleFunc("/api/big", big)
	mux.Handle("/", http.FileServer(http.Dir("testdata")))
	s.srv = httptest.NewServer(s.count(mux))
	return s
}

// host is the server's host:port.
func (s *site) host() string { return strings.TrimPrefix(s.srv.URL, "http://") }

func (s *site) count(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		for _, c := range s.waiters[r.URL.Path] {
			close(c)
		}
		delete(s.waiters, r.URL.Path)
		s.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// nextHit returns a channel closed when path is next requested.
func (s *site) nextHit(path string) <-chan struct{} {
	c := make(chan struct{})
	s.mu.Lock()
	s.waiters[path] = append(s.waiters[path], c)
	s.mu.Unlock()
	return c
}

// hitCount returns how often path was requested.
func (s *site) hitCount(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

type comment struct {
	Author string `json:"author"`
	Text   string `json:"text"`
}

// comments answers n comments after delay milliseconds.
func (s *site) comments(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.FormValue("n"))
	delay, _ := strconv.Atoi(r.FormValue("delay"))
	if !wait(r, time.Duration(delay)*time.Millisecond) {
		return
	}
	var cs []comment
	for i := range n {
		cs = append(cs, comment{fmt.Sprintf("Reader %d", i+1), fmt.Sprintf("Comment number %d.", i+1)})
	}
	writeJSON(w, cs)
}

// batch answers page of pages batches of size comments.
func (s *site) batch(w http.ResponseWriter, r *http.Request) {
	page, _ := strconv.Atoi(r.FormValue("page"))
	size, _ := strconv.Atoi(r.FormValue("size"))
	pages, _ := strconv.Atoi(r.FormValue("pages"))
	out := struct {
		Comments []comment `json:"comments"`
		More     bool      `json:"more"`
	}{More: page+1 < pages}
	for i := range size {
		if page < pages {
			out.Comments = append(out.Comments, comment{fmt.Sprintf("Reader %d-%d", page, i), "A batched comment."})
		}
	}
	writeJSON(w, out)
}

func (s *site) post(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, map[string]string{"title": "Built by script", "body": "This article exists only after JavaScript ran."})
}

// hang never answers: a long poll that outlives the render.
func (s *site) hang(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	<-r.Context().Done()
}

// slowJS answers a script after delay milliseconds.
func (s *site) slowJS(w http.ResponseWriter, r *http.Request) {
	delay, _ := strconv.Atoi(r.FormValue("delay"))
	if !wait(r, time.Duration(delay)*time.Millisecond) {
		return
	}
	w.Header().Set("Content-Type", "text/javascript")
	fmt.Fprint(w, `document.getElementById('state').textContent = 'done';`)
}

// image answers a 1×1 PNG.
func (s *site) image(w http.ResponseWriter, r *http.Request) {
	var buf bytes.Buffer
	_ = png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1)))
	w.Header().Set("Content-Type", "image/png")
	w.Write(buf.Bytes())
}

// wait sleeps for d unless the client goes away first.
func wait(r *http.Request, d time.Duration) bool {
	select {
	case <-time.After(d):
		return true
	case <-r.Context().Done():
		return false
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// big answers mb (query) mebibytes of text.
func big(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.URL.Query().Get("mb"))
	w.Header().Set("Content-Type", "text/plain")
	line := []byte(strings.Repeat("x", 1023) + "\n")
	for i := 0; i < n*1024; i++ {
		w.Write(line)
	}
}

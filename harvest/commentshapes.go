package harvest

import (
	"slices"
	"sync"

	"github.com/blogharvest/blogharvest/harvest/comments"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/render"
)

// commentShapes learns, per crawl, the comment structure of the blog from
// what its rendered pages share: the shape of the records the loose
// detector found repeated on a page (learn.RenderedCommentsShaped). A
// shape two pages showed is the blog's comment structure, and a rendered
// page or frame where nothing repeats (a thread of one comment) is read
// for single records of it. Safe for concurrent use.
type commentShapes struct {
	mu    sync.Mutex
	pages map[string]int // rendered pages and frames each shape was found repeated on
}

// minShapePages is how many rendered pages must show a shape before it
// is the blog's.
const minShapePages = 2

// maxKeptShapes bounds the shapes State.CommentShapes keeps.
const maxKeptShapes = 8

// known returns the shapes minShapePages pages showed, sorted.
func (s *commentShapes) known() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for k, n := range s.pages {
		if n >= minShapePages {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// learned takes the shapes an earlier crawl of the blog learned
// (State.CommentShapes) as known: an update renders only the posts that
// changed, too few to learn them again, and a thread of one comment
// repeats nothing.
func (s *commentShapes) learned(shapes []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range shapes[:min(len(shapes), maxKeptShapes)] {
		if k == "" {
			continue
		}
		if s.pages == nil {
			s.pages = map[string]int{}
		}
		s.pages[k] = max(s.pages[k], minShapePages)
	}
}

// kept returns the shapes for State.CommentShapes: the known ones, the
// most often seen first, at most maxKeptShapes, sorted.
func (s *commentShapes) kept() []string {
	out := s.known()
	if len(out) <= maxKeptShapes {
		return out
	}
	s.mu.Lock()
	slices.SortStableFunc(out, func(a, b string) int { return s.pages[b] - s.pages[a] })
	s.mu.Unlock()
	out = out[:maxKeptShapes]
	slices.Sort(out)
	return out
}

// saw counts a page that showed shape.
func (s *commentShapes) saw(shape string) {
	if shape == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pages == nil {
		s.pages = map[string]int{}
	}
	s.pages[shape]++
}

// read returns the comments of a rendered page or frame found without
// rules (learn.RenderedCommentsShaped), counting the shape it repeats.
func (s *commentShapes) read(p learn.Page) []learn.Comment {
	cs, shape := learn.RenderedCommentsShaped(p, s.known())
	s.saw(shape)
	return cs
}

// readRendered returns the comments of a rendered page (those whose text
// the static page static shows left out: notStatic) and of its frames.
func (s *commentShapes) readRendered(res *render.Result, lang string, static []byte) []learn.Comment {
	pages := comments.RenderedPages(res, lang)
	found := notStatic(s.read(pages[0]), static)
	for _, f := range pages[1:] {
		found = append(found, s.read(f)...)
	}
	return found
}

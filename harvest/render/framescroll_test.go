package render_test

import (
	"context"
	"strings"
	"testing"
)

// TestFrameScrolledToBottom: a cross-origin frame 300 px high whose document
// is ten of its screens long, with a lazy image (loading=lazy) and an image
// an IntersectionObserver swaps in at its bottom: both images are
// requested, as autoscroll scrolls every frame a screen at a time to its
// bottom. It scrolled other frames one screen only, and the images were
// never requested.
func TestFrameScrolledToBottom(t *testing.T) {
	t.Parallel()
	framedImagesLoad(t, "http://blog.test/iframe-scroll.html?embed="+"http://comments.test/frame-lazy.html%3Ftag%3Din-view", "in-view")
}

// TestFrameOutOfViewScrolled: the same frame, 8 000 px above the main
// frame's bottom where the main frame's autoscroll ends, is brought into
// view before it is scrolled, and its images are requested. Out of view,
// Chromium drew none of its screens: the scroll script waited for them
// until the settling's time ran out (two minutes), and the images were
// not requested.
func TestFrameOutOfViewScrolled(t *testing.T) {
	t.Parallel()
	framedImagesLoad(t, "http://blog.test/iframe-scroll.html?below=8000&embed="+"http://comments.test/frame-lazy.html%3Ftag%3Dout-of-view", "out-of-view")
}

// framedImagesLoad renders u, whose frame is frame-lazy.html?tag=tag, and
// fails the test unless both of the frame's images were requested and the
// page settled with no note.
func framedImagesLoad(t *testing.T, u, tag string) {
	t.Helper()
	res := renderOK(t, context.Background(), u)
	for _, img := range []string{"native", "observed"} {
		if p := "/img/frame-" + img + "-" + tag + ".png"; comments.hitCount(p) == 0 {
			t.Errorf("%s never requested: the frame was not scrolled to its bottom (notes %q)", p, res.Notes)
		}
	}
	if len(res.Notes) != 0 {
		t.Errorf("Notes = %q: the page settled and the frame's bottom was reached, want none", res.Notes)
	}
}

// TestFrameScrollLimitNoted: a frame whose document is 60 of its screens
// high is scrolled to the limit of 40 screens, and a note naming the frame
// says it stopped before its bottom.
func TestFrameScrollLimitNoted(t *testing.T) {
	t.Parallel()
	frame := "http://comments.test/frame-tall.html"
	res := renderOK(t, context.Background(), "http://blog.test/iframe-scroll.html?embed="+frame)
	want := "frame " + frame + ": scrolling stopped at the limit of 40 screens, before the frame's bottom"
	if !contains(res.Notes, want) {
		t.Errorf("Notes = %q, want one starting %q", res.Notes, want)
	}
	for _, n := range res.Notes {
		if strings.Contains(n, "timeout") || strings.HasPrefix(n, "scrolling stopped") {
			t.Errorf("note %q: the page settled and its main frame is short, want neither a timeout nor a main frame's scroll note", n)
		}
	}
}

// TestZeroHeightFrameNotScrolled: a frame of no height whose document is
// long (a hidden widget) has nothing in view to scroll to: it reports its
// bottom at once, with no note, and the page settles.
func TestZeroHeightFrameNotScrolled(t *testing.T) {
	t.Parallel()
	frame := "http://comments.test/frame-lazy.html?tag=zero"
	res := renderOK(t, context.Background(), "http://blog.test/iframe-scroll.html?h=0&embed="+frame)
	if len(res.Notes) != 0 {
		t.Errorf("Notes = %q, want none: a frame of no height has no bottom to reach", res.Notes)
	}
	if !strings.Contains(string(res.HTML), "Comments in a frame") {
		t.Errorf("page not captured (notes %q)", res.Notes)
	}
}

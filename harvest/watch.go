package harvest

import (
	"encoding/json"
	"maps"
	"slices"
	"time"

	"github.com/blogharvest/blogharvest"
)

// Watch is what a crawl leaves for the next update that an archive keeps
// for `crawl -out`, which starts from the archive (State's
// CrawlState.Threads, CommentShapes, WidgetScripts and Moved): in the Blog record's state file
// (blogharvest.RoleState, stateFile) and, after a crawl that changed it
// without writing a Blog AIP, in the state the archive keeps beside the
// bags (the daemon's aip.PutBlogState). Its JSON is the content of both.
type Watch struct {
	At            time.Time                           `json:"at,omitzero"` // when the crawl that left it started
	Threads       map[string][]blogharvest.Validators `json:"threads"`
	CommentShapes []string                            `json:"comment_shapes,omitempty"`
	// WidgetScripts are the scripts that drew comment widgets
	// (scriptwidget.go; CrawlState.WidgetScripts).
	WidgetScripts []string `json:"widget_scripts,omitempty"`
	// Moved is CrawlState.Moved: the posts that moved, new URL → the URL
	// they were archived under (moves.go).
	Moved map[string]string `json:"moved,omitempty"`
	// Gone is CrawlState.Gone: the archived posts that answered 404 or
	// 410, suspected or withdrawn (gone.go).
	Gone map[string]blogharvest.GonePost `json:"gone,omitempty"`
}

// WatchOf returns the Watch of a crawl's state st, started at at.
func WatchOf(st blogharvest.CrawlState, at time.Time) Watch {
	return Watch{At: at.UTC(), Threads: st.Threads, CommentShapes: st.CommentShapes, WidgetScripts: st.WidgetScripts, Moved: st.Moved, Gone: st.Gone}
}

// JSON returns the content of a state file holding w.
func (w Watch) JSON() []byte {
	body, _ := json.Marshal(w) // strings, times and maps of strings: no error
	return body
}

// WatchFrom returns the Watch a state file holds (Watch.JSON); zero when
// data is empty or does not parse. At is zero for a Blog AIP written
// before it was recorded.
func WatchFrom(data []byte) Watch {
	var w Watch
	if len(data) == 0 || json.Unmarshal(data, &w) != nil {
		return Watch{}
	}
	return w
}

// Same reports whether w and o ask for the same thread URLs and compare
// their answers with the same digests (validators aside: a new ETag of
// the same answer changes nothing the next poll decides), with the same
// comment shapes, so that a caller keeping the watch writes it only when
// it changed.
func (w Watch) Same(o Watch) bool {
	return slices.Equal(w.CommentShapes, o.CommentShapes) && slices.Equal(w.WidgetScripts, o.WidgetScripts) && maps.Equal(w.Moved, o.Moved) && maps.EqualFunc(w.Gone, o.Gone, sameGone) && maps.EqualFunc(w.Threads, o.Threads, func(x, y []blogharvest.Validators) bool {
		return slices.EqualFunc(x, y, func(v, u blogharvest.Validators) bool { return v.URL == u.URL && v.Digest == u.Digest })
	})
}

// stateFile returns w as a file of the Blog record
// (blogharvest.RoleState), so that an update started from the archive
// (StateFrom, WatchFrom) knows it; nil when it holds nothing.
func stateFile(w Watch) *blogharvest.File {
	if len(w.Threads) == 0 && len(w.CommentShapes) == 0 && len(w.WidgetScripts) == 0 && len(w.Moved) == 0 && len(w.Gone) == 0 {
		return nil
	}
	f := &blogharvest.File{Role: blogharvest.RoleState, MediaType: "application/json", Body: w.JSON(), Captured: w.At}
	f.Sum()
	return f
}

// MovedFrom returns State.Moved from the content of a Blog AIP's state
// file (stateFile); nil when it holds none or does not parse.
func MovedFrom(data []byte) map[string]string { return WatchFrom(data).Moved }

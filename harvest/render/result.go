package render

import (
	"time"

	"github.com/blogharvest/blogharvest"
)

// Result is one rendered page.
type Result struct {
	URL string // the URL asked for
	// FinalURL is the main frame's URL after redirects and script
	// navigation.
	FinalURL string
	// Status is the HTTP status of the main document; zero if unknown.
	Status int
	// HTML is the DOM serialised after scripts ran, with the documents of
	// same-origin iframes inlined as <div data-blogharvest-iframe="src">
	// right after their iframe.
	HTML []byte
	// Frames holds the documents of the other (cross-origin) frames, each
	// with its own same-origin iframes inlined: those of the page's process
	// in document order, then out-of-process ones in order of appearance.
	Frames []Frame
	// Screenshot is a full-page PNG; nil unless Options.Screenshot.
	Screenshot []byte
	// Console holds uncaught exceptions and console errors of the page.
	Console []string
	// NetErrors holds failed requests ("net::ERR_… URL") and HTTP errors
	// ("404 URL") of the page and its frames.
	NetErrors []string
	// API holds the JSON responses the page's scripts fetched (XHR and
	// fetch) in the tab's own session, in the order they arrived: what a
	// comment widget drew its thread from.
	API []APIResponse
	// Responses are the HTTP responses the page and its frames received,
	// with their bodies (network.go), the main document's included
	// (Response.Main); nil unless Options.Record.
	Responses []Response
	// Unrecorded are responses the browser received that Responses lacks:
	// a body Chromium did not keep for the recorder (it drops bodies over
	// its buffer sizes), or a response past the per-page cap. Each says
	// why, so that what the page loaded and no record holds is accounted
	// for. Nil unless Options.Record.
	Unrecorded []Unrecorded
	// Clicks counts the "load more" controls clicked.
	Clicks int
	// Notes says what kept the capture from being complete, e.g. a timeout
	// before the network went idle, scrolling stopped before the bottom
	// of the page or of one of its frames (named), or a retry after a browser crash. The capture is still the
	// best the page gave.
	Notes []string
	// Elapsed is the wall time the render took.
	Elapsed time.Duration
}

// Frame is the document of one cross-origin frame of a rendered page.
type Frame struct {
	URL  string // the frame's URL
	HTML []byte // its serialised DOM
}

// Files turns r into captured files for an Entry or Blog record: the
// rendered DOM (RoleRendered), each cross-origin frame document
// (RoleRendered, with the frame's URL) and the screenshot (RoleScreenshot),
// with checksums filled. captured is the capture time to record.
func (r *Result) Files(captured time.Time) []blogharvest.File {
	html := "text/html; charset=utf-8"
	out := []blogharvest.File{madeFile(r.URL, blogharvest.RoleRendered, html, r.HTML, captured)}
	for _, f := range r.Frames {
		out = append(out, madeFile(f.URL, blogharvest.RoleRendered, html, f.HTML, captured))
	}
	if r.Screenshot != nil {
		out = append(out, madeFile(r.URL, blogharvest.RoleScreenshot, "image/png", r.Screenshot, captured))
	}
	return out
}

// madeFile returns a File the harvest made, with its checksum.
func madeFile(url string, role blogharvest.Role, mediaType string, body []byte, captured time.Time) blogharvest.File {
	f := blogharvest.File{URL: url, Role: role, MediaType: mediaType, Body: body, Captured: captured}
	if f.Body == nil {
		f.Body = []byte{}
	}
	f.Sum()
	return f
}

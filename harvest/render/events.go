package render

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/inspector"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
)

// maxMessages caps the console and network messages kept per page.
const maxMessages = 200

// watcher follows the events of one tab while it renders one page: requests
// in flight (for the network-idle wait), failed requests, console errors,
// the main document's status, dialogs and renderer crashes.
type watcher struct {
	mu       sync.Mutex
	inflight map[network.RequestID]request
	urls     map[network.RequestID]string // every request seen, for messages
	methods  map[network.RequestID]string // the method of every request seen (api.go)
	scripts  map[network.RequestID]string // the script that made each request, where the browser says (api.go)
	changed  time.Time                    // last time inflight changed
	console  []string
	netErrs  []string
	status   int
	crashed  chan struct{}
	dialogs  chan page.DialogType
	mainID   cdp.FrameID
	oopifs   []target.ID // out-of-process iframes attached, in order
	apis     []apiCall   // the scripts' JSON responses (api.go)
}

// newWatcher returns a watcher for the tab whose main frame is mainID.
func newWatcher(mainID cdp.FrameID) *watcher {
	return &watcher{
		inflight: map[network.RequestID]request{},
		urls:     map[network.RequestID]string{},
		methods:  map[network.RequestID]string{},
		scripts:  map[network.RequestID]string{},
		changed:  time.Now(),
		crashed:  make(chan struct{}),
		dialogs:  make(chan page.DialogType, 1),
		mainID:   mainID,
	}
}

// onEvent is the chromedp target listener. It runs on the tab's event loop
// and must not block.
func (w *watcher) onEvent(ev any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		w.requestSent(ev)
	case *network.EventResponseReceived:
		w.responseReceived(ev)
	case *network.EventLoadingFinished:
		w.done(ev.RequestID)
		w.apiLoaded(ev.RequestID)
	case *network.EventLoadingFailed:
		w.failed(ev)
	case *runtime.EventExceptionThrown:
		w.addConsole("uncaught " + exceptionText(ev.ExceptionDetails))
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.APITypeError {
			w.addConsole("console.error: " + argsText(ev.Args))
		}
	case *cdplog.EventEntryAdded:
		// Network entries repeat NetErrors.
		if ev.Entry.Level == cdplog.LevelError && ev.Entry.Source != cdplog.SourceNetwork {
			w.addConsole(strings.TrimSpace(ev.Entry.Text + " " + ev.Entry.URL))
		}
	case *page.EventFrameNavigated:
		w.navigated(ev.Frame)
	case *page.EventJavascriptDialogOpening:
		select {
		case w.dialogs <- ev.Type:
		default:
		}
	case *target.EventAttachedToTarget:
		w.oopifAttached(ev)
	case *inspector.EventTargetCrashed:
		select {
		case <-w.crashed:
		default:
			close(w.crashed)
		}
	}
}

// requestSent counts a request in flight. Event streams are left out: they
// never end by design.
func (w *watcher) requestSent(ev *network.EventRequestWillBeSent) {
	if isFavicon(ev.Request.URL) {
		return // the browser's own request, not the page's
	}
	w.urls[ev.RequestID] = ev.Request.URL
	w.methods[ev.RequestID] = ev.Request.Method
	if s := initiatorScript(ev.Initiator); s != "" {
		w.scripts[ev.RequestID] = s
	}
	if ev.Type == network.ResourceTypeEventSource || strings.HasPrefix(ev.Request.URL, "data:") {
		return
	}
	if _, ok := w.inflight[ev.RequestID]; !ok { // redirects reuse the id
		w.inflight[ev.RequestID] = request{ev.LoaderID, ev.FrameID}
		w.changed = time.Now()
	}
}

// request is a request in flight.
type request struct {
	loader cdp.LoaderID
	frame  cdp.FrameID
}

// navigated forgets the requests of the previous document when the main
// frame commits a new one: the browser does not always report them
// cancelled.
func (w *watcher) navigated(f *cdp.Frame) {
	if f.ParentID != "" || f.ID != w.mainID {
		return
	}
	for id, r := range w.inflight {
		if r.loader != f.LoaderID {
			delete(w.inflight, id)
		}
	}
	w.changed = time.Now()
}

// responseReceived records the main document's status and HTTP errors.
func (w *watcher) responseReceived(ev *network.EventResponseReceived) {
	r := ev.Response
	if ev.Type == network.ResourceTypeDocument && ev.FrameID == w.mainID && w.status == 0 {
		w.status = int(r.Status)
	}
	if _, ok := w.urls[ev.RequestID]; ok && r.Status >= 400 {
		w.addNetErr(fmt.Sprintf("%d %s", int(r.Status), r.URL))
	}
	w.apiResponseSeen(ev)
}

// failed records a request that failed, unless the page itself cancelled it.
func (w *watcher) failed(ev *network.EventLoadingFailed) {
	if _, ok := w.urls[ev.RequestID]; ok && !ev.Canceled {
		w.addNetErr(fmt.Sprintf("%s %s", ev.ErrorText, w.urls[ev.RequestID]))
	}
	w.done(ev.RequestID)
}

// done removes a finished request from the ones in flight.
func (w *watcher) done(id network.RequestID) {
	if _, ok := w.inflight[id]; ok {
		delete(w.inflight, id)
		w.changed = time.Now()
	}
}

func (w *watcher) addConsole(s string) {
	if len(w.console) < maxMessages {
		w.console = append(w.console, s)
	}
}

func (w *watcher) addNetErr(s string) {
	if len(w.netErrs) < maxMessages {
		w.netErrs = append(w.netErrs, s)
	}
}

// quiet reports whether no request has been in flight for at least idle, and
// otherwise how many are.
func (w *watcher) quiet(idle time.Duration) (bool, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.inflight) == 0 && time.Since(w.changed) >= idle, len(w.inflight)
}

// pending returns up to three URLs still in flight, for notes.
func (w *watcher) pending() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for id := range w.inflight {
		u := w.urls[id]
		if len(out) == 3 {
			break
		}
		out = append(out, u)
	}
	return out
}

// exceptionText describes an uncaught exception.
func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "exception"
	}
	s := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		s = firstLine(d.Exception.Description)
	}
	if d.URL != "" {
		s += fmt.Sprintf(" (%s:%d)", d.URL, d.LineNumber+1)
	}
	return s
}

// argsText joins the arguments of a console call.
func argsText(args []*runtime.RemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		switch {
		case a.Value != nil:
			parts = append(parts, strings.Trim(string(a.Value), `"`))
		case a.Description != "":
			parts = append(parts, firstLine(a.Description))
		default:
			parts = append(parts, string(a.Type))
		}
	}
	return strings.Join(parts, " ")
}

// isFavicon reports whether u is the site icon the browser asks for by
// itself.
func isFavicon(u string) bool {
	return strings.HasSuffix(u, "/favicon.ico")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// snapshot copies what the watcher collected into r.
func (w *watcher) snapshot(r *Result) {
	w.mu.Lock()
	defer w.mu.Unlock()
	r.Status = w.status
	r.Console = append([]string(nil), w.console...)
	r.NetErrors = append([]string(nil), w.netErrs...)
}

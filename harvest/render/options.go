package render

import (
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"time"
)

// ErrNoBrowser is returned (wrapped) by New when no Chromium or Chrome binary
// can be found. Callers fall back to static harvesting.
var ErrNoBrowser = errors.New("no headless browser available")

// ErrBrowserStart is returned (wrapped, with the reason) by New when the
// browser binary is there but its process did not start: it crashed, or
// did not open its DevTools endpoint within the start timeout (a loaded
// machine). Unlike ErrNoBrowser it may go away by itself: callers that
// needed rendering should say so and try again later.
var ErrBrowserStart = errors.New("the browser did not start")

// Options configures a Browser. The zero value is usable: every zero field
// takes the default named in its comment.
type Options struct {
	// ExecPath is the browser binary. If empty, New looks up chromium,
	// chromium-browser and google-chrome on PATH, in that order.
	ExecPath string
	// Tabs is how many pages render at once, each in its own reused tab.
	// If zero, 2.
	Tabs int
	// Timeout bounds one page: loading, settling, clicking and capturing
	// (a sooner deadline of Render's context wins). The retry after a
	// browser failure gets a Timeout of its own. If zero, 30s.
	Timeout time.Duration
	// IdleTime is how long the network must stay quiet (no request in
	// flight) before the page counts as settled. If zero, 500ms.
	IdleTime time.Duration
	// MaxClicks bounds the "load more" clicks on one page. If zero, 30;
	// if negative, no clicks at all.
	MaxClicks int
	// ExtraSelectors are CSS selectors of further "load more" controls,
	// tried after the built-in table (see Behaviours).
	ExtraSelectors []string
	// ProxyServer is passed as --proxy-server (e.g. "http://proxy:3128").
	// If empty, connections are direct.
	ProxyServer string
	// NoProxy lists hosts reached directly, in NO_PROXY syntax
	// ("localhost,.example.org"). Used only with ProxyServer.
	NoProxy string
	// TrustedCAs are PEM files of certificates Chromium accepts as TLS
	// anchors besides its own store (a TLS-inspecting proxy's CA): a
	// certificate chain holding one of their public keys is accepted.
	TrustedCAs []string
	// PinHosts are hosts (the blog's, typically) whose TLS certificate
	// chains New verifies in Go against the system pool plus TrustedCAs,
	// through ProxyServer, and tells Chromium to accept. Needed only with
	// TrustedCAs; a host that cannot be verified fails New.
	PinHosts []string
	// ProxyOnly sends every request to ProxyServer, a filtering proxy on
	// loopback: loopback targets are not bypassed and Chromium resolves no
	// name itself (HostRules and NoProxy are ignored).
	ProxyOnly bool
	// FrameAllowed, if set, says whether a frame's document may be
	// captured: frames whose URL it refuses (their loads were refused by
	// the proxy) are left out of Result.Frames, with a note.
	FrameAllowed func(url string) bool
	// HostRules is passed as --host-resolver-rules (e.g.
	// "MAP blog.example 127.0.0.1:8080"). If empty, DNS is used.
	HostRules string
	// Screenshot asks for a full-page PNG of every page.
	Screenshot bool
	// Record asks for every HTTP response the page received, with its body
	// (Result.Responses).
	Record bool
	// Logger receives restarts and other events of the browser. If nil,
	// slog.Default().
	Logger *slog.Logger
}

// withDefaults returns o with its zero fields set to their defaults.
func (o Options) withDefaults() Options {
	if o.Tabs <= 0 {
		o.Tabs = 2
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.IdleTime <= 0 {
		o.IdleTime = 500 * time.Millisecond
	}
	if o.MaxClicks == 0 {
		o.MaxClicks = 30
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// browserNames are the binaries looked up on PATH when Options.ExecPath is
// empty.
var browserNames = []string{"chromium", "chromium-browser", "google-chrome"}

// findBrowser returns the browser binary to run, or an error wrapping
// ErrNoBrowser.
func findBrowser(execPath string) (string, error) {
	if execPath != "" {
		p, err := exec.LookPath(execPath)
		if err != nil {
			return "", fmt.Errorf("%w: %s: %v (install Debian's chromium or set the browser path)", ErrNoBrowser, execPath, err)
		}
		return unwrapLauncher(p), nil
	}
	for _, name := range browserNames {
		if p, err := exec.LookPath(name); err == nil {
			return unwrapLauncher(p), nil
		}
	}
	return "", fmt.Errorf("%w: none of %v on PATH (install Debian's chromium or set the browser path)", ErrNoBrowser, browserNames)
}

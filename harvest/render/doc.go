// Package render drives a headless Chromium (chromedp) to render pages that
// JavaScript builds: a pool of tabs, network-idle waits, autoscroll, clicking
// "load more comments", iframe capture and full-page screenshots.
//
// One Browser runs one browser process for the whole harvest (New), with a
// bounded pool of reused tabs, each in a window of its own so that every page
// is visible and draws frames (lazy loaders, IntersectionObserver and
// screenshots depend on it). Render loads a page, waits until no request has
// been in flight for Options.IdleTime, scrolls down screen by screen (on to
// the next screen only once the page has drawn this one, however late its
// frames come: a busy compositor delays them, and a lazy image scrolled
// past undrawn is never loaded; js/scroll.js), the main frame to its
// bottom and then every other frame (a fixed-height comment iframe whose
// document is long) to its own, in the frames' order, each at most
// maxScrolls screens, its iframe first brought into the window's view (out
// of view, a frame draws nothing and its lazy images see no viewport;
// behave.go, reveal); a frame no taller than its viewport, or of no
// height, costs one script call and no wait (most frames are short); then
// clicks "load more" controls (the table of Behaviours, labels such as "Load
// more comments" or "Show 2 more replies", Options.ExtraSelectors) in every
// frame until a click adds nothing, and serialises the DOM. The package's scripts run in an isolated
// world per frame: they see the page's DOM but not its JavaScript, and leave
// no trace in it.
//
// Frames: the documents of same-origin iframes are inlined into Result.HTML
// as <div data-blogharvest-iframe="src"> right after their iframe; the
// documents of cross-origin frames (a Disqus thread) come in Result.Frames.
// Site isolation is switched off so that cross-site frames live in the
// page's renderer, where the page's DevTools session reaches them; should a
// frame still run out of process, Render attaches to its target and treats
// it like the others (its requests, clicks and document).
//
// API responses: the JSON bodies of the XHR and fetch requests the page's
// scripts made in the tab's own session come in Result.API (api.go: the
// first 64, each up to 4 MiB), for readers that prefer a widget's data to
// the DOM it drew, each with the script whose code made the request when
// the browser's initiator stack names it (APIResponse.Script).
// Network recording: with Options.Record, every HTTP response the page and
// its frames received is kept with its body (Result.Responses), as
// Browsertrix records a browser's traffic through the DevTools protocol:
// a self-contained listener (netRecorder in network.go) follows the
// Network events and the bodies are asked for (Network.getResponseBody)
// before the tab leaves the page. A response whose body Chromium did not
// keep (it evicts bodies over its buffer sizes) and every request past the
// per-page cap are named in Result.Unrecorded with the reason, never left
// out silently (harvest records them in the ledger), as are the responses
// whose bodies were not read before the page's time ran out. From the
// capture on, the tab's requests are blocked (Network.setBlockedURLs) and,
// at the tab's reset, the page is frozen before it is navigated away (its
// document outlives the navigation for a moment, detached from the
// session): no request reaches a server unseen after the recorder stops
// (TestNoRequestAfterCaptureUnseen). The next page's load thaws the tab
// and lifts the block. A response Chromium
// served from its own cache (memory, disk or prefetch) is marked
// Response.FromCache: no request reached the server (harvest records no
// fetch for it). Headers come as Chromium reports them, secrets included;
// the caller redacts.
//
// Failures: a page that never settles is captured when its time is nearly
// spent, with a note in Result.Notes. So is a page one of whose frames
// autoscroll left before its bottom, at the limit of 40 screens
// (maxScrolls) or on the scroll script's error ("scrolling stopped …,
// before the page's bottom: lazy images and comments further down may be
// missing" for the main frame, "frame URL: scrolling stopped …, before the
// frame's bottom: …" for another; behave.go, scrollNote), unless the
// settling's time ran out, which the timeout's note says. A crashed or hung renderer loses its
// tab, a dead or unresponsive browser is restarted, and the page is tried
// once more before Render returns an error. New returns an error wrapping
// ErrNoBrowser when no browser is installed (the harvest then runs without
// rendering), and one wrapping ErrBrowserStart, with the reason, when an
// installed browser did not start within startTimeout (the harvest then
// archives the pages that needed rendering unrendered, says so and has
// them rendered on its next run).
//
// The browser runs headless with --no-sandbox (the harvester may run as
// root), a fresh --user-data-dir removed on Close, and the background
// traffic of Chromium switched off (quietFlags: component and variations
// updates, sign-in, sync, metrics, crash reports, safe browsing, GCM,
// translation, optimisation hints, media routing, search preconnects);
// the services that cannot be switched off (the accounts check, GCM
// check-in) are pointed at .invalid names. With Options.ProxyOnly every
// request goes to ProxyServer (the harvest's filtering proxy): loopback
// is not bypassed, Chromium resolves no name itself and WebRTC sends no
// UDP outside the proxy. Options.FrameAllowed keeps frames the proxy
// refused out of the capture. The browser process gets an environment
// built from an allow-list (childenv.go: PATH, HOME, the locale, TZ,
// TMPDIR, fonts, XDG_*), never the crawl's own: no S3 or proxy
// credentials reach a process that runs hostile pages' scripts.
package render

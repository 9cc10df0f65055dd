package harvest

import (
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// fetching is fetching, a stage of the page worker (its named field
// w.fetch): the crawl's HTTP client, the browser (started on first need,
// closed at the end: browser.go, browsergate.go), the capture of page
// requisites with its caches (requisites.go, requisitestore.go) and the
// capture of media with its cache (media.go, mediacache.go). Its config
// (fetchConfig) is built once by newCrawl from the Options (fetchConfigOf),
// so that the worker reads no Options field for the browser, requisites
// or media; the client is handed to it by the coordinator once built
// (pageWorker.useClient), before any page is fetched. What to render (the
// render decision: reasons and budget, renderdecision.go) is not the
// stage's: it is the page worker's. Safe for concurrent use: the client,
// the browser and the caches are, and the rest is set before the workers
// start.
type fetching struct {
	cfg    fetchConfig
	client *fetch.Client  // the crawl's client (useClient); nil before
	render *rendererState // the browser: started by the first worker that needs it
	// requisites are the page requisites fetched in this crawl, shared by
	// its pages (requisites.go); stored what the blog's requisites
	// packages hold (requisitestore.go).
	requisites *mediaCache
	stored     *storedRequisites
	media      *mediaCache // media fetched in this crawl, shared by its entries
	// start is the crawl's start: the capture time of a stored requisite
	// reused without a request.
	start time.Time
}

// fetchConfig is what fetching reads of the crawl's options, built once
// by fetchConfigOf: the browser's, the requisite capture's and the media
// capture's.
type fetchConfig struct {
	render renderConfig
	req    requisiteConfig
	media  mediaConfig
}

// renderConfig is what the crawl's browser reads of the options: whether
// and how it renders (Render, Browser, Auth) and how a browser the crawl
// starts is set up (PerHost, RenderTimeout, Transport, CAFile,
// RenderHostRules).
type renderConfig struct {
	mode      string        // Options.Render
	browser   Renderer      // Options.Browser: the browser given; nil: one started on first need
	auth      bool          // Options.Auth is set: the browser is not given the credentials (renderOffForAuth)
	tabs      int           // Options.PerHost
	timeout   time.Duration // Options.RenderTimeout: one page's time in a browser the crawl starts
	transport bool          // Options.Transport is set (replay): no proxy or CAs from the environment
	caFile    string        // Options.CAFile
	hostRules string        // Options.RenderHostRules
}

// mediaConfig is what the capture of media reads of the options: its
// bounds (MaxMediaBytes, MaxMediaPerEntry), where media may come from
// (MediaHosts) and what the archive already holds (Archived).
type mediaConfig struct {
	maxBytes    int64
	maxPerEntry int
	hosts       string
	archived    func(e *blogharvest.Entry) []blogharvest.File
}

// fetchConfigOf returns fetching's config in o (defaults applied).
func fetchConfigOf(o Options) fetchConfig {
	return fetchConfig{
		render: renderConfig{mode: o.Render, browser: o.Browser, auth: o.Auth != nil, tabs: o.PerHost, timeout: o.RenderTimeout,
			transport: o.Transport != nil, caFile: o.CAFile, hostRules: o.RenderHostRules},
		req:   requisiteConfigOf(o),
		media: mediaConfig{maxBytes: o.MaxMediaBytes, maxPerEntry: o.MaxMediaPerEntry, hosts: o.MediaHosts, archived: o.Archived},
	}
}

// newFetching returns the fetching stage of a crawl started at start,
// with its config cfg and the stored requisites' loader (nil: none);
// without a client until useClient.
func newFetching(cfg fetchConfig, start time.Time, stored func() []blogharvest.File) *fetching {
	return &fetching{cfg: cfg, render: &rendererState{}, requisites: newMediaCache(), stored: &storedRequisites{load: stored},
		media: newMediaCache(), start: start}
}

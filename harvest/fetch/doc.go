// Package fetch is the HTTP client of a crawl: URLs percent-encoded as a
// browser sends them (blogharvest.NormalizeURL, every hop), timeouts, body caps,
// decompression, charset decoding, redirects, robots.txt (with a cap on its
// Crawl-delay), per-host rate limits, retries with backoff bounded by a
// per-request deadline, a minimum transfer rate, conditional GET, proxies, basic authentication sent
// to the blog's own origins only, and the crawl's scope and
// address rules: pages (Kind Page) only on the blog's origins
// (Options.Origins: scheme, host and port), every redirect hop included;
// a feed's pages after the first (Kind FeedPage) there or on a blog
// platform's own feed host (Options.FeedHosts, from the platform table);
// subresources from any public address; non-public addresses (checked as
// they are dialled, after DNS) only on the blog's origins. Behind a proxy,
// where names are resolved by the proxy, literal non-public addresses and
// localhost, private-use and cloud-metadata names are refused before
// anything is sent. A browser rendering for the crawl goes through
// BrowserProxy, a loopback proxy that tunnels or forwards only what its
// BrowserGate allows: the same decision, through CheckBrowserTarget and
// DialBrowser. Every response becomes a blogharvest.File capture; every
// error says whether it is transient. A host that gives no HTTP answer
// (connection refused or reset, DNS, TLS, timeout) fails with an
// *UnreachableError naming the cause in plain words (unreachable.go), also
// when it was its robots.txt that got no answer: that disallows nothing.
package fetch

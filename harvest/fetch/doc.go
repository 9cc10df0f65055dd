// Package fetch is the HTTP client of a crawl: timeouts, body caps,
// decompression, charset decoding, redirects, robots.txt, per-host rate limits,
// retries with backoff, conditional GET, proxies, and a refusal to follow a
// public blog onto private addresses. BrowserProxy puts a browser behind the
// same decision: a loopback proxy that tunnels or forwards only what a
// BrowserGate allows. Every response becomes a
// blogharvest.File capture; every error says whether it is transient.
package fetch

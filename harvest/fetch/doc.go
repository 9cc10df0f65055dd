// Package fetch is the HTTP client of a crawl: timeouts, body caps,
// decompression, charset decoding, redirects, robots.txt (with a cap on its
// Crawl-delay), per-host rate limits, retries with backoff bounded by a
// per-request deadline, a minimum transfer rate, conditional GET, proxies,
// and a refusal to follow a public blog onto private addresses. Every
// response becomes a blogharvest.File capture; every error says whether it
// is transient.
package fetch

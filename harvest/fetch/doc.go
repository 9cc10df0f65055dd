// Package fetch is the HTTP client of a crawl: timeouts, body caps,
// decompression, charset decoding, redirects, robots.txt, per-host rate limits,
// retries with backoff, conditional GET, proxies, basic authentication sent
// to the blog's own origins only, and a refusal to follow a public blog onto
// private addresses. Every response becomes a
// blogharvest.File capture; every error says whether it is transient.
package fetch

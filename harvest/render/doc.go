// Package render drives a headless Chromium (chromedp) to render pages that
// JavaScript builds: a pool of tabs, network-idle waits, autoscroll, clicking
// "load more comments", iframe capture and full-page screenshots.
package render

// Command eval measures blogharvest against its peers on real corpora
// (DESIGN §8).
//
// Mode extract learns rules on one half of each blog's feed entries (split
// by date), extracts the other half, then swaps, and scores blogharvest and
// three baselines (go-trafilatura, readeck go-readability, go-domdistiller)
// on the same pages against the feed's title, author, date, full text and
// comment feeds. Mode crawl replays each blog from the corpus on loopback
// with a feed cut to its newest half and scores what NewCrawl discovers and
// extracts of the older half.
//
// Usage:
//
//	go run . -corpus DIR -mode extract|crawl -json OUT.json -md OUT.md -plot OUT.svg [-blogs a,b] [-fixtures]
//	go run . -corpus DIR -mode extract|crawl -floors floors.json [-write-floors [-force-floors]]
//
// With -floors, every blog's figures (held-out posts found, article,
// title, author, date, comments) are checked against the committed floors
// and the command fails naming each figure below its floor; -write-floors
// raises the floors to the run's values and never lowers one.
//
// The corpus layout is described in the corpus README (blog.json plus
// site/<host>/<path> per blog).
package main

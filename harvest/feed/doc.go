// Package feed discovers, fetches, parses and pages through blog feeds (RSS,
// Atom, JSON Feed) and comment feeds, and derives blog-level metadata from
// them.
package feed

// Package learn learns extraction rules (XPath) for the article, title, author,
// date and comments of a blog from pairs of feed entries and their pages, with
// the linear-time BlogForever algorithm (Sørensen–Dice on character bigrams),
// and applies them, falling back to structured data, platform heuristics and
// text density when a rule is untrusted or finds nothing.
package learn

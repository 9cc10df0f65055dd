// Package anyof finds which of a set of byte strings occur in a page, in
// one pass over the page instead of one bytes.Contains per string: the
// raw-byte prefilters of the crawler (comment platforms' JavaScript
// markers, the words of an edit date) read every page.
//
// Files: anyof.go (the matcher), anyof_test.go (its equivalence with
// bytes.Contains), bench_test.go (the crawler's sets on the corpus pages:
// equivalence and speed).
package anyof

//go:build race

package aip

// raceBuild says whether the tests run with the race detector, which
// slows siegfried's scans of the whole corpus tenfold: the tests then
// sample the corpus.
const raceBuild = true

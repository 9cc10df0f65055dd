//go:build !race

package learn

// raceBuild says whether the tests run with the race detector, which
// slows the corpus-wide checks tenfold: they then sample the corpus.
const raceBuild = false

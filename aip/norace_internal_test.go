//go:build !race

package aip

// raceBuild says whether the tests run with the race detector.
const raceBuild = false

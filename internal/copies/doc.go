// Package copies holds gen.sh, the script that writes the module's copies
// of third-party packages (internal/dateparser, internal/match,
// internal/siegfried, internal/xnet) from their pinned upstream versions and the patches
// beside it, and the test that the committed copies are what it writes;
// memory_test.go bounds what the patched siegfried keeps live after its
// first identification (TestSiegfriedLiveHeap) and times an identification
// (BenchmarkSiegfriedIdentify); signature_test.go checks that siegfried
// loaded from the inflated signature file gives upstream's answers
// (TestInflatedSignaturesIdentifyAsUpstream) and that the file is
// upstream's, inflated (TestInflatedSignatureIsUpstreams);
// dateparser_first_test.go times go-dateparser's first call in a fresh
// process (BenchmarkDateparserFirstCall); html_test.go checks that the
// copy of x/net's html parser builds upstream's trees
// (TestHTMLParsesAsUpstream, FuzzHTMLParsesAsUpstream) and times both
// (BenchmarkHTMLParse).
// Why each copy exists, with the figures: doc/dependencies.md.
package copies

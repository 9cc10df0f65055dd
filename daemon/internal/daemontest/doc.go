// Package daemontest runs the blogharvest binary for the daemon's
// process tests, which live in several test packages (daemon itself and
// the folders under daemon/tests) so that each test binary has go test's
// default 10-minute limit to itself: the binary built once per test
// binary ([Main], [Binary]), processes started and stopped ([Start],
// [Proc]), loopback addresses no other test took ([FreeAddr]), a fixture
// blog with a daemon config ([NewEnv]), the demo blog harvested once and
// copied per test ([CrawlDemo], [DemoArchive]) and a headless Chromium tab
// ([NewBrowser]).
//
// It is imported by tests only.
package daemontest

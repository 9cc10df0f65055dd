package aip_test

import (
	"os"
	"testing"

	"github.com/blogharvest/blogharvest/internal/s3test"
	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// TestMain runs the tests and prints one line per outside tool whose
// absence skipped some (internal/toolskip), then stops the S3 server the
// S3 backend's tests started, if any.
func TestMain(m *testing.M) {
	code := toolskip.Main(m)
	s3test.Stop()
	os.Exit(code)
}

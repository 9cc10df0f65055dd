package aip

import (
	"fmt"
	"testing"
)

// TestSeqNumIsSprintf checks seqNum against fmt.Sprintf("%04d", n), which
// it replaces in the amdSec, object and event IDs of a package.
func TestSeqNumIsSprintf(t *testing.T) {
	for n := 0; n <= 12000; n++ {
		if got, want := seqNum(n), fmt.Sprintf("%04d", n); got != want {
			t.Fatalf("seqNum(%d) = %q, want %q", n, got, want)
		}
	}
}

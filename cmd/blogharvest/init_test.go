package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// TestNothingHeavyAtInit runs this package's test binary (it links what
// the command links) with GODEBUG=inittrace=1 and fails when a package's
// init allocates more than 4 MB, or all of them together more than 16 MB:
// every command, `blogharvest version` included, pays for what runs at
// init. Before go-dateparser's tables were built on first use its
// internal/data package alone allocated 78 MB there. Allocations, not
// clock time, so the test holds on a loaded machine.
func TestNothingHeavyAtInit(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	line := regexp.MustCompile(`(?m)^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, \d+ allocs$`)
	const perPackage, total = 4 << 20, 16 << 20
	var sum, inits int
	for _, m := range line.FindAllStringSubmatch(string(out), -1) {
		n, _ := strconv.Atoi(m[2])
		sum += n
		inits++
		if n > perPackage {
			t.Errorf("init of %s allocates %d bytes (at most %d): build it on first use", m[1], n, perPackage)
		}
	}
	if inits < 50 {
		t.Fatalf("read %d init lines from GODEBUG=inittrace=1; has its format changed?\n%s", inits, out)
	}
	if sum > total {
		t.Errorf("the inits allocate %d bytes in all (at most %d)", sum, total)
	}
	t.Logf("%d package inits allocate %d bytes", inits, sum)
}

package daemontest

import (
	"net"
	"runtime"
	"strconv"
	"testing"
)

// TestFreeAddrReservedForOtherProcesses: a port FreeAddr gave stays
// reserved machine-wide (another test process binding the reservation's
// name fails) and is not given again by this process.
func TestFreeAddrReservedForOtherProcesses(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("abstract unix sockets are Linux's")
	}
	seen := map[string]bool{}
	for range 50 {
		addr := FreeAddr(t)
		if seen[addr] {
			t.Fatalf("%s given twice", addr)
		}
		seen[addr] = true
		_, port, _ := net.SplitHostPort(addr)
		n, _ := strconv.Atoi(port)
		handedOut.Lock()
		_, reserved := handedOut.ports[n]
		handedOut.Unlock()
		if !reserved {
			t.Fatalf("port %s given without a reservation", port)
		}
		if ln, err := net.Listen("unix", "@blogharvest-test-port-"+port); err == nil {
			ln.Close()
			t.Fatalf("port %s given, but its reservation is free for another process", port)
		}
	}
	ln := Listen(t)
	if seen[ln.Addr().String()] {
		t.Fatalf("Listen gave %s, already given", ln.Addr())
	}
}

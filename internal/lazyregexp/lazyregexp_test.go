package lazyregexp

import (
	"strings"
	"sync"
	"testing"
)

// TestNotCompiledBeforeUse: New compiles nothing; the first method call
// compiles, and the result matches as regexp's would.
func TestNotCompiledBeforeUse(t *testing.T) {
	r := New(`^a(\d+)$`)
	if r.rx != nil {
		t.Fatal("compiled by New")
	}
	if r.String() != `^a(\d+)$` || r.rx != nil {
		t.Fatal("String compiled it, or changed the source")
	}
	if m := r.FindStringSubmatch("a42"); len(m) != 2 || m[1] != "42" {
		t.Fatalf("FindStringSubmatch = %q", m)
	}
	if r.rx == nil {
		t.Fatal("not compiled after its first use")
	}
}

// TestConcurrentFirstUse: goroutines using a fresh Regexp at once all see
// one compiled expression (go test -race checks the publication).
func TestConcurrentFirstUse(t *testing.T) {
	r := New(`b+`)
	var wg sync.WaitGroup
	seen := make([]any, 8)
	for i := range seen {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !r.MatchString("abbc") {
				t.Error("no match")
			}
			seen[i] = r.Regexp()
		}()
	}
	wg.Wait()
	for _, s := range seen[1:] {
		if s != seen[0] {
			t.Fatal("compiled more than once")
		}
	}
}

// TestCheckAll names an expression that does not compile; a valid set
// passes.
func TestCheckAll(t *testing.T) {
	if err := CheckAll(); err != nil {
		t.Fatalf("valid expressions: %v", err)
	}
	New(`(unclosed`)
	err := CheckAll()
	if err == nil || !strings.Contains(err.Error(), "(unclosed") {
		t.Fatalf("CheckAll = %v, want an error naming (unclosed", err)
	}
	allMu.Lock()
	all = all[:len(all)-1]
	allMu.Unlock()
}

package fetch

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// TestReadAllMatchesIOReadAll reads bodies of many sizes, whole, a byte
// at a time and cut by an error, with readAll and io.ReadAll, in an order
// that hands readAll its pooled buffers back dirty and bigger than the
// next body, with no announced size, the right one, and wrong ones: the
// bytes and errors must be the same, and no body may share memory with
// the next.
func TestReadAllMatchesIOReadAll(t *testing.T) {
	boom := errors.New("reset")
	var prev []byte
	for _, n := range []int{0, 1, 511, 512, 513, 100000, 3, maxPresized + 70000, 70000, 0} {
		body := bytes.Repeat([]byte{byte(n)}, n)
		readers := map[string]func() io.Reader{
			"whole":   func() io.Reader { return bytes.NewReader(body) },
			"bytes":   func() io.Reader { return iotest.OneByteReader(bytes.NewReader(body)) },
			"error":   func() io.Reader { return io.MultiReader(bytes.NewReader(body), iotest.ErrReader(boom)) },
			"dataerr": func() io.Reader { return iotest.DataErrReader(bytes.NewReader(body)) },
		}
		for name, r := range readers {
			for _, size := range []int{-1, n, n / 2, 2*n + 1, maxPresized + 1} {
				got, gerr := readAll(r(), int64(size))
				want, werr := io.ReadAll(r())
				if !bytes.Equal(got, want) || got == nil || !errors.Is(gerr, werr) && gerr != werr {
					t.Fatalf("%d bytes (announced %d), %s: readAll = %d bytes, %v; io.ReadAll %d bytes, %v", n, size, name, len(got), gerr, len(want), werr)
				}
				if len(prev) > 0 && len(got) > 0 && &prev[0] == &got[0] {
					t.Fatalf("%d bytes (announced %d), %s: body shares memory with the one before", n, size, name)
				}
				prev = got
			}
		}
	}
}

func TestIdentity(t *testing.T) {
	for enc, want := range map[string]bool{"": true, "identity": true, " Identity , ": true, "gzip": false, "identity, br": false, ",": true} {
		if got := identity(enc); got != want {
			t.Errorf("identity(%q) = %v, want %v", enc, got, want)
		}
	}
}

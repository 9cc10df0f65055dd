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
// next body: the bytes and errors must be the same, and no body may share
// memory with the next.
func TestReadAllMatchesIOReadAll(t *testing.T) {
	boom := errors.New("reset")
	var prev []byte
	for _, n := range []int{0, 1, 511, 512, 513, 100000, 3, 70000, 0} {
		body := bytes.Repeat([]byte{byte(n)}, n)
		readers := map[string]func() io.Reader{
			"whole":   func() io.Reader { return bytes.NewReader(body) },
			"bytes":   func() io.Reader { return iotest.OneByteReader(bytes.NewReader(body)) },
			"error":   func() io.Reader { return io.MultiReader(bytes.NewReader(body), iotest.ErrReader(boom)) },
			"dataerr": func() io.Reader { return iotest.DataErrReader(bytes.NewReader(body)) },
		}
		for name, r := range readers {
			got, gerr := readAll(r())
			want, werr := io.ReadAll(r())
			if !bytes.Equal(got, want) || got == nil || !errors.Is(gerr, werr) && gerr != werr {
				t.Fatalf("%d bytes, %s: readAll = %d bytes, %v; io.ReadAll %d bytes, %v", n, name, len(got), gerr, len(want), werr)
			}
			if len(prev) > 0 && len(got) > 0 && &prev[0] == &got[0] {
				t.Fatalf("%d bytes, %s: body shares memory with the one before", n, name)
			}
			prev = got
		}
	}
}

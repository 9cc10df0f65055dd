package learn

import "sync"

// This file holds the scratch buffers that text and HTML are written into
// before being copied out as strings: reused between calls, they spare
// extraction the garbage of growing a buffer for every node and page.

// maxScratch is the largest buffer kept for reuse: the buffers of huge
// pages are left to the collector.
const maxScratch = 1 << 20

// textScratch holds byte slices for nodeText and innerHTML.
var textScratch = sync.Pool{New: func() any { return new([]byte) }}

// getText returns an empty byte slice from the pool; putText returns it.
func getText() *[]byte { return textScratch.Get().(*[]byte) }

// putText returns b, holding the slice last written, to the pool.
func putText(b *[]byte, last []byte) {
	if cap(last) <= maxScratch {
		*b = last[:0]
		textScratch.Put(b)
	}
}

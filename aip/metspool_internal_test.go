package aip

import (
	"bytes"
	"testing"
)

// TestMETSBufferPoolCap checks that a package's METS buffer over
// maxPooledMETS is not put back in metsBuffers, where it would stay live
// through the next collection, and that a small one is reset.
func TestMETSBufferPoolCap(t *testing.T) {
	big, small := new(bytes.Buffer), new(bytes.Buffer)
	big.Grow(2 * maxPooledMETS)
	big.WriteString("METS")
	small.WriteString("METS")
	p := &pkg{pooled: []*bytes.Buffer{big, small}}
	p.removeTemps()
	if p.pooled != nil {
		t.Errorf("pooled %d buffers after removeTemps", len(p.pooled))
	}
	if small.Len() != 0 {
		t.Errorf("small buffer not reset: %q", small.String())
	}
	for range 8 {
		b := metsBuffers.Get().(*bytes.Buffer)
		if b == big || b.Cap() > maxPooledMETS {
			t.Fatalf("pool holds a buffer of %d bytes", b.Cap())
		}
	}
}

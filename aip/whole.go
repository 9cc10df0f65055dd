package aip

// bagFile is one file a Writer put into a temp bag.
type bagFile struct {
	rel  string // path in the bag, slash-separated
	size int64
	body []byte // a tag file's content; nil for payload files
}

// bagFiles is everything a Writer put into a temp bag.
type bagFiles []bagFile

// bytes returns the bytes written.
func (bf bagFiles) bytes() int64 {
	var n int64
	for _, f := range bf {
		n += f.size
	}
	return n
}

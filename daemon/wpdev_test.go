package daemon_test

import (
	"os"
	"testing"
)

func TestWPDev(t *testing.T) {
	root := os.Getenv("WPDEV_ARCHIVE")
	if root == "" {
		t.Skip()
	}
	wp := liveWordPress(t)
	truth := wp.truth(t)
	a := readWPArchive(t, root)
	t.Run("posts", func(t *testing.T) { checkPostSet(t, truth, a) })
	t.Run("fields", func(t *testing.T) { checkFields(t, truth, a) })
	t.Run("comments", func(t *testing.T) { checkComments(t, truth, a) })
	t.Run("capture", func(t *testing.T) { checkCapture(t, wp, a, 0) })
	if os.Getenv("WPDEV_VALID") != "" {
		t.Run("valid", func(t *testing.T) { checkValid(t, root) })
	}
}

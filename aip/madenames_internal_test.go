package aip

import (
	"testing"

	"github.com/blogharvest/blogharvest"
)

// TestMadeFileNames is issue 16's finding 8: the screenshot of a page
// whose URL ends in .html was saved under that name though its bytes are
// PNG. Files the harvest made are named after their bytes.
func TestMadeFileNames(t *testing.T) {
	for _, c := range []struct {
		url, mt string
		role    blogharvest.Role
		want    string
	}{
		{"http://b.example/notes/harbour.html", "image/png", blogharvest.RoleScreenshot, "screenshot.png"},
		{"http://b.example/2024/10/harbour/", "image/png", blogharvest.RoleScreenshot, "screenshot.png"},
		{"http://b.example/notes/harbour.html", "text/html; charset=utf-8", blogharvest.RoleRendered, "harbour.html"},
		{"http://b.example/index.php", "text/html; charset=utf-8", blogharvest.RoleRendered, "index.html"},
		{"http://c.example:8081/embed/thread.json?post=4", "text/html; charset=utf-8", blogharvest.RoleRendered, "thread.html"},
		{"http://b.example/a/picture.jpg", "image/png", blogharvest.RoleMedia, "picture.jpg"}, // as the server sent it
	} {
		if got := objectName(&blogharvest.File{URL: c.url, Role: c.role, MediaType: c.mt}); got != c.want {
			t.Errorf("objectName(%s %q, %s) = %q, want %q", c.role, c.url, c.mt, got, c.want)
		}
	}
}

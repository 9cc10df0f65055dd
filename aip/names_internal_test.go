package aip

import (
	"regexp"
	"testing"

	"github.com/blogharvest/blogharvest"
)

var safeName = regexp.MustCompile(`^[a-z0-9_][a-z0-9._-]{0,79}$`)

func TestObjectName(t *testing.T) {
	for u, want := range map[string]string{
		"https://evil.example/../../etc/passwd":         "passwd.png",
		"https://evil.example/%2e%2e%2f%2e%2e%2fshadow": "shadow.png",
		"https://evil.example/..":                       "file.png",
		"https://evil.example/.htaccess":                "htaccess.png",
		"https://evil.example/a%2Fb%5Cc.jpg":            "a-b-c.jpg",
		"https://x.example/Kettle%20Big.JPG?ver=2":      "kettle-big.jpg",
		"https://x.example/archive.tar.gz":              "archive.tar.gz",
		"https://x.example/%E2%80%AEgnp.exe":            "gnp.exe",
		"https://x.example/Caf%C3%A9%20cr%C3%A8me.webp": "cafe-creme.webp",
		"": "file.png",
	} {
		if got := objectName(&blogharvest.File{URL: u, Role: blogharvest.RoleMedia, MediaType: "image/png"}); got != want {
			t.Errorf("objectName(%q) = %q, want %q", u, got, want)
		}
	}
}

// FuzzObjectName checks that no URL yields an unsafe file name.
func FuzzObjectName(f *testing.F) {
	for _, s := range []string{"https://a.example/../../x", "https://a.example/.%2e/", "\x00", "https://a.example/" + string(make([]byte, 300))} {
		f.Add(s, "image/png")
	}
	f.Fuzz(func(t *testing.T, u, mt string) {
		name := objectName(&blogharvest.File{URL: u, Role: blogharvest.RoleMedia, MediaType: mt})
		if !safeName.MatchString(name) {
			t.Errorf("objectName(%q, %q) = %q", u, mt, name)
		}
	})
}

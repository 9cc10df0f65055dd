package harvest

import (
	"net/url"
	"strings"
	"testing"
)

func TestStubTarget(t *testing.T) {
	base, _ := url.Parse("https://blog.example/old/")
	const to = "https://blog.example/posts/real/"
	long := "<p>" + strings.Repeat("A paragraph of the post itself, long enough to be content. ", 8) + "</p>"
	for _, tc := range []struct {
		name, page, canonical, want string
	}{
		{"hugo alias", `<!DOCTYPE html><html lang="en-us"><head><title>` + to + `</title><link rel="canonical" href="` + to +
			`"><meta name="robots" content="noindex"><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=` + to + `"></head></html>`, to, to},
		{"jekyll redirect_from", "<!DOCTYPE html>\n<html lang=\"en-US\">\n  <meta charset=\"utf-8\">\n  <title>Redirecting&hellip;</title>\n" +
			"  <link rel=\"canonical\" href=\"" + to + "\">\n  <script>location=\"" + to + "\"</script>\n" +
			"  <meta http-equiv=\"refresh\" content=\"0; url=" + to + "\">\n  <meta name=\"robots\" content=\"noindex\">\n" +
			"  <h1>Redirecting&hellip;</h1>\n  <a href=\"" + to + "\">Click here if you are not redirected.</a>\n</html>\n", to, to},
		{"location.replace", `<html><head><script>window.location.replace("/posts/real/");</script></head><body></body></html>`, "", to},
		{"location.href", `<html><body><p>Moved.</p><script>location.href = '/posts/real/'</script></body></html>`, "", to},
		{"window.location", `<html><body><script>window.location = "https://blog.example/posts/real/";</script></body></html>`, "", to},
		{"refresh URL= quoted, 3 s", `<html><head><meta http-equiv="Refresh" content="3;URL='/posts/real/'"></head><body>` + long + `</body></html>`, "", to},
		{"thin page, canonical elsewhere", `<html><head><link rel="canonical" href="` + to + `"></head><body><p>See the post.</p></body></html>`, to, to},
		{"content, canonical elsewhere", `<html><head></head><body>` + long + `</body></html>`, to, ""},
		{"thin page with a picture, canonical elsewhere", `<html><body><img src="/a.jpg"></body></html>`, to, ""},
		{"slow refresh", `<html><head><meta http-equiv="refresh" content="300; url=/posts/real/"></head><body></body></html>`, "", ""},
		{"reload without URL", `<html><head><meta http-equiv="refresh" content="0"></head><body></body></html>`, "", ""},
		{"refresh to itself", `<html><head><meta http-equiv="refresh" content="0; url=/old/"></head><body></body></html>`, "", ""},
		{"content with a script setting location", `<html><body>` + long + `<script>if (x) location.href = "/posts/real/"</script></body></html>`, "", ""},
		{"empty page without a target", `<html><head><title>Nothing</title></head><body></body></html>`, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := stubTarget(parse([]byte(tc.page)), base, tc.canonical); got != tc.want {
				t.Errorf("stubTarget = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseRefresh(t *testing.T) {
	for in, want := range map[string]string{"0; url=/a": "/a", "0;URL='/a'": "/a", `5, url="/a"`: "/a", "0; /a": "/a"} {
		if d, got, ok := parseRefresh(in); !ok || got != want || d > 5 {
			t.Errorf("parseRefresh(%q) = %v %q %v, want %q", in, d, got, ok, want)
		}
	}
	for _, in := range []string{"", "5", "x; url=/a", "-1; url=/a", "0; url="} {
		if _, _, ok := parseRefresh(in); ok {
			t.Errorf("parseRefresh(%q) ok, want not", in)
		}
	}
}

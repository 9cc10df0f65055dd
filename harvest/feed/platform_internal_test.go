package feed

import "testing"

func TestPlatformOf(t *testing.T) {
	for _, tc := range []struct{ value, uri, version, name, ver string }{
		{"https://wordpress.org/?v=6.4.2", "", "", "WordPress", "6.4.2"},
		{"http://wordpress.com/", "", "", "WordPress.com", ""},
		{"Blogger", "http://www.blogger.com", "7.00", "Blogger", "7.00"},
		{"Tumblr (3.0; @letitcrash)", "", "", "Tumblr", "3.0"},
		{"Movable Type Pro 5.2.7", "", "", "Movable Type", "5.2.7"},
		{"Jekyll", "https://jekyllrb.com/", "4.3.2", "Jekyll", "4.3.2"},
		{"Hugo -- gohugo.io", "", "", "Hugo", ""},
		{"Octopress", "http://octopress.org/", "", "Octopress", ""},
		{"MyEngine 2.1 https://myengine.example/", "", "", "MyEngine", "2.1"},
		{"", "", "", "", ""},
	} {
		name, _, ver := platformOf(tc.value, tc.uri, tc.version)
		if name != tc.name || ver != tc.ver {
			t.Errorf("platformOf(%q, %q, %q) = %q, %q; want %q, %q", tc.value, tc.uri, tc.version, name, ver, tc.name, tc.ver)
		}
	}
}

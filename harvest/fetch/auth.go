package fetch

import (
	"net/http"
	"net/url"
)

// BasicAuth is a user name and password sent as HTTP basic authentication
// to the origins listed, and to no other.
type BasicAuth struct {
	User     string
	Password string
	// Origins are the origins ("https://blog.example:443") that get the
	// credentials; the default port may be left out. Every other origin,
	// a redirect target included, gets none.
	Origins []string
}

// String names the user, never the password, so a BasicAuth printed by
// mistake leaks nothing.
func (a *BasicAuth) String() string { return a.User + ":[redacted]" }

// authTransport adds basic authentication to requests for its origins.
type authTransport struct {
	next    http.RoundTripper
	header  string // the Authorization value
	origins map[string]bool
}

// withAuth wraps rt so that every request to one of a's origins carries a's
// credentials; rt itself when a is nil.
func withAuth(rt http.RoundTripper, a *BasicAuth) http.RoundTripper {
	if a == nil || a.User == "" && a.Password == "" {
		return rt
	}
	r, _ := http.NewRequest(http.MethodGet, "http://x/", nil)
	r.SetBasicAuth(a.User, a.Password)
	t := &authTransport{next: rt, header: r.Header.Get("Authorization"), origins: map[string]bool{}}
	for _, o := range a.Origins {
		if u, err := url.Parse(o); err == nil && u.Host != "" {
			if o, ok := originOf(u); ok {
				t.origins[o] = true
			}
		}
	}
	return t
}

// RoundTrip sends req with the credentials when its URL is one of the
// origins, and makes sure it carries none of them otherwise. Each redirect
// hop comes through here with its own URL.
func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	o, _ := originOf(req.URL)
	own := o != "" && t.origins[o]
	has := req.Header.Get("Authorization") == t.header
	switch {
	case own && !has:
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", t.header)
	case !own && has:
		req = req.Clone(req.Context())
		req.Header.Del("Authorization")
	}
	return t.next.RoundTrip(req)
}

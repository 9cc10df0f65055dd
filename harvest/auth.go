package harvest

import (
	"net/url"

	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// BasicAuth is a user name and password for a blog behind HTTP basic
// authentication. They are sent to the blog's own origins only, and never
// written into a record or a log.
type BasicAuth struct {
	User     string
	Password string
}

// String names the user, never the password.
func (a *BasicAuth) String() string { return a.User + ":[redacted]" }

// liftUserinfo removes user-info (user:password@) from the blog's URL and
// feed URL, so no record, log or error can carry it; credentials found
// there become o.Auth unless Auth is set already.
func liftUserinfo(o *Options) {
	for _, p := range []*string{&o.Blog.URL, &o.Blog.FeedURL} {
		u, err := url.Parse(*p)
		if err != nil || u.User == nil {
			continue
		}
		if o.Auth == nil {
			pass, _ := u.User.Password()
			o.Auth = &BasicAuth{User: u.User.Username(), Password: pass}
		}
		u.User = nil
		*p = u.String()
	}
}

// fetchAuth returns the fetch client's credentials: o.Auth for the origins
// of the blog's URL and feed URL; nil without Auth.
func fetchAuth(o Options) *fetch.BasicAuth {
	if o.Auth == nil {
		return nil
	}
	a := &fetch.BasicAuth{User: o.Auth.User, Password: o.Auth.Password}
	for _, raw := range []string{o.Blog.URL, o.Blog.FeedURL} {
		if origin, err := fetch.Origin(raw); err == nil {
			a.Origins = append(a.Origins, origin)
		}
	}
	return a
}

// renderOffForAuth turns rendering off for a blog behind basic
// authentication, with one warning: the browser is not given the
// credentials, and would render the blog's "401 Unauthorized" page.
// Called with w.fetch.render.mu held.
func (w *pageWorker) renderOffForAuth(st *rendererState) {
	st.off = true
	msg := "render: the blog needs credentials, which are not given to the browser: rendering is off for this crawl"
	w.stats.warn(msg)
}

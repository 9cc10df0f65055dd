package harvest_test

import (
	"testing"
	"fmt"
)

func TestDebugWP(t *testing.T) {
	site, srv := serve(t, "wordpress", nil)
	_, out := crawl(t, options("wordpress", srv.URL))
	truth := site.Truth(srv.URL)
	known := map[string]bool{}
	for _, p := range truth.Posts { known[p.URL] = true }
	for _, p := range truth.Pages { known[p.URL] = true }
	for _, e := range out.entries {
		if !known[e.URL] { fmt.Println("extra", e.URL, e.Kind, e.Title) }
		if len(e.Comments) >= 10 { fmt.Println(e.URL, len(e.Comments), e.NumReplies, e.Problems, len(e.Files)) }
	}
}

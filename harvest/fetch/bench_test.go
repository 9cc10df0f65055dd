package fetch_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/fetch"
)

func BenchmarkGet100KB(b *testing.B) {
	page := strings.Repeat("<p>lorem ipsum dolor</p>\n", 4000)
	srv := httptestServer(b, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, page) })
	c, err := fetch.New(fetch.Options{AllowHosts: []string{"127.0.0.1"}, IgnoreRobots: true, PerHost: 4})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if _, err := c.Get(context.Background(), srv+"/p"); err != nil {
			b.Fatal(err)
		}
	}
}

package fetch_test

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/fetch"
)

func BenchmarkGet100KB(b *testing.B) {
	benchGet(b, strings.Repeat("<p>lorem ipsum dolor</p>\n", 4000), false)
}

// BenchmarkGet90KB fetches a 90 KB page served with its Content-Length, as
// most servers send pages.
func BenchmarkGet90KB(b *testing.B) {
	benchGet(b, strings.Repeat("<p>lorem ipsum dolor</p>\n", 3600), true)
}

// benchGet fetches page from a loopback server, which announces its length
// when withLength is set (else sends it chunked).
func benchGet(b *testing.B, page string, withLength bool) {
	srv := httptestServer(b, func(w http.ResponseWriter, r *http.Request) {
		if withLength {
			w.Header().Set("Content-Length", strconv.Itoa(len(page)))
		}
		io.WriteString(w, page)
	})
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

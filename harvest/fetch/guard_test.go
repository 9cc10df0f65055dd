package fetch_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

func TestPrivateAddressRefused(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/to-localhost":
			http.Redirect(w, r, "http://localhost:1/", http.StatusFound)
		case "/to-lan":
			http.Redirect(w, r, "http://192.168.1.1/admin", http.StatusFound)
		case "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		}
	})
	strict, err := fetch.New(fetch.Options{IgnoreRobots: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := strict.Get(ctx, srv.URL+"/"); !errors.Is(err, fetch.ErrRefused) || blogharvest.IsTransient(err) {
		t.Errorf("loopback blog without AllowHosts: %v", err)
	}
	if hits.Load() != 0 {
		t.Errorf("refused server was contacted")
	}
	c := newClient(t, fetch.Options{IgnoreRobots: true})
	for _, p := range []string{"/to-localhost", "/to-lan", "/to-metadata"} {
		if _, err := c.Get(ctx, srv.URL+p); !errors.Is(err, fetch.ErrRefused) {
			t.Errorf("%s: %v, want ErrRefused", p, err)
		}
	}
	for _, u := range []string{"http://[::1]/", "http://10.0.0.8/", "http://[fe80::1]/", "http://0.0.0.0/", "http://100.64.1.1/"} {
		if _, err := c.Get(ctx, u); !errors.Is(err, fetch.ErrRefused) {
			t.Errorf("%s: %v, want ErrRefused", u, err)
		}
	}
}

package blogharvest_test

import (
	"testing"

	"github.com/blogharvest/blogharvest"
)

// TestStripUserinfoExchanges: the URLs of a file's exchanges lose their
// user-info with the file's own.
func TestStripUserinfoExchanges(t *testing.T) {
	e := &blogharvest.Entry{URL: "https://blog.example/p/", Files: []blogharvest.File{{
		URL:       "https://ann:pw@blog.example/p/",
		Exchanges: []blogharvest.Exchange{{URL: "https://ann:pw@blog.example/?p=1"}, {URL: "https://blog.example/p/"}},
	}}}
	if n := e.StripUserinfo(); n != 2 {
		t.Errorf("StripUserinfo() = %d, want 2", n)
	}
	f := e.Files[0]
	if f.URL != "https://blog.example/p/" || f.Exchanges[0].URL != "https://blog.example/?p=1" {
		t.Errorf("after StripUserinfo: %s, %s", f.URL, f.Exchanges[0].URL)
	}
}

package warc_test

import (
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/warc"
)

// TestIndexOfHostileURL: an exchange whose URL holds spaces, braces and
// quotes, as a browser may hand one over, is written with a
// percent-encoded WARC-Target-URI and a CDXJ line ParseIndex reads back,
// found by Lookup under the raw URL too (issue 38, finding 4).
func TestIndexOfHostileURL(t *testing.T) {
	raw := `https://blog.example/i.png?q=a b&r={"x":1}`
	if k := warc.SURT(raw); strings.ContainsAny(k, ` {}"`) {
		t.Errorf("SURT key %q holds a space, brace or quote", k)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	w, err := warc.NewWriter(warc.Info{Filename: "x.warc.gz", Software: "test"}, now)
	if err != nil {
		t.Fatal(err)
	}
	x := blogharvest.Exchange{Method: "GET", URL: raw, Status: 200, Sent: now, Received: now,
		ResponseHeader: map[string][]string{"Content-Type": {"image/png"}}}
	if _, err := w.Capture([]blogharvest.Exchange{x}, []byte("png")); err != nil {
		t.Fatal(err)
	}
	index, err := warc.ParseIndex(w.Index())
	if err != nil {
		t.Fatalf("index %q: %v", w.Index(), err)
	}
	if len(warc.Lookup(index, raw)) != 1 {
		t.Errorf("Lookup of the raw URL finds nothing in %q", w.Index())
	}
	recs, err := warc.Read(w.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	const want = "https://blog.example/i.png?q=a%20b&r=%7B%22x%22:1%7D"
	for _, r := range recs {
		if r.TargetURI != "" && r.TargetURI != want {
			t.Errorf("%s record: WARC-Target-URI %q, want %q", r.Type, r.TargetURI, want)
		}
	}
}

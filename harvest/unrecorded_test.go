package harvest_test

import (
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// TestNewCrawlLedgerNamesUnrecordedBrowserResponse: a post's script
// downloads a 40 MiB file, whose body Chromium does not keep for the
// recorder. The reader's browser loaded it, no record holds it: the
// ledger must say so for that URL (fate failed, with the reason), not
// leave it out silently.
func TestNewCrawlLedgerNamesUnrecordedBrowserResponse(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		toolskip.Missing(t, "chromium", err)
	}
	if testing.Short() {
		t.Skip("starts a browser")
	}
	t.Parallel()
	b := newTinyBlog(3)
	line := strings.Repeat("x", 1023) + "\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big.txt":
			w.Header().Set("Content-Type", "text/plain")
			for range 40 * 1024 {
				w.Write([]byte(line))
			}
		case b.path(1):
			rec := httptest.NewRecorder()
			b.ServeHTTP(rec, r)
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			w.Write([]byte(strings.Replace(rec.Body.String(), "</body>",
				`<script>fetch('/big.txt').then(function(r){return r.text()}).then(function(t){document.title+=' '+t.length})</script></body>`, 1)))
		default:
			b.ServeHTTP(w, r)
		}
	}))
	defer srv.Close()
	o := options("tiny", srv.URL)
	o.Render = harvest.RenderAlways
	o.Requisites = harvest.RequisitesAll
	res, _ := crawl(t, o)
	for _, row := range res.Ledger {
		if row.URL == srv.URL+"/big.txt" {
			if row.Fate != harvest.FateFailed || !strings.Contains(row.Detail, "not recorded") {
				t.Errorf("ledger row of the unrecorded download: %+v, want fate failed, \"not recorded\" and why", row)
			}
			t.Logf("%+v", row)
			return
		}
	}
	t.Errorf("the download the browser loaded and no record holds is not in the ledger (%d rows)", len(res.Ledger))
}

package render_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/render"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// BenchmarkRender renders the posts of the "wordpress" fixture blog (with
// screenshots, as the harvest does) with 1, 2 and 4 tabs, and reports pages
// per second and the memory of the browser's process tree at the end: the
// sum of the processes' RSS (which counts shared pages once per process) and
// of their PSS. Run with -benchtime=200x for the RSS after 200 pages.
func BenchmarkRender(b *testing.B) {
	browser(b)
	s := fixture.MustNew("wordpress")
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	var urls []string
	for _, p := range s.Truth(srv.URL).Posts {
		urls = append(urls, p.URL)
	}
	for _, tabs := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("tabs=%d", tabs), func(b *testing.B) {
			benchRender(b, tabs, true, urls)
		})
	}
	b.Run("tabs=2/no-screenshot", func(b *testing.B) {
		benchRender(b, 2, false, urls)
	})
}

func benchRender(b *testing.B, tabs int, screenshot bool, urls []string) {
	br, err := render.New(context.Background(), render.Options{Tabs: tabs, Screenshot: screenshot, Logger: quietLogger()})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for range tabs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(b.N); i = next.Add(1) - 1 {
				if _, err := br.Render(context.Background(), urls[i%int64(len(urls))]); err != nil {
					b.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "pages/s")
	b.ReportMetric(treeRSS(br.PID()), "rss-MiB")
	b.ReportMetric(treePSS(br.PID()), "pss-MiB")
}

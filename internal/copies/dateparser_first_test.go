package copies

import (
	"fmt"
	"os"
	"os/exec"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

	dateparser "github.com/blogharvest/blogharvest/internal/dateparser"
)

// firstCallTexts are texts a crawl asks go-dateparser about first
// (jerryc's and 0x7df's pages: words, headings, dates).
var firstCallTexts = []string{"updated", "Updated management console in WildFly 9 →", "March 5, 2019", "2019-03-05 10:00"}

// TestDateparserFirstCallChild is the child of BenchmarkDateparserFirstCall:
// it makes the process's first go-dateparser call and prints its CPU time.
func TestDateparserFirstCallChild(t *testing.T) {
	text := os.Getenv("BH_DATEPARSER_FIRST")
	if text == "" {
		t.Skip("the child of BenchmarkDateparserFirstCall")
	}
	if f := os.Getenv("BH_DATEPARSER_PROFILE"); f != "" {
		out, err := os.Create(f)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		pprof.StartCPUProfile(out)
		defer pprof.StopCPUProfile()
	}
	start := cpuTime()
	cfg := &dateparser.Configuration{Languages: []string{"en"}, DefaultTimezone: time.UTC, StrictParsing: true}
	dt, err := dateparser.Parse(cfg, text)
	first := cpuTime() - start
	start = cpuTime()
	dateparser.Parse(cfg, text)
	second := cpuTime() - start
	fmt.Printf("FIRSTCALL %d %d %v %v\n", first, second, dt.Time, err)
}

// BenchmarkDateparserFirstCall measures the CPU time of go-dateparser's
// first call in a fresh process (the test binary run again), which every
// crawl that asks it pays once (issue 43): cpu-ns/op is the first call,
// second-ns/op the same call again.
func BenchmarkDateparserFirstCall(b *testing.B) {
	for _, text := range firstCallTexts {
		b.Run(strconv.Quote(text), func(b *testing.B) {
			var first, second int64
			for i := 0; i < b.N; i++ {
				cmd := exec.Command(os.Args[0], "-test.run=^TestDateparserFirstCallChild$", "-test.v")
				cmd.Env = append(os.Environ(), "BH_DATEPARSER_FIRST="+text)
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				k := strings.Index(string(out), "FIRSTCALL ")
				if k < 0 {
					b.Fatalf("no figure in %s", out)
				}
				var f, s int64
				fmt.Sscan(string(out[k+len("FIRSTCALL "):]), &f, &s)
				first += f
				second += s
			}
			b.ReportMetric(float64(first)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(second)/float64(b.N), "second-ns/op")
		})
	}
}

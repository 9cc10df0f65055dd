package daemon

import (
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// scrape serves m on a real HTTP server on loopback, fetches /metrics as
// Prometheus does and parses it with Prometheus's own text-format parser
// (github.com/prometheus/common/expfmt).
func scrape(t *testing.T, m *metrics) (map[string]*dto.MetricFamily, string) {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); expfmt.ResponseFormat(resp.Header).FormatType() != expfmt.TypeTextPlain {
		t.Errorf("Content-Type %q: not Prometheus text format 0.0.4", ct)
	}
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("Prometheus's parser rejects /metrics: %v\n%s", err, body)
	}
	return fams, string(body)
}

// TestMetricsExposition drives every metric the README lists, scrapes
// /metrics and checks, through Prometheus's parser, each family's name,
// type, HELP text, label names and values, the histogram's buckets, sum and
// count, a label value that needs escaping, and that Go runtime and process
// metrics follow. The expected HELP texts and types are those the daemon
// exposed with client_golang before (main at c1703e7).
func TestMetricsExposition(t *testing.T) {
	m := newMetrics()
	m.runs.WithLabelValues("ok").Inc()
	m.runs.WithLabelValues("ok").Inc()
	m.runs.WithLabelValues("failed").Inc()
	m.entries.Add(3)
	m.unchanged.Inc()
	m.blogAIPs.Inc()
	m.bytes.AddInt64(12345678)
	m.comments.Add(5)
	m.fetches.WithLabelValues("200").Add(7)
	m.fetches.WithLabelValues("error").Inc()
	m.renders.WithLabelValues("no-article").Add(2)
	m.unrender.WithLabelValues("budget").Inc()
	odd := "a\"b\\c\nd" // quote, backslash, newline: escaped in the text format
	m.methods.WithLabelValues("title", odd).Inc()
	m.methods.WithLabelValues("title", "jsonld").Add(4)
	m.duration.WithLabelValues("ok").Update(0.3)    // first bucket
	m.duration.WithLabelValues("ok").Update(3)      // le="4"
	m.duration.WithLabelValues("ok").Update(5000)   // over the last bucket: +Inf only
	m.duration.WithLabelValues("failed").Update(64) // on a bound: le="64"
	m.running.Inc()
	m.running.Inc()
	m.running.Dec()
	m.blogs.Set(3)

	fams, body := scrape(t, m)

	type sample struct {
		labels string // name=value,… sorted by name
		value  float64
	}
	want := []struct {
		name, help string
		typ        dto.MetricType
		samples    []sample
	}{
		{"blogharvest_runs_total", "Harvest runs finished, by outcome (ok, failed).", dto.MetricType_COUNTER,
			[]sample{{"outcome=failed", 1}, {"outcome=ok", 2}}},
		{"blogharvest_entries_archived_total", "Entry AIPs written: new entries and new versions.", dto.MetricType_COUNTER,
			[]sample{{"", 3}}},
		{"blogharvest_entries_unchanged_total", "Entries harvested whose content had not changed; no AIP written.",
			dto.MetricType_COUNTER, []sample{{"", 1}}},
		{"blogharvest_blogs_archived_total", "Blog AIPs written: new blogs and new versions.", dto.MetricType_COUNTER,
			[]sample{{"", 1}}},
		{"blogharvest_archived_bytes_total", "Bytes written into AIPs.", dto.MetricType_COUNTER,
			[]sample{{"", 12345678}}},
		{"blogharvest_comments_archived_total", "Comments in entry AIPs written.", dto.MetricType_COUNTER,
			[]sample{{"", 5}}},
		{"blogharvest_fetches_total", "HTTP responses received while harvesting, by status code.", dto.MetricType_COUNTER,
			[]sample{{"code=200", 7}, {"code=error", 1}}},
		{"blogharvest_renders_total", "Pages rendered in Chromium, by reason (no-article, comment-system, api-widget, …).",
			dto.MetricType_COUNTER, []sample{{"reason=no-article", 2}}},
		{"blogharvest_renders_skipped_total", "Pages a reason asked to render that were not: budget (max_renders spent), added-nothing.",
			dto.MetricType_COUNTER, []sample{{"why=budget", 1}}},
		{"blogharvest_extractions_total", "Extracted fields by field and by the method that produced them.",
			dto.MetricType_COUNTER, []sample{{"field=title,method=" + odd, 1}, {"field=title,method=jsonld", 4}}},
		{"blogharvest_run_duration_seconds", "Duration of harvest runs, by outcome.", dto.MetricType_HISTOGRAM,
			[]sample{{"outcome=failed", 1}, {"outcome=ok", 3}}}, // the count; buckets below
		{"blogharvest_runs_in_progress", "Harvests running now.", dto.MetricType_GAUGE, []sample{{"", 1}}},
		{"blogharvest_blogs_scheduled", "Blogs registered and scheduled.", dto.MetricType_GAUGE, []sample{{"", 3}}},
	}
	for _, w := range want {
		f := fams[w.name]
		if f == nil {
			t.Errorf("/metrics lacks %s", w.name)
			continue
		}
		if f.GetHelp() != w.help {
			t.Errorf("%s: HELP %q, want %q", w.name, f.GetHelp(), w.help)
		}
		if f.GetType() != w.typ {
			t.Errorf("%s: TYPE %v, want %v", w.name, f.GetType(), w.typ)
		}
		var got []sample
		for _, s := range f.GetMetric() {
			var labels []string
			for _, l := range s.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			slices.Sort(labels)
			v := s.GetCounter().GetValue() + s.GetGauge().GetValue() + float64(s.GetHistogram().GetSampleCount())
			got = append(got, sample{strings.Join(labels, ","), v})
		}
		slices.SortFunc(got, func(a, b sample) int { return strings.Compare(a.labels, b.labels) })
		if !slices.Equal(got, w.samples) {
			t.Errorf("%s: samples %v, want %v", w.name, got, w.samples)
		}
	}
	if t.Failed() {
		t.Logf("/metrics:\n%s", body)
	}

	// The histogram: 14 buckets from half a second, doubling, cumulative,
	// and +Inf.
	wantBounds := []float64{0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, math.Inf(1)}
	wantCum := map[string][]uint64{
		"ok":     {1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3},
		"failed": {0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1},
	}
	wantSum := map[string]float64{"ok": 5003.3, "failed": 64}
	if f := fams["blogharvest_run_duration_seconds"]; f != nil {
		for _, s := range f.GetMetric() {
			outcome := s.GetLabel()[0].GetValue()
			h := s.GetHistogram()
			var bounds []float64
			var cum []uint64
			for _, b := range h.GetBucket() {
				bounds = append(bounds, b.GetUpperBound())
				cum = append(cum, b.GetCumulativeCount())
			}
			if !slices.Equal(bounds, wantBounds) {
				t.Errorf("run duration buckets %v, want %v", bounds, wantBounds)
			}
			if !slices.Equal(cum, wantCum[outcome]) {
				t.Errorf("run duration{outcome=%q} cumulative counts %v, want %v", outcome, cum, wantCum[outcome])
			}
			if d := h.GetSampleSum() - wantSum[outcome]; d > 1e-9 || d < -1e-9 {
				t.Errorf("run duration{outcome=%q} sum %v, want %v", outcome, h.GetSampleSum(), wantSum[outcome])
			}
		}
	}

	// Go runtime and process metrics follow ours.
	for _, name := range []string{"go_goroutines", "go_memstats_alloc_bytes", "process_cpu_seconds_total",
		"process_resident_memory_bytes", "process_open_fds", "process_max_fds"} {
		if fams[name] == nil {
			t.Errorf("/metrics lacks %s", name)
		}
	}
}

// TestMetricsVectorsAppearAtFirstUse checks that a family with labels is
// absent until its first sample (as client_golang exposed it: no HELP or
// TYPE line without a sample), that counters without labels are exposed at
// 0 from the start, and that a wrong number of label values is refused.
func TestMetricsVectorsAppearAtFirstUse(t *testing.T) {
	m := newMetrics()
	fams, body := scrape(t, m)
	for _, name := range []string{"blogharvest_runs_total", "blogharvest_fetches_total", "blogharvest_run_duration_seconds"} {
		if fams[name] != nil || strings.Contains(body, name) {
			t.Errorf("%s is exposed before its first sample", name)
		}
	}
	if f := fams["blogharvest_entries_archived_total"]; f == nil || len(f.GetMetric()) != 1 || f.GetMetric()[0].GetCounter().GetValue() != 0 {
		t.Errorf("blogharvest_entries_archived_total is not exposed at 0:\n%s", body)
	}
	defer func() {
		if recover() == nil {
			t.Error("two label values for one label did not panic")
		}
	}()
	m.runs.WithLabelValues("ok", "extra")
}

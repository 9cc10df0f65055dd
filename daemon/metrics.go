package daemon

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	vm "github.com/VictoriaMetrics/metrics"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
)

// metrics are the daemon's Prometheus metrics (github.com/VictoriaMetrics/metrics,
// Prometheus text format 0.0.4), on sets of their own so several daemons can
// live in one test process. It serves them at /metrics (ServeHTTP), each
// family under its HELP and TYPE lines, then the Go runtime's and the
// process's metrics. Not client_golang: its registry links protobuf and 20
// more packages whose inits every command paid for at start-up (2.4 MB of
// max RSS of `blogharvest version`; see doc/benchmarks.md, "Start-up").
type metrics struct {
	families  []*family
	runs      counterVec   // by outcome
	entries   *vm.Counter  // entry AIPs written (new or new version)
	unchanged *vm.Counter  // entries harvested but unchanged
	blogAIPs  *vm.Counter  // blog AIPs written
	bytes     *vm.Counter  // bytes written into bags
	comments  *vm.Counter  // comments archived
	fetches   counterVec   // HTTP responses by status code
	renders   counterVec   // pages rendered by reason
	unrender  counterVec   // pages a reason asked to render that were not, by why
	methods   counterVec   // extracted fields by field and method
	duration  histogramVec // run duration by outcome
	running   *vm.Gauge    // harvests in progress
	blogs     *vm.Gauge    // blogs scheduled

	carryEvicted *vm.Counter // blogs whose carried robots.txt and rules the budget dropped

	// Fixity audits (audit.go): the newest audit's end, bags read and
	// problems, and the bags read by every audit of this process.
	auditTime, auditBags, auditProblems *vm.Gauge
	auditBagsRead                       *vm.Counter
}

// durationBuckets are the upper bounds of blogharvest_run_duration_seconds:
// half a second to 68 minutes, doubling.
var durationBuckets = vm.ExponentialBuckets(0.5, 2, 14)

func newMetrics() *metrics {
	m := &metrics{}
	m.runs = counterVec{m.family("blogharvest_runs_total", "counter",
		"Harvest runs finished, by outcome (ok, failed).", "outcome")}
	m.entries = m.counter("blogharvest_entries_archived_total",
		"Entry AIPs written: new entries and new versions.")
	m.unchanged = m.counter("blogharvest_entries_unchanged_total",
		"Entries harvested whose content had not changed; no AIP written.")
	m.blogAIPs = m.counter("blogharvest_blogs_archived_total",
		"Blog AIPs written: new blogs and new versions.")
	m.bytes = m.counter("blogharvest_archived_bytes_total", "Bytes written into AIPs.")
	m.comments = m.counter("blogharvest_comments_archived_total", "Comments in entry AIPs written.")
	m.carryEvicted = m.counter("blogharvest_carried_evicted_total",
		"Blogs whose robots.txt and rules kept for their next run were dropped from memory to keep within its budget; "+
			"each such blog fetches robots.txt again at its next run.")
	m.fetches = counterVec{m.family("blogharvest_fetches_total", "counter",
		"HTTP responses received while harvesting, by status code.", "code")}
	m.renders = counterVec{m.family("blogharvest_renders_total", "counter",
		"Pages rendered in Chromium, by reason (no-article, comment-system, api-widget, …).", "reason")}
	m.unrender = counterVec{m.family("blogharvest_renders_skipped_total", "counter",
		"Pages a reason asked to render that were not: budget (max_renders spent), added-nothing.", "why")}
	m.methods = counterVec{m.family("blogharvest_extractions_total", "counter",
		"Extracted fields by field and by the method that produced them.", "field", "method")}
	m.duration = histogramVec{m.family("blogharvest_run_duration_seconds", "histogram",
		"Duration of harvest runs, by outcome.", "outcome"), durationBuckets}
	running := m.family("blogharvest_runs_in_progress", "gauge", "Harvests running now.")
	m.running = running.set.NewGauge(running.name, nil)
	blogs := m.family("blogharvest_blogs_scheduled", "gauge", "Blogs registered and scheduled.")
	m.blogs = blogs.set.NewGauge(blogs.name, nil)
	m.auditTime = m.gauge("blogharvest_audit_last_timestamp_seconds",
		"When the newest fixity audit of the archive ended (Unix time; 0: none yet), from its record in the archive.")
	m.auditBags = m.gauge("blogharvest_audit_last_bags_checked", "Bags the newest fixity audit read (its share of the archive).")
	m.auditProblems = m.gauge("blogharvest_audit_last_problems", "Problems the newest fixity audit found; 0: every bag it read is sound.")
	m.auditBagsRead = m.counter("blogharvest_audit_bags_checked_total", "Bags read by the fixity audits of this process.")
	return m
}

// gauge adds a family of one gauge without labels, set with Set.
func (m *metrics) gauge(name, help string) *vm.Gauge {
	f := m.family(name, "gauge", help)
	return f.set.NewGauge(name, nil)
}

// auditDone sets the audit metrics from the newest audit's record; a
// record this process wrote counts its bags too.
func (m *metrics) auditDone(r *aip.AuditRecord) {
	m.auditTime.Set(float64(r.End.UnixMilli()) / 1000)
	m.auditBags.Set(float64(r.Bags))
	m.auditProblems.Set(float64(len(r.Problems)))
}

// family is one metric family: its name, type, HELP text and label names,
// and its samples, on a set of their own so that they are written together
// under the family's HELP and TYPE lines.
type family struct {
	name, typ, help string
	labels          []string
	set             *vm.Set
}

// family adds a family to m and returns it.
func (m *metrics) family(name, typ, help string, labels ...string) *family {
	f := &family{name: name, typ: typ, help: help, labels: labels, set: vm.NewSet()}
	m.families = append(m.families, f)
	return f
}

// counter adds a family of one counter without labels.
func (m *metrics) counter(name, help string) *vm.Counter {
	f := m.family(name, "counter", help)
	return f.set.NewCounter(name)
}

// labelEscaper escapes a label value for the text format.
var labelEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

// sample returns the name of f's sample with these label values, e.g.
// `blogharvest_fetches_total{code="200"}`. It panics when the number of
// values is not the number of f's labels (a programming error).
func (f *family) sample(values []string) string {
	if len(values) != len(f.labels) {
		panic(fmt.Sprintf("metric %s: %d label values for labels %v", f.name, len(values), f.labels))
	}
	var b strings.Builder
	b.WriteString(f.name)
	for i, l := range f.labels {
		if i == 0 {
			b.WriteByte('{')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(l + `="` + labelEscaper.Replace(values[i]) + `"`)
	}
	if len(f.labels) > 0 {
		b.WriteByte('}')
	}
	return b.String()
}

// counterVec is a family of counters by label values.
type counterVec struct{ f *family }

// WithLabelValues returns the counter of these label values, created at
// first use.
func (v counterVec) WithLabelValues(values ...string) *vm.Counter {
	return v.f.set.GetOrCreateCounter(v.f.sample(values))
}

// histogramVec is a family of histograms by label values.
type histogramVec struct {
	f       *family
	buckets []float64
}

// WithLabelValues returns the histogram of these label values, created at
// first use.
func (v histogramVec) WithLabelValues(values ...string) *vm.PrometheusHistogram {
	return v.f.set.GetOrCreatePrometheusHistogramExt(v.f.sample(values), v.buckets)
}

// helpEscaper escapes a HELP text for the text format.
var helpEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`)

// WriteTo writes the metrics in the Prometheus text format: each family
// that has samples (a family with labels has none until its first use, as
// with client_golang), then the Go runtime's and the process's metrics
// (memory, CPU, open and maximum file descriptors; without TYPE lines:
// vm.ExposeMetadata stays off, or the sets would write HELP lines of their
// own beside ours).
func (m *metrics) WriteTo(w io.Writer) (int64, error) {
	var out, b bytes.Buffer
	for _, f := range m.families {
		b.Reset()
		f.set.WritePrometheus(&b)
		if b.Len() == 0 {
			continue
		}
		fmt.Fprintf(&out, "# HELP %s %s\n# TYPE %s %s\n", f.name, helpEscaper.Replace(f.help), f.name, f.typ)
		out.Write(b.Bytes())
	}
	vm.WriteGoMetrics(&out)
	vm.WriteProcMetrics(&out)
	vm.WriteFDMetrics(&out)
	return out.WriteTo(w)
}

// ServeHTTP serves the metrics as /metrics.
func (m *metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	m.WriteTo(w)
}

// recordFetches adds a crawl's HTTP status counts to the metrics.
func (m *metrics) recordFetches(res *harvest.Result) {
	if m == nil || res == nil {
		return
	}
	for code, n := range res.Fetches {
		label := strconv.Itoa(code)
		if code == 0 {
			label = "error"
		}
		m.fetches.WithLabelValues(label).Add(n)
	}
}

// recordRenders adds a crawl's renders by reason, and the renders it
// refused, to the metrics.
func (m *metrics) recordRenders(res *harvest.Result) {
	if m == nil || res == nil {
		return
	}
	for reason, n := range res.Renders {
		m.renders.WithLabelValues(reason).Add(n)
	}
	for why, n := range res.NotRendered {
		m.unrender.WithLabelValues(why).Add(n)
	}
}

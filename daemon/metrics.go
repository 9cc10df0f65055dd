package daemon

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics are the daemon's Prometheus metrics, on a registry of their own so
// several daemons can live in one test process.
type metrics struct {
	reg       *prometheus.Registry
	runs      *prometheus.CounterVec   // by outcome
	entries   prometheus.Counter       // entry AIPs written (new or new version)
	unchanged prometheus.Counter       // entries harvested but unchanged
	blogAIPs  prometheus.Counter       // blog AIPs written
	bytes     prometheus.Counter       // bytes written into bags
	comments  prometheus.Counter       // comments archived
	fetches   *prometheus.CounterVec   // HTTP responses by status code
	renders   *prometheus.CounterVec   // pages rendered by reason
	unrender  *prometheus.CounterVec   // pages a reason asked to render that were not, by why
	methods   *prometheus.CounterVec   // extracted fields by field and method
	duration  *prometheus.HistogramVec // run duration by outcome
	running   prometheus.Gauge         // harvests in progress
	blogs     prometheus.Gauge         // blogs scheduled
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "blogharvest_runs_total",
			Help: "Harvest runs finished, by outcome (ok, failed)."}, []string{"outcome"}),
		entries: prometheus.NewCounter(prometheus.CounterOpts{Name: "blogharvest_entries_archived_total",
			Help: "Entry AIPs written: new entries and new versions."}),
		unchanged: prometheus.NewCounter(prometheus.CounterOpts{Name: "blogharvest_entries_unchanged_total",
			Help: "Entries harvested whose content had not changed; no AIP written."}),
		blogAIPs: prometheus.NewCounter(prometheus.CounterOpts{Name: "blogharvest_blogs_archived_total",
			Help: "Blog AIPs written: new blogs and new versions."}),
		bytes: prometheus.NewCounter(prometheus.CounterOpts{Name: "blogharvest_archived_bytes_total",
			Help: "Bytes written into AIPs."}),
		comments: prometheus.NewCounter(prometheus.CounterOpts{Name: "blogharvest_comments_archived_total",
			Help: "Comments in entry AIPs written."}),
		fetches: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "blogharvest_fetches_total",
			Help: "HTTP responses received while harvesting, by status code."}, []string{"code"}),
		renders: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "blogharvest_renders_total",
			Help: "Pages rendered in Chromium, by reason (no-article, comment-system, api-widget, …)."}, []string{"reason"}),
		unrender: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "blogharvest_renders_skipped_total",
			Help: "Pages a reason asked to render that were not: budget (max_renders spent), added-nothing."}, []string{"why"}),
		methods: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "blogharvest_extractions_total",
			Help: "Extracted fields by field and by the method that produced them."}, []string{"field", "method"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "blogharvest_run_duration_seconds",
			Help:    "Duration of harvest runs, by outcome.",
			Buckets: prometheus.ExponentialBuckets(0.5, 2, 14)}, []string{"outcome"}),
		running: prometheus.NewGauge(prometheus.GaugeOpts{Name: "blogharvest_runs_in_progress",
			Help: "Harvests running now."}),
		blogs: prometheus.NewGauge(prometheus.GaugeOpts{Name: "blogharvest_blogs_scheduled",
			Help: "Blogs registered and scheduled."}),
	}
	m.reg.MustRegister(m.runs, m.entries, m.unchanged, m.blogAIPs, m.bytes, m.comments, m.fetches,
		m.renders, m.unrender, m.methods, m.duration, m.running, m.blogs,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

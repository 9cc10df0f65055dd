package main

import (
	"testing"

	"github.com/blogharvest/blogharvest/harvest/learn"
)

// heldOutJob is one page to extract with the rules learned on the other
// half of its blog.
type heldOutJob struct {
	rules *learn.Rules
	page  learn.Page
}

// corpusJobs learns on the older half of every corpus blog and returns
// the newer half's pages; it skips when the corpus is absent.
func corpusJobs(b *testing.B) []heldOutJob {
	b.Helper()
	blogs, err := loadCorpus(corpusDir, nil)
	if err != nil {
		b.Skipf("corpus: %v", err)
	}
	var jobs []heldOutJob
	for _, bl := range blogs {
		s, _, err := bl.samples()
		if err != nil || len(s) < 2 {
			continue
		}
		older, newer := halves(s)
		rules, _, _ := learnRules(older)
		for _, x := range newer {
			jobs = append(jobs, heldOutJob{rules, x.Page})
		}
	}
	return jobs
}

// BenchmarkCorpusExtract extracts the corpus's held-out pages with
// blogharvest's learned rules and with each baseline, on the same pages in
// the same process: compare the ms/post metrics (DESIGN §9: ≥ 20× faster
// than go-trafilatura).
func BenchmarkCorpusExtract(b *testing.B) {
	jobs := corpusJobs(b)
	run := func(b *testing.B, fn func(j heldOutJob)) {
		for b.Loop() {
			for _, j := range jobs {
				fn(j)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N*len(jobs)), "ms/post")
	}
	b.Run(systemOurs, func(b *testing.B) {
		run(b, func(j heldOutJob) { _, _ = j.rules.Extract(j.page) })
	})
	for _, bl := range baselines() {
		b.Run(bl.name, func(b *testing.B) {
			run(b, func(j heldOutJob) { _, _ = bl.extract(j.page) })
		})
	}
}

// BenchmarkCorpusLearn learns the rules of each corpus blog from all its
// feed entries (DESIGN §9: ≤ 25 ms for a 15-entry feed).
func BenchmarkCorpusLearn(b *testing.B) {
	blogs, err := loadCorpus(corpusDir, nil)
	if err != nil {
		b.Skipf("corpus: %v", err)
	}
	for _, bl := range blogs {
		s, _, err := bl.samples()
		if err != nil || len(s) < 2 {
			continue
		}
		b.Run(bl.Name, func(b *testing.B) {
			for b.Loop() {
				_, _, _ = learnRules(s)
			}
			b.ReportMetric(float64(len(s)), "pages")
		})
	}
}

// Package schedule decides when each blog is harvested next: cron specs with
// time zones and jitter, failure backoff, catch-up after downtime, and the
// bbolt store that keeps only schedule metadata per blog.
package schedule

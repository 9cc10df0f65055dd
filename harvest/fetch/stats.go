package fetch

import (
	"maps"
	"sync"
	"time"
)

// Stats counts a client's traffic, for metrics.
type Stats struct {
	Requests map[int]int64 // HTTP exchanges by status code; 0 counts transport failures
	Bytes    int64         // decoded body bytes read
	Retries  int64         // retries after transient failures
	// Delayed counts the requests that had to wait for their host's turn:
	// the politeness delay (Options.Delay, or a larger robots.txt
	// Crawl-delay) had not yet passed since the host's previous request.
	// With Delay 0 and no Crawl-delay it stays 0: requests go back to back.
	Delayed int64
	// CappedDelays maps each origin ("https://host") whose robots.txt
	// Crawl-delay exceeded Options.MaxCrawlDelay to the delay it asked for;
	// it was crawled at the cap.
	CappedDelays map[string]time.Duration
}

// statsCounter is the mutable, locked form of Stats.
type statsCounter struct {
	mu sync.Mutex
	s  Stats
}

func (sc *statsCounter) init() { sc.s.Requests = map[int]int64{} }

func (sc *statsCounter) request(code int) {
	sc.mu.Lock()
	sc.s.Requests[code]++
	sc.mu.Unlock()
}

func (sc *statsCounter) addBytes(n int64) {
	sc.mu.Lock()
	sc.s.Bytes += n
	sc.mu.Unlock()
}

func (sc *statsCounter) cappedDelay(origin string, asked time.Duration) {
	sc.mu.Lock()
	if sc.s.CappedDelays == nil {
		sc.s.CappedDelays = map[string]time.Duration{}
	}
	sc.s.CappedDelays[origin] = asked
	sc.mu.Unlock()
}

func (sc *statsCounter) delayed() {
	sc.mu.Lock()
	sc.s.Delayed++
	sc.mu.Unlock()
}

func (sc *statsCounter) retried() {
	sc.mu.Lock()
	sc.s.Retries++
	sc.mu.Unlock()
}

// Stats returns a snapshot of the client's counters.
func (c *Client) Stats() Stats {
	c.stats.mu.Lock()
	defer c.stats.mu.Unlock()
	s := c.stats.s
	s.Requests = maps.Clone(s.Requests)
	s.CappedDelays = maps.Clone(s.CappedDelays)
	return s
}

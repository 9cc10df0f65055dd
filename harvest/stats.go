package harvest

import (
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// stats is the part of the crawl's Result every stage writes, the page
// workers included: the warnings and the time spent extracting and
// rendering. Safe for concurrent use. The counts in Result (pages,
// entries, skipped, failed) are the coordinator's alone and need no lock.
type stats struct {
	mu  sync.Mutex
	res *Result
	log *slog.Logger
}

// warn records a warning for the Result and logs it.
func (s *stats) warn(msg string) {
	s.mu.Lock()
	s.res.Warnings = append(s.res.Warnings, msg)
	s.mu.Unlock()
	s.log.Warn(msg)
}

// warnf is warn with the message formatted as by fmt.Sprintf.
func (s *stats) warnf(format string, args ...any) {
	s.warn(fmt.Sprintf(format, args...))
}

// unrendered counts a page archived without the rendering it needed
// (Result.Unrendered).
func (s *stats) unrendered() {
	s.mu.Lock()
	s.res.Unrendered++
	s.mu.Unlock()
}

// took adds d to the time spent extracting (stage "extract") or
// rendering ("render").
func (s *stats) took(stage string, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch stage {
	case "extract":
		s.res.Timings.Extract += d
	case "render":
		s.res.Timings.Render += d
	default:
		panic(fmt.Sprintf("harvest: no timing for stage %q", stage))
	}
}

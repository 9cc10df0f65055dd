package render

import (
	"sync"
	"time"
)

// captureCost learns how long capturing a page takes on this machine, now:
// serialising it and its frames, the screenshot (which dominates on a tall
// page: software rasterising and PNG encoding) and the recorded bodies. A
// busy machine captures several times slower than an idle one, so the time
// a page keeps for its capture follows what the last captures took rather
// than a constant. It is shared by the tabs of a Browser.
type captureCost struct {
	mu      sync.Mutex
	perUnit time.Duration // the time of one unit (see units); rises at once, falls slowly
}

// defaultUnitCost is the cost of one unit before any capture was measured.
const defaultUnitCost = 100 * time.Millisecond

// units is the size of a capture whose screenshot is shotHeight CSS px
// high (0 without a screenshot): one for the document, plus one per
// thousand pixels of screenshot.
func units(shotHeight float64) float64 {
	return 1 + max(shotHeight, 0)/1000
}

// observe records that a capture with a screenshot shotHeight px high took
// d (or at least d, when it ran out of time). A slower capture than
// expected raises the cost at once, so that the next pages keep enough
// time; a faster one lowers it by an eighth of the difference, so that one
// quick page on a machine whose load comes and goes does not undo it.
func (c *captureCost) observe(d time.Duration, shotHeight float64) {
	per := time.Duration(float64(d) / units(shotHeight))
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.perUnit == 0 || per > c.perUnit:
		c.perUnit = per
	default:
		c.perUnit -= (c.perUnit - per) / 8
	}
}

// estimate is the expected time of a capture with a screenshot shotHeight
// px high.
func (c *captureCost) estimate(shotHeight float64) time.Duration {
	c.mu.Lock()
	per := c.perUnit
	c.mu.Unlock()
	if per == 0 {
		per = defaultUnitCost
	}
	return time.Duration(float64(per) * units(shotHeight))
}

// reserve is the part of a page's time allowed (budget) kept for capturing
// it, when the capture is expected to take est: a quarter of the budget
// between 1s and 5s, or twice est if that is more, but never more than half
// the budget, so that loading and settling get the other half.
func reserve(budget, est time.Duration) time.Duration {
	return min(max(min(max(budget/4, time.Second), 5*time.Second), 2*est), budget/2)
}

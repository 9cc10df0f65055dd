package learn

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
)

// pathDate reads the day a permalink's path gives, as in
// /2013/08/28/slug/: year, month and day as consecutive segments. A path
// with only a year and month (/2013/08/slug) gives no day, and none is
// claimed.
func pathDate(raw string) (time.Time, bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return time.Time{}, false
	}
	segs := strings.Split(u.Path, "/")
	for i := 0; i+2 < len(segs); i++ {
		if len(segs[i]) != 4 || len(segs[i+1]) != 2 || len(segs[i+2]) != 2 {
			continue
		}
		y, e1 := strconv.Atoi(segs[i])
		m, e2 := strconv.Atoi(segs[i+1])
		d, e3 := strconv.Atoi(segs[i+2])
		if e1 == nil && e2 == nil && e3 == nil {
			if t, ok := makeDate(y, m, d); ok {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

// urlDate is the last resort for a page's date: the day in its permalink,
// in the blog's learned zone (blogharvest.MethodURL, so that the crawler
// can prefer a feed that dates the post).
func (e *extractor) urlDate() {
	if !e.x.Date.IsZero() {
		return
	}
	if t, ok := pathDate(e.page.URL); ok {
		e.setDate(t, blogharvest.PrecisionDay, blogharvest.MethodURL)
	}
}

// dateRule returns the date rule, whose zone (Rule.offsetAt) places the
// blog's dates without a zone; nil when there is none.
func (r *Rules) dateRule() *Rule {
	if r == nil {
		return nil
	}
	return r.Date
}

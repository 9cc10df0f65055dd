package schedule

import "time"

// wallNext returns the first calendar slot after t. The cron fields are
// matched against wall-clock times in s.loc, computed without daylight-saving
// jumps (as if the wall clock were UTC) and then placed back in s.loc: so a
// daily 02:30 fires once on every day of the year, including the day 02:30
// does not exist (it fires at the jump) and the day it exists twice (it fires
// the first time only).
func (s Spec) wallNext(t time.Time) time.Time {
	local := t.In(s.loc)
	wall := toWall(local)
	for range 4 {
		wall = s.cal.Next(wall)
		if wall.IsZero() {
			return wall
		}
		if real := fromWall(wall, s.loc); real.After(t) {
			return real
		}
		// The slot's first occurrence lies at or before t: t is in the
		// second pass of a repeated hour. Skip to the end of that hour.
		wall = endOfRepeat(local)
	}
	return time.Time{}
}

// endOfRepeat returns, for a time in the second pass of a fall-back hour, the
// wall reading one second before the repeated readings end.
func endOfRepeat(local time.Time) time.Time {
	start, _ := local.ZoneBounds()
	_, off := local.Zone()
	_, offBefore := start.Add(-time.Nanosecond).Zone()
	repeat := time.Duration(offBefore-off) * time.Second
	return toWall(start.In(local.Location())).Add(repeat - time.Second)
}

// toWall returns t's wall-clock reading as a UTC time.
func toWall(t time.Time) time.Time {
	y, mo, d := t.Date()
	h, mi, sec := t.Clock()
	return time.Date(y, mo, d, h, mi, sec, t.Nanosecond(), time.UTC)
}

// fromWall places the wall-clock reading w in loc. A reading that loc skips
// (a spring-forward gap) becomes the moment of the jump; an ambiguous one
// (fall-back) becomes its first occurrence.
func fromWall(w time.Time, loc *time.Location) time.Time {
	y, mo, d := w.Date()
	h, mi, sec := w.Clock()
	t := time.Date(y, mo, d, h, mi, sec, w.Nanosecond(), loc)
	if got := toWall(t); !got.Equal(w) {
		start, end := t.ZoneBounds()
		if got.Before(w) && !end.IsZero() {
			return end // t was read with the offset before the jump
		}
		return start // t was read with the offset after the jump
	}
	return earliest(t)
}

// earliest returns the first occurrence of t's wall-clock reading: in a
// repeated fall-back hour, time.Date may pick either.
func earliest(t time.Time) time.Time {
	start, _ := t.ZoneBounds()
	if start.IsZero() {
		return t
	}
	_, off := t.Zone()
	_, offBefore := start.Add(-time.Nanosecond).Zone()
	if offBefore <= off {
		return t
	}
	alt := t.Add(-time.Duration(offBefore-off) * time.Second)
	if toWall(alt.In(t.Location())).Equal(toWall(t)) {
		return alt
	}
	return t
}

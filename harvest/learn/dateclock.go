package learn

import (
	"strconv"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/internal/lazyregexp"
)

// clockRE finds a time of day written after a date ("23:42", "3:04 pm",
// "23:42:05 UTC", "10:44 +02:00") and the zone that may follow it.
var clockRE = lazyregexp.New(`(?i)(?:^|[^\d:])(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])\.?m\.?)?(?:\s*(utc|gmt|z|[+-]\d{2}:?\d{2})(?:[+-]\d{1,2}(?::?\d{2})?)?)?(?:[^\d:]|$)`)

// clock is a time of day read from a text, and whether its zone was given.
type clock struct {
	hour, min, sec int
	seconds        bool // the text gave seconds
	zone           *time.Location
}

// readClock finds the first time of day in s, with its zone when s names
// one: UTC, GMT, Z or a numeric offset ("+02:00", "-0500").
func readClock(s string) (clock, bool) {
	m := clockRE.FindStringSubmatch(s)
	if m == nil {
		return clock{}, false
	}
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	c := clock{hour: h, min: mi}
	if m[3] != "" {
		c.sec, _ = strconv.Atoi(m[3])
		c.seconds = true
	}
	switch strings.ToLower(m[4]) {
	case "p":
		if c.hour < 12 {
			c.hour += 12
		}
	case "a":
		if c.hour == 12 {
			c.hour = 0
		}
	}
	if c.hour > 23 || c.min > 59 || c.sec > 59 {
		return clock{}, false
	}
	c.zone = zoneOf(m[5])
	return c, true
}

// zoneOf returns the zone a text names, nil when it names none.
func zoneOf(z string) *time.Location {
	switch strings.ToLower(z) {
	case "":
		return nil
	case "utc", "gmt", "z":
		return time.UTC
	}
	sign := 1
	if z[0] == '-' {
		sign = -1
	}
	digits := strings.ReplaceAll(z[1:], ":", "")
	h, _ := strconv.Atoi(digits[:2])
	mi, _ := strconv.Atoi(digits[2:])
	return time.FixedZone("", sign*(h*3600+mi*60))
}

// precision returns the precision of a date read with clock c.
func (c clock) precision() blogharvest.Precision {
	switch {
	case c.zone != nil && c.seconds:
		return blogharvest.PrecisionSecond
	case c.zone != nil:
		return blogharvest.PrecisionMinute
	case c.seconds:
		return blogharvest.PrecisionLocalSecond
	}
	return blogharvest.PrecisionLocalMinute
}

// at returns day (midnight UTC) at clock c: in c's zone when it has one,
// else the wall clock in UTC (a local time).
func (c clock) at(day time.Time) time.Time {
	loc := c.zone
	if loc == nil {
		loc = time.UTC
	}
	y, mo, d := day.Date()
	return time.Date(y, mo, d, c.hour, c.min, c.sec, 0, loc)
}

// clockDate reads a date as quickDate does and, when the text also gives a
// time of day after the date ("2024-10-29 23:42 UTC", "August 28, 2013 at
// 4:44 am"), that time with the zone it names. It returns the precision
// the text gave.
func clockDate(s, lang string) (time.Time, blogharvest.Precision, bool) {
	t, ok := quickDate(s, lang)
	if !ok {
		return time.Time{}, "", false
	}
	if c, ok := readClock(s); ok {
		return c.at(t), c.precision(), true
	}
	return t, blogharvest.PrecisionDay, true
}

// machinePrecision returns the precision of a date in one of
// machineLayouts.
func machinePrecision(layout string) blogharvest.Precision {
	switch layout {
	case "2006-01-02":
		return blogharvest.PrecisionDay
	case "2006-01-02T15:04Z07:00":
		return blogharvest.PrecisionMinute
	case "2006-01-02T15:04":
		return blogharvest.PrecisionLocalMinute
	case "2006-01-02T15:04:05", "2006-01-02 15:04:05":
		return blogharvest.PrecisionLocalSecond
	}
	return blogharvest.PrecisionSecond
}

// textPrecision guesses the precision of a date go-dateparser read from s:
// the clock s shows, else the day.
func textPrecision(s string) blogharvest.Precision {
	if c, ok := readClock(s); ok {
		return c.precision()
	}
	return blogharvest.PrecisionDay
}

// isDayOnly reports whether a date of precision p has no time of day.
func isDayOnly(p blogharvest.Precision) bool { return p == blogharvest.PrecisionDay }

package blogharvest

import "time"

// Precision says how much of a date its source gave: a page that prints
// only "7 October 2023" gives a day, with no time and no zone, and the
// record keeps it so (ISO 8601 "2023-10-07") rather than inventing a
// midnight in some zone. The zero value is a full instant: to the second,
// with its zone, as feeds give dates.
type Precision string

// Date precisions. The Local ones have a time of day but no zone: the
// time.Time holds the wall clock in UTC, and FormatDate writes no offset.
const (
	PrecisionSecond      Precision = ""             // to the second, zone known (the zero value)
	PrecisionMinute      Precision = "minute"       // to the minute, zone known
	PrecisionDay         Precision = "day"          // the calendar day: no time, no zone
	PrecisionLocalMinute Precision = "local-minute" // to the minute, zone unknown
	PrecisionLocalSecond Precision = "local-second" // to the second, zone unknown
)

// HasZone reports whether a date of precision p is an instant: its zone
// is known.
func (p Precision) HasZone() bool { return p == PrecisionSecond || p == PrecisionMinute }

// FormatDate writes t in ISO 8601 (RFC 3339 when the precision is full) to
// the precision p: "2023-10-07" for a day, "2024-10-29T23:42Z" for a
// minute in UTC, "2024-10-29T23:42" for a minute in an unknown zone. It
// returns "" for the zero time.
func FormatDate(t time.Time, p Precision) string {
	if t.IsZero() {
		return ""
	}
	switch p {
	case PrecisionDay:
		return t.Format(time.DateOnly)
	case PrecisionMinute:
		return t.Format("2006-01-02T15:04Z07:00")
	case PrecisionLocalMinute:
		return t.Format("2006-01-02T15:04")
	case PrecisionLocalSecond:
		return t.Format("2006-01-02T15:04:05")
	}
	return t.Format(time.RFC3339)
}

// Coarser returns the less precise of a and b: what two dates can be
// compared to. A date with no zone is coarser than one with a zone.
func Coarser(a, b Precision) Precision {
	rank := func(p Precision) int {
		switch p {
		case PrecisionDay:
			return 0
		case PrecisionLocalMinute:
			return 1
		case PrecisionLocalSecond:
			return 2
		case PrecisionMinute:
			return 3
		}
		return 4
	}
	if rank(a) <= rank(b) {
		return a
	}
	return b
}

package blogharvest

import (
	"testing"
	"time"
)

func TestFormatDate(t *testing.T) {
	at := time.Date(2024, 10, 29, 23, 42, 5, 0, time.FixedZone("", -3600))
	for _, c := range []struct {
		p    Precision
		want string
	}{
		{PrecisionSecond, "2024-10-29T23:42:05-01:00"},
		{PrecisionMinute, "2024-10-29T23:42-01:00"},
		{PrecisionDay, "2024-10-29"},
		{PrecisionLocalMinute, "2024-10-29T23:42"},
		{PrecisionLocalSecond, "2024-10-29T23:42:05"},
	} {
		if got := FormatDate(at, c.p); got != c.want {
			t.Errorf("FormatDate(%q) = %q, want %q", c.p, got, c.want)
		}
	}
	if FormatDate(time.Time{}, PrecisionDay) != "" {
		t.Error("zero time not empty")
	}
	if Coarser(PrecisionMinute, PrecisionDay) != PrecisionDay || Coarser(PrecisionSecond, PrecisionLocalMinute) != PrecisionLocalMinute {
		t.Error("Coarser")
	}
}

package marc

import (
	"time"

	"github.com/blogharvest/blogharvest"
)

// preciseDate formats t to the precision its source gave (DESIGN §6: a
// day-only date is "2023-10-07", never a midnight in an invented zone), or
// "" when t is zero.
func preciseDate(t time.Time, p blogharvest.Precision) string {
	return blogharvest.FormatDate(t, p)
}

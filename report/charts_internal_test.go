package report

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/font"
)

// TestChartTextMeasured checks that a chart's texts carry the width the
// Liberation fonts give them (fitText's textLength): gonum plot's init
// adds them to font.DefaultCache; were they missing (plot's font set
// changed, or a copy that loads them later), every text would measure 0 and
// no textLength would be written.
func TestChartTextMeasured(t *testing.T) {
	svg, err := barChart("Entries per month", "entries", []string{"2024-01", "2024-02"},
		map[string][]float64{"entries": {3, 5}}, []string{"entries"})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(svg, `textLength="`); n < 3 {
		t.Errorf("%d texts measured in the chart (title, label, ticks expected):\n%s", n, svg)
	}
	if !font.DefaultCache.Has(font.Font{Typeface: "Liberation", Variant: "Serif"}) {
		t.Error("font.DefaultCache lacks Liberation Serif after drawing a chart")
	}
}

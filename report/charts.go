package report

import (
	"bytes"
	"fmt"
	"html"
	"image/color"
	"math"
	"sort"
	"strconv"

	"github.com/blogharvest/blogharvest/internal/lazyregexp"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// chart sizes.
const (
	chartW      = 7 * vg.Inch
	chartMargin = 6 * vg.Millimeter / 2
	chartH      = 3 * vg.Inch
)

var (
	blue   = color.RGBA{R: 0x33, G: 0x66, B: 0xcc, A: 0xff}
	orange = color.RGBA{R: 0xdd, G: 0x77, B: 0x22, A: 0xff}
)

// svg renders p as an inline SVG element, fonts not embedded (the
// browser's sans-serif stands in).
func svg(p *plot.Plot, w, h vg.Length) (string, error) {
	c := vgsvg.NewWith(vgsvg.UseWH(w, h), vgsvg.EmbedFonts(false))
	p.Legend.Padding = vg.Points(4) // room between the legend's lines
	// A margin all round: a text's box (ascent and descent) stays inside.
	p.Draw(draw.Crop(draw.New(c), chartMargin, -chartMargin, chartMargin, -chartMargin))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return "", err
	}
	doc := b.Bytes()
	if i := bytes.Index(doc, []byte("<svg")); i >= 0 {
		doc = doc[i:] // inline: no XML declaration or comment before the element
	}
	return fitText(doc), nil
}

// svgText matches a text element of gonum's SVG: its attributes up to the
// font size, the size in px (user units), the rest, and the text.
var svgText = lazyregexp.New(`<text ([^>]*?font-size:([0-9.]+)px[^>]*)>([^<]*)</text>`)

// fitText gives every text element the width gonum laid it out with
// (textLength, in the font plot.DefaultFont it measured with): the fonts
// are not embedded, and a browser without that font draws the text in a
// wider one, which would run past the chart's edge and over its bars.
func fitText(doc []byte) string {
	return svgText.ReplaceAllStringFunc(string(doc), func(m string) string {
		sm := svgText.FindStringSubmatch(m)
		size, err := strconv.ParseFloat(sm[2], 64)
		if err != nil {
			return m
		}
		face := font.DefaultCache.Lookup(plot.DefaultFont, vg.Length(size))
		w := face.Width(html.UnescapeString(sm[3]))
		if w <= 0 {
			return m
		}
		return fmt.Sprintf(`<text %s textLength="%.2f" lengthAdjust="spacingAndGlyphs">%s</text>`, sm[1], float64(w), sm[3])
	})
}

// barChart draws one or two series of bars over named categories.
func barChart(title, ylabel string, names []string, series map[string][]float64, order []string) (string, error) {
	p := plot.New()
	p.Title.Text, p.Y.Label.Text = title, ylabel
	width := vg.Points(math.Max(2, math.Min(20, 400/float64(len(names)*len(order)+1))))
	for i, name := range order {
		bars, err := plotter.NewBarChart(plotter.Values(series[name]), width)
		if err != nil {
			return "", err
		}
		bars.Color = []color.Color{blue, orange}[i%2]
		bars.LineStyle.Width = 0
		bars.Offset = vg.Length(float64(i)-float64(len(order)-1)/2) * width
		p.Add(bars)
		if len(order) > 1 {
			p.Legend.Add(name, bars)
		}
	}
	p.Legend.Top = true
	p.NominalX(thin(names, 24)...)
	// Categories, not numbers: half a slot of room on either side, so the
	// first and last bars (and their rotated labels) stay inside the chart.
	p.X.Min, p.X.Max = -0.5-float64(len(order)-1)/2, float64(len(names))-0.5+float64(len(order)-1)/2
	p.X.Tick.Label.Rotation = math.Pi / 4
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YTop
	p.Y.Min = 0
	if len(order) > 1 {
		// Headroom above the highest bar for the legend in the top corner.
		top := 0.0
		for _, vs := range series {
			for _, v := range vs {
				top = math.Max(top, v)
			}
		}
		p.Y.Max = math.Max(1, top) * 1.35
	}
	return svg(p, chartW, chartH)
}

// thin blanks all but about n of the labels so they stay readable.
func thin(labels []string, n int) []string {
	step := (len(labels) + n - 1) / n
	if step <= 1 {
		return labels
	}
	out := make([]string, len(labels))
	for i := range labels {
		if i%step == 0 {
			out[i] = labels[i]
		}
	}
	return out
}

// timeChart draws entries and comments per month.
func (s *Stats) timeChart() (string, error) {
	months := make([]string, 0, len(s.ByMonth))
	for m := range s.ByMonth {
		months = append(months, m)
	}
	sort.Strings(months)
	if len(months) == 0 {
		return "", nil
	}
	series := map[string][]float64{}
	for _, m := range months {
		series["entries"] = append(series["entries"], float64(s.ByMonth[m].Entries))
		series["comments"] = append(series["comments"], float64(s.ByMonth[m].Comments))
	}
	return barChart("Entries and comments per month", "count", months, series, []string{"entries", "comments"})
}

// countChart draws the counts of m as bars, keys sorted.
func countChart[K int | string](title string, m map[K]int) (string, error) {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	if len(keys) == 0 {
		return "", nil
	}
	names, vals := make([]string, len(keys)), make([]float64, len(keys))
	for i, k := range keys {
		names[i], vals[i] = fmt.Sprint(k), float64(m[k])
		if n, ok := any(k).(int); ok && n == 0 {
			names[i] = "none"
		}
	}
	return barChart(title, "count", names, map[string][]float64{"n": vals}, []string{"n"})
}

// WordCount is one row of the word-frequency table.
type WordCount struct {
	Rank  int
	Word  string
	Count int
}

// ranked returns the words by falling frequency (ties by word).
func (s *Stats) ranked() []WordCount {
	out := make([]WordCount, 0, len(s.Words))
	for w, n := range s.Words {
		out = append(out, WordCount{Word: w, Count: n})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Count > out[j].Count || out[i].Count == out[j].Count && out[i].Word < out[j].Word
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// zipfChart draws frequency against rank on log-log axes, one point per
// word, with the line of Zipf's law (frequency ∝ 1/rank) through the
// most frequent word.
func zipfChart(words []WordCount) (string, error) {
	if len(words) == 0 {
		return "", nil
	}
	pts := make(plotter.XYs, len(words))
	for i, w := range words {
		pts[i].X, pts[i].Y = float64(w.Rank), float64(w.Count)
	}
	p := plot.New()
	p.Title.Text = "Zipf plot of the archived text"
	p.X.Label.Text, p.Y.Label.Text = "rank", "frequency"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return "", err
	}
	sc.GlyphStyle.Color, sc.GlyphStyle.Radius, sc.GlyphStyle.Shape = blue, vg.Points(1.5), draw.CircleGlyph{}
	top := float64(words[0].Count)
	law, err := plotter.NewLine(plotter.XYs{{X: 1, Y: top}, {X: float64(len(words)), Y: top / float64(len(words))}})
	if err != nil {
		return "", err
	}
	law.Color, law.Dashes = orange, []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(sc, law)
	p.Legend.Add("words ("+strconv.Itoa(len(words))+")", sc)
	p.Legend.Add("1/rank", law)
	p.Legend.Top = true
	return svg(p, chartW, 4*vg.Inch)
}

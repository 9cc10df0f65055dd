package main

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// Plot geometry, in SVG user units.
const (
	plotW, plotH                   = 760, 460
	padL, padR, padT, padB float64 = 70, 20, 40, 50
)

// plotColors colour the systems in report order.
var plotColors = []string{"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e"}

// writePlot draws the cumulative extraction time of each system against
// the posts processed (the papers' Figure 2) as a standalone SVG.
// blogharvest's curve includes its learning time, as vertical steps; a
// dashed curve shows it without.
func writePlot(w io.Writer, curves map[string][]point, systems []string) error {
	maxX, maxY := 1.0, 1.0
	for _, c := range curves {
		for _, p := range c {
			maxX, maxY = math.Max(maxX, float64(p.Posts)), math.Max(maxY, p.MS)
		}
	}
	xTicks, yTicks := ticks(maxX), ticks(maxY)
	maxX, maxY = xTicks[len(xTicks)-1], yTicks[len(yTicks)-1]
	sx := func(x float64) float64 { return padL + x/maxX*(plotW-padL-padR) }
	sy := func(y float64) float64 { return plotH - padB - y/maxY*(plotH-padT-padB) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", plotW, plotH, plotW, plotH)
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	fmt.Fprintf(&b, `<text x="%d" y="22" text-anchor="middle" font-size="14">Cumulative extraction time vs posts processed</text>`+"\n", plotW/2)
	axes(&b, xTicks, yTicks, sx, sy)
	for i, s := range systems {
		if c := curves[s]; len(c) > 0 {
			dash := ""
			if s == curveOursApply {
				dash = ` stroke-dasharray="6 4"`
			}
			curve(&b, c, plotColors[i%len(plotColors)], dash, sx, sy)
			legend(&b, i, s, c[len(c)-1], plotColors[i%len(plotColors)], dash)
		}
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// axes draws the grid, ticks and axis labels.
func axes(b *strings.Builder, xt, yt []float64, sx, sy func(float64) float64) {
	for _, x := range xt {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`, sx(x), sy(0), sx(x), sy(yt[len(yt)-1]))
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", sx(x), sy(0)+16, num(x))
	}
	for _, y := range yt {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`, sx(0), sy(y), sx(xt[len(xt)-1]), sy(y))
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n", sx(0)-6, sy(y)+4, num(y))
	}
	fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`, sx(0), sy(0), sx(xt[len(xt)-1]), sy(0))
	fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", sx(0), sy(0), sx(0), sy(yt[len(yt)-1]))
	fmt.Fprintf(b, `<text x="%.1f" y="%d" text-anchor="middle">posts processed</text>`+"\n", (padL+plotW-padR)/2, plotH-12)
	fmt.Fprintf(b, `<text transform="translate(16 %.1f) rotate(-90)" text-anchor="middle">cumulative time (ms)</text>`+"\n", (padT+plotH-padB)/2)
}

// curve draws one system's cumulative time as a polyline; dash is an
// optional stroke-dasharray attribute.
func curve(b *strings.Builder, c []point, color, dash string, sx, sy func(float64) float64) {
	pts := []string{fmt.Sprintf("%.1f,%.1f", sx(0), sy(0))}
	for _, p := range c {
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", sx(float64(p.Posts)), sy(p.MS)))
	}
	fmt.Fprintf(b, `<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`+"\n", color, dash, strings.Join(pts, " "))
}

// legend writes one system's legend line with its total.
func legend(b *strings.Builder, i int, name string, last point, color, dash string) {
	x, y := padL+16, padT+12+float64(i)*18
	fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="3"%s/>`, x, y-4, x+20, y-4, color, dash)
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f">%s: %s ms for %d posts</text>`+"\n", x+26, y, escapeXML(name), num(last.MS), last.Posts)
}

// ticks returns evenly spaced round tick values from 0 covering max.
func ticks(max float64) []float64 {
	step := math.Pow(10, math.Floor(math.Log10(max)))
	for _, m := range []float64{1, 2, 5, 10} {
		if max/(step*m/1) <= 8 {
			step *= m
			break
		}
	}
	var out []float64
	for v := 0.0; ; v += step {
		out = append(out, v)
		if v >= max {
			return out
		}
	}
}

// num formats a tick or total compactly.
func num(f float64) string {
	if f >= 100 || f == math.Trunc(f) {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%.1f", f)
}

// escapeXML escapes text for SVG.
func escapeXML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

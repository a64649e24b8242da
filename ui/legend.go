package ui

// legendRowH is the height a legend row past the first adds.
const legendRowH = 20.0

// legendPlan places the legend's entries: one row when the canvas is wide
// enough, else as many as they need, so no class is cut off at the edge of
// a narrow embed.
type legendPlan struct {
	at   []legendSpot
	rows int
	w    float64 // the box's width
}

// legendSpot is where an entry's swatch starts, from the box's left edge.
type legendSpot struct {
	row int
	x   float64
}

func (p *legendPlan) extra(s float64) float64 { return float64(p.rows-1) * legendRowH * s }

// planLegend lays out entries of the given label widths after a title of
// width titleW within maxW device pixels at scale s. Rows after the first
// start under the first entry, or at the left edge when that leaves less
// room than the widest entry needs.
func planLegend(titleW float64, widths []float64, maxW, s float64) legendPlan {
	entry := func(lw float64) float64 { return 20*s + lw + 14*s }
	pad := 12 * s
	start := pad + titleW + 16*s
	indent, widest := start, 0.0
	for _, lw := range widths {
		widest = max(widest, entry(lw))
	}
	// The box ends 6s before the last entry's end (its gap is 14s, the
	// box's right padding 8s).
	if indent+widest-6*s > maxW {
		indent = pad
	}
	p := legendPlan{rows: 1}
	x, right := start, start
	for _, lw := range widths {
		// An entry goes to a new row when it would cross the edge and
		// something (the title, an entry) is before it on this one.
		w := entry(lw)
		if x+w-6*s > maxW && x > indent {
			p.rows++
			x = indent
		}
		p.at = append(p.at, legendSpot{row: p.rows - 1, x: x})
		x += w
		right = max(right, x)
	}
	p.w = right - 6*s
	return p
}

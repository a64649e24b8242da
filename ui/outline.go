package ui

import "math"

// Rounded rectangles are drawn from outlines computed here rather than from
// vector paths: a 5,000-pod scene fills and strokes thousands of them per
// frame, and building a path with arcs for each one dominated Draw.

// cornerSegments is how many straight segments draw each quarter circle of
// radius px pixels: one when it is too small to see, up to 8.
func cornerSegments(px float64) int {
	return max(1, min(8, int(px/1.5)+1))
}

// roundRectOutline appends to pts the outline of r with corners of the
// given radius (clamped to half the shorter side), clockwise from the top
// right corner, each corner as segs segments (segs+1 points; one point
// when the radius is half a pixel or less). It returns the extended slice.
func roundRectOutline(pts [][2]float32, r Rect, radius float64, segs int) [][2]float32 {
	rad := max(0, math.Min(radius, math.Min(r.W, r.H)/2))
	// Corner centres and their arcs' start angles, clockwise (y grows down).
	corners := [4]struct{ cx, cy, a0 float64 }{
		{r.X + r.W - rad, r.Y + rad, -math.Pi / 2},
		{r.X + r.W - rad, r.Y + r.H - rad, 0},
		{r.X + rad, r.Y + r.H - rad, math.Pi / 2},
		{r.X + rad, r.Y + rad, math.Pi},
	}
	for _, c := range corners {
		if rad <= 0.5 {
			// A square corner: repeat it so every corner has segs+1 points
			// and outlines of one stroke's two edges pair up point by point.
			x, y := c.cx+rad*math.Cos(c.a0+math.Pi/4)*math.Sqrt2, c.cy+rad*math.Sin(c.a0+math.Pi/4)*math.Sqrt2
			for range segs + 1 {
				pts = append(pts, [2]float32{float32(x), float32(y)})
			}
			continue
		}
		for i := 0; i <= segs; i++ {
			a := c.a0 + math.Pi/2*float64(i)/float64(segs)
			pts = append(pts, [2]float32{float32(c.cx + rad*math.Cos(a)), float32(c.cy + rad*math.Sin(a))})
		}
	}
	return pts
}

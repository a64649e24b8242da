package ui

import "math"

// Camera maps world units to screen pixels: screen = (world - Offset) * Zoom.
// Screen pixels are device pixels, so Zoom already includes the display's
// scale factor.
type Camera struct {
	X, Y float64
	Zoom float64
}

// Zoom limits, relative to the display's scale factor.
const (
	MinZoom = 0.1
	MaxZoom = 4.0
)

// ToScreen converts a world point to screen pixels.
func (c Camera) ToScreen(x, y float64) (float64, float64) {
	return (x - c.X) * c.Zoom, (y - c.Y) * c.Zoom
}

// ToWorld converts a screen point to world units.
func (c Camera) ToWorld(sx, sy float64) (float64, float64) {
	return sx/c.Zoom + c.X, sy/c.Zoom + c.Y
}

// Fit returns the camera that shows bounds centred in a screen of w×h pixels
// with margin pixels around it, never magnifying beyond maxZoom.
func Fit(bounds Rect, w, h, margin, maxZoom float64) Camera {
	if bounds.W <= 0 || bounds.H <= 0 || w <= 2*margin || h <= 2*margin {
		return Camera{X: bounds.X, Y: bounds.Y, Zoom: maxZoom}
	}
	z := math.Min((w-2*margin)/bounds.W, (h-2*margin)/bounds.H)
	z = math.Min(z, maxZoom)
	return Camera{
		X:    bounds.X - (w/z-bounds.W)/2,
		Y:    bounds.Y - (h/z-bounds.H)/2,
		Zoom: z,
	}
}

// CaptionBandH is the height of the band the caption bar takes at the top of
// the canvas (times the display's scale factor).
const CaptionBandH = 30.0

// FitCanvas frames bounds on a canvas of w×h pixels at display scale factor
// scale, between the caption bar on top and the legend at the bottom; small
// scenes are magnified up to 1.6×, which keeps text readable from the back
// of a room. The caption band is kept at t=0 too, before any event has a
// caption: a band that appeared with the first event would shrink and move
// the whole cluster as play starts.
func FitCanvas(bounds Rect, w, h, scale float64) Camera {
	legend := (LegendH + 10) * scale
	caption := CaptionBandH * scale
	c := Fit(bounds, w, h-legend-caption, canvasMargin*scale, 1.6*scale)
	c.Y -= caption / c.Zoom
	return c
}

// canvasMargin is FitCanvas's margin around the layout (times the scale).
const canvasMargin = 20.0

// bandAspect is the width/height ratio of the part of a w×h canvas a fit
// fills with the layout (FitCanvas's, or FitPresenter's in presenter
// mode): between the caption bar and the legend, inside the margins. The
// layout is arranged to that shape rather than the canvas's, which on a
// small embed is much wider than the band left between its bars.
func bandAspect(w, h, scale float64, presenter bool) float64 {
	margin, legend := canvasMargin, LegendH+10.0
	if presenter {
		margin, legend = presenterMargin, LegendH+6.0
	}
	bw := w - 2*margin*scale
	bh := h - (legend+CaptionBandH+2*margin)*scale
	if bw <= 0 || bh <= 0 {
		return 16.0 / 9
	}
	return bw / bh
}

// ZoomAt scales by factor around the screen point (sx, sy), which keeps
// showing the same world point; the zoom stays within [lo, hi].
func (c Camera) ZoomAt(sx, sy, factor, lo, hi float64) Camera {
	wx, wy := c.ToWorld(sx, sy)
	z := math.Max(lo, math.Min(hi, c.Zoom*factor))
	return Camera{X: wx - sx/z, Y: wy - sy/z, Zoom: z}
}

// Pan moves the view by a screen-pixel drag of (dx, dy).
func (c Camera) Pan(dx, dy float64) Camera {
	return Camera{X: c.X - dx/c.Zoom, Y: c.Y - dy/c.Zoom, Zoom: c.Zoom}
}

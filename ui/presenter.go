package ui

import "math"

// Presenter mode, for a classroom projector: pod and node names drawn at
// 18 CSS pixels where their chips have room (a text scale of up to 1.7
// against the card geometry), and the fit allowed to magnify further than
// the playground's, so that a lesson of up to eight nodes shows its labels
// at 18 CSS pixels or more on a 1280×720 screen. The page gives the canvas
// most of the screen in that mode (style.css).

const (
	// presenterLabel is the label size presenter mode aims at, in CSS px.
	presenterLabel = 18.0
	// presenterFill is how much of a chip's (or a card header's) 24 units a
	// label may take: more and it leaves the chip.
	presenterFill = 0.88
	// presenterMaxZoom caps the presenter fit (times the display's scale
	// factor); the playground's fit stops at 1.6.
	presenterMaxZoom = 3.0
	// presenterMargin is FitPresenter's margin (times the scale factor).
	presenterMargin = 6.0
)

// FitPresenter frames bounds like FitCanvas, magnifying up to
// presenterMaxZoom.
func FitPresenter(bounds Rect, w, h, scale float64) Camera {
	legend := (LegendH + 6) * scale
	caption := CaptionBandH * scale
	c := Fit(bounds, w, h-legend-caption, presenterMargin*scale, presenterMaxZoom*scale)
	c.Y -= caption / c.Zoom
	return c
}

// podFont and nodeFont are the sizes, in device pixels at zoom z, of pod
// and node names: in presenter mode presenterLabel CSS px where the chip
// (24 units, like a card's header) has room for it, else as large as it has.
func (v *view) podFont(z float64) float64 { return v.labelFont(PodNameSize, z) }

func (v *view) nodeFont(z float64) float64 { return v.labelFont(NodeNameSize, z) }

func (v *view) labelFont(base, z float64) float64 {
	f := base * z
	if !v.presenter {
		return f
	}
	return math.Max(f, math.Min(presenterLabel*v.scale, presenterFill*ChipH*z))
}

// LabelPx is the size, in CSS pixels, at which pod (HitPod) or node
// (HitNode) names are drawn now; the browser tests read it.
func (v *view) LabelPx(k HitKind) float64 {
	if v.scale == 0 {
		return 0
	}
	if k == HitNode {
		return v.nodeFont(v.cam.Zoom) / v.scale
	}
	return v.podFont(v.cam.Zoom) / v.scale
}

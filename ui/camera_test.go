package ui_test

import (
	"math"
	"testing"

	"github.com/schedplay/schedplay/ui"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestFit(t *testing.T) {
	tests := []struct {
		name             string
		bounds           ui.Rect
		w, h, margin, mx float64
		wantZoom         float64
	}{
		{name: "wide content fits the width", bounds: ui.Rect{W: 2000, H: 100}, w: 1000, h: 1000, margin: 0, mx: 4, wantZoom: 0.5},
		{name: "tall content fits the height", bounds: ui.Rect{X: 10, Y: 20, W: 100, H: 1000}, w: 1000, h: 500, margin: 50, mx: 4, wantZoom: 0.4},
		{name: "small content is magnified at most to the cap", bounds: ui.Rect{W: 10, H: 10}, w: 1000, h: 1000, margin: 0, mx: 1.6, wantZoom: 1.6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ui.Fit(tt.bounds, tt.w, tt.h, tt.margin, tt.mx)
			if !near(c.Zoom, tt.wantZoom) {
				t.Errorf("zoom = %v, want %v", c.Zoom, tt.wantZoom)
			}
			// The content is centred on the screen.
			cx, cy := c.ToScreen(tt.bounds.X+tt.bounds.W/2, tt.bounds.Y+tt.bounds.H/2)
			if !near(cx, tt.w/2) || !near(cy, tt.h/2) {
				t.Errorf("content centre on screen at (%v, %v), want (%v, %v)", cx, cy, tt.w/2, tt.h/2)
			}
		})
	}
}

// FitCanvas keeps the caption band on top and the legend strip at the
// bottom clear of the cluster, whatever the content's shape.
func TestFitCanvasLeavesTheBandsFree(t *testing.T) {
	for _, scale := range []float64{1, 2} {
		for _, b := range []ui.Rect{{W: 4000, H: 300}, {X: -5, Y: 7, W: 300, H: 4000}, {W: 10, H: 10}} {
			w, h := 862*scale, 611*scale
			c := ui.FitCanvas(b, w, h, scale)
			_, top := c.ToScreen(b.X, b.Y)
			_, bottom := c.ToScreen(b.X, b.Y+b.H)
			if top < (ui.CaptionBandH+20)*scale-1e-9 {
				t.Errorf("scale %v, bounds %+v: top at %v px, inside the caption band", scale, b, top)
			}
			if bottom > h-(ui.LegendH+10+20)*scale+1e-9 {
				t.Errorf("scale %v, bounds %+v: bottom at %v px, inside the legend strip", scale, b, bottom)
			}
		}
	}
}

func TestZoomAtKeepsThePointUnderTheCursor(t *testing.T) {
	c := ui.Camera{X: 100, Y: -40, Zoom: 1.5}
	wx, wy := c.ToWorld(300, 200)
	z := c.ZoomAt(300, 200, 2, 0.1, 4)
	if !near(z.Zoom, 3) {
		t.Errorf("zoom = %v, want 3", z.Zoom)
	}
	gx, gy := z.ToWorld(300, 200)
	if !near(gx, wx) || !near(gy, wy) {
		t.Errorf("point under the cursor moved from (%v, %v) to (%v, %v)", wx, wy, gx, gy)
	}
	if got := c.ZoomAt(0, 0, 100, 0.1, 4).Zoom; got != 4 {
		t.Errorf("zoom beyond the limit = %v, want 4", got)
	}
}

func TestPanFollowsTheDrag(t *testing.T) {
	c := ui.Camera{Zoom: 2}
	wx, wy := c.ToWorld(10, 10)
	p := c.Pan(30, -20)
	sx, sy := p.ToScreen(wx, wy)
	if !near(sx, 40) || !near(sy, -10) {
		t.Errorf("dragged point on screen at (%v, %v), want (40, -10)", sx, sy)
	}
}

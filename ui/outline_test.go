package ui

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCornerSegments(t *testing.T) {
	for _, tt := range []struct {
		px   float64
		want int
	}{{0, 1}, {0.9, 1}, {1.5, 2}, {6, 5}, {12, 8}, {100, 8}} {
		if got := cornerSegments(tt.px); got != tt.want {
			t.Errorf("cornerSegments(%v) = %d, want %d", tt.px, got, tt.want)
		}
	}
}

func TestRoundRectOutline(t *testing.T) {
	tests := []struct {
		name   string
		r      Rect
		radius float64
		segs   int
		want   [][2]float32
	}{
		{
			name: "square corners repeat to keep the point count",
			r:    Rect{X: 10, Y: 20, W: 30, H: 40}, radius: 0.4, segs: 2,
			want: [][2]float32{{40, 20}, {40, 20}, {40, 20}, {40, 60}, {40, 60}, {40, 60}, {10, 60}, {10, 60}, {10, 60}, {10, 20}, {10, 20}, {10, 20}},
		},
		{
			name: "one segment per corner cuts it at the radius",
			r:    Rect{X: 0, Y: 0, W: 10, H: 10}, radius: 2, segs: 1,
			want: [][2]float32{{8, 0}, {10, 2}, {10, 8}, {8, 10}, {2, 10}, {0, 8}, {0, 2}, {2, 0}},
		},
		{
			name: "the radius is at most half the shorter side",
			r:    Rect{X: 0, Y: 0, W: 10, H: 4}, radius: 50, segs: 1,
			want: [][2]float32{{8, 0}, {10, 2}, {10, 2}, {8, 4}, {2, 4}, {0, 2}, {0, 2}, {2, 0}},
		},
	}
	round := cmp.Transformer("round", func(p [2]float32) [2]float32 {
		return [2]float32{float32(math.Round(float64(p[0])*1000) / 1000), float32(math.Round(float64(p[1])*1000) / 1000)}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := roundRectOutline(nil, tt.r, tt.radius, tt.segs)
			if diff := cmp.Diff(tt.want, got, round); diff != "" {
				t.Errorf("roundRectOutline (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRoundRectOutlineArcStaysOnCircle(t *testing.T) {
	r := Rect{X: 0, Y: 0, W: 100, H: 50}
	pts := roundRectOutline(nil, r, 10, 6)
	if len(pts) != 4*7 {
		t.Fatalf("got %d points, want %d", len(pts), 4*7)
	}
	// The top right corner's arc: centre (90, 10), radius 10.
	for _, p := range pts[:7] {
		d := math.Hypot(float64(p[0])-90, float64(p[1])-10)
		if math.Abs(d-10) > 1e-4 {
			t.Errorf("point %v is %v from the corner centre, want 10", p, d)
		}
	}
}

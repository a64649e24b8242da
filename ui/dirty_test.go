package ui

import (
	"image"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDirtyRects(t *testing.T) {
	tests := []struct {
		name      string
		prev, cur []Rect
		want      []image.Rectangle
		wantFull  bool
	}{
		{
			name: "nothing drawn either frame restores nothing",
		},
		{
			name: "a chip that moved: its old and new places, padded, merged when they overlap",
			prev: []Rect{{X: 100, Y: 100, W: 20, H: 10}},
			cur:  []Rect{{X: 104.5, Y: 102.2, W: 20, H: 10}},
			want: []image.Rectangle{image.Rect(97, 97, 128, 116)},
		},
		{
			name: "far apart areas stay separate",
			prev: []Rect{{X: 10, Y: 10, W: 10, H: 10}},
			cur:  []Rect{{X: 300, Y: 200, W: 10, H: 10}},
			want: []image.Rectangle{image.Rect(7, 7, 23, 23), image.Rect(297, 197, 313, 213)},
		},
		{
			name: "a box merging two others merges all three",
			prev: []Rect{{X: 0, Y: 50, W: 10, H: 10}, {X: 100, Y: 50, W: 10, H: 10}},
			cur:  []Rect{{X: 5, Y: 52, W: 100, H: 4}},
			want: []image.Rectangle{image.Rect(0, 47, 113, 63)},
		},
		{
			name: "clipped to the screen; off-screen boxes dropped",
			prev: []Rect{{X: -50, Y: -50, W: 60, H: 60}},
			cur:  []Rect{{X: 500, Y: 10, W: 10, H: 10}},
			want: []image.Rectangle{image.Rect(0, 0, 13, 13)},
		},
		{
			name:     "more than half the screen: copy it whole",
			cur:      []Rect{{X: 0, Y: 0, W: 400, H: 160}},
			wantFull: true,
		},
		{
			name: "too many separate areas: copy it whole",
			cur: func() []Rect {
				var rs []Rect
				for i := 0; i <= maxDirtyRects; i++ {
					rs = append(rs, Rect{X: float64(i%20) * 20, Y: float64(i/20) * 20, W: 2, H: 2})
				}
				return rs
			}(),
			wantFull: true,
		},
		{
			name: "hundreds of boxes (a lane rearranged): copy it whole, not merged",
			prev: make([]Rect, 2*maxDirtyRects),
			cur:  make([]Rect, 2*maxDirtyRects+1),
			// All at the same spot: merged they would be one small area.
			wantFull: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, full := DirtyRects(tc.prev, tc.cur, 400, 300)
			if full != tc.wantFull {
				t.Errorf("full = %v, want %v", full, tc.wantFull)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("DirtyRects (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAbsorb(t *testing.T) {
	lane := Rect{X: 10, Y: 10, W: 100, H: 20}
	tests := []struct {
		name  string
		boxes []Rect
		want  []Rect
	}{
		{name: "boxes inside become the area once", boxes: []Rect{{X: 12, Y: 12, W: 5, H: 5}, {X: 50, Y: 20, W: 5, H: 5}}, want: []Rect{lane}},
		{name: "a box reaching out stays", boxes: []Rect{{X: 105, Y: 12, W: 10, H: 5}, {X: 12, Y: 12, W: 5, H: 5}}, want: []Rect{{X: 105, Y: 12, W: 10, H: 5}, lane}},
		{name: "no box inside, no area", boxes: []Rect{{X: 0, Y: 50, W: 5, H: 5}}, want: []Rect{{X: 0, Y: 50, W: 5, H: 5}}},
		{name: "a box equal to the area counts as inside", boxes: []Rect{lane}, want: []Rect{lane}},
		{name: "none", boxes: nil, want: []Rect{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Absorb(append([]Rect(nil), tt.boxes...), lane)
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("got %v, want %v", got, tt.want)
				}
			}
		})
	}
}

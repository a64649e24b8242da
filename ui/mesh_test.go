package ui

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMeshFillRound(t *testing.T) {
	red := [4]float32{1, 0, 0, 1}
	tests := []struct {
		name     string
		r        Rect
		radius   float64
		wantPts  int
		wantTris int
	}{
		{name: "corners under half a pixel are a quad", r: Rect{X: 1, Y: 2, W: 20, H: 10}, radius: 0.4, wantPts: 4, wantTris: 2},
		{name: "corners under a pixel are a quad", r: Rect{X: 1, Y: 2, W: 20, H: 10}, radius: 0.9, wantPts: 4, wantTris: 2},
		{name: "a two-pixel-high sliver is a quad", r: Rect{X: 1, Y: 2, W: 20, H: 2}, radius: 3, wantPts: 4, wantTris: 2},
		{name: "a round rectangle is a fan around its centre", r: Rect{X: 0, Y: 0, W: 40, H: 20}, radius: 6, wantPts: 1 + 4*6, wantTris: 4 * 6},
		{name: "an empty rectangle adds nothing", r: Rect{X: 0, Y: 0, W: 0, H: 20}, radius: 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m mesh
			if !m.fillRound(tt.r, tt.radius, red) {
				t.Fatal("an empty mesh is full")
			}
			if len(m.pts) != tt.wantPts || len(m.cols) != tt.wantPts || len(m.is) != 3*tt.wantTris {
				t.Errorf("got %d points, %d colours, %d indices; want %d, %d, %d", len(m.pts), len(m.cols), len(m.is), tt.wantPts, tt.wantPts, 3*tt.wantTris)
			}
		})
	}
}

func TestMeshQuadCoversRect(t *testing.T) {
	var m mesh
	m.fillRound(Rect{X: 1, Y: 2, W: 20, H: 10}, 0, [4]float32{1, 1, 1, 1})
	want := [][2]float32{{1, 2}, {21, 2}, {21, 12}, {1, 12}}
	if diff := cmp.Diff(want, m.pts); diff != "" {
		t.Errorf("quad (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]uint16{0, 1, 2, 0, 2, 3}, m.is); diff != "" {
		t.Errorf("indices (-want +got):\n%s", diff)
	}
}

// Shapes after the first index their own vertices: a batch is the same
// picture as one call per shape.
func TestMeshIndicesOffsetPerShape(t *testing.T) {
	var m mesh
	a, b := [4]float32{1, 0, 0, 1}, [4]float32{0, 0, 1, 1}
	m.fillRound(Rect{W: 10, H: 10}, 0, a)
	m.strokeRound(Rect{X: 20, W: 10, H: 10}, 0, 2, b)
	first := 4
	for i, ix := range m.is[6:] {
		if int(ix) < first || int(ix) >= len(m.pts) {
			t.Fatalf("index %d of the stroke is %d, outside its vertices [%d, %d)", i, ix, first, len(m.pts))
		}
	}
	for i := first; i < len(m.cols); i++ {
		if m.cols[i] != b {
			t.Fatalf("vertex %d has colour %v, want the stroke's %v", i, m.cols[i], b)
		}
	}
}

func TestMeshReportsFull(t *testing.T) {
	var m mesh
	n := 0
	for m.fillRound(Rect{W: 10, H: 10}, 0, [4]float32{1, 1, 1, 1}) {
		n++
	}
	if want := maxMeshVertices / 4; n != want {
		t.Errorf("%d quads fit, want %d", n, want)
	}
	if len(m.pts) > maxMeshVertices {
		t.Errorf("%d vertices, more than a call can index", len(m.pts))
	}
	before := len(m.pts)
	if m.strokeRound(Rect{W: 10, H: 10}, 4, 1, [4]float32{1, 1, 1, 1}) || len(m.pts) != before {
		t.Errorf("a full mesh took a stroke")
	}
	m.reset()
	if !m.empty() || !m.fillRound(Rect{W: 10, H: 10}, 0, [4]float32{1, 1, 1, 1}) {
		t.Errorf("a reset mesh does not take a quad")
	}
}

func TestMeshStrokeRound(t *testing.T) {
	c := [4]float32{1, 1, 1, 1}
	tests := []struct {
		name          string
		radius, width float64
		wantPts       int
	}{
		{name: "thin square outline is four bars", radius: 0.3, width: 0.5, wantPts: 16},
		{name: "a quarter-pixel outline is four bars", radius: 0.1, width: thinnestStroke, wantPts: 16},
		{name: "an outline under a quarter pixel is not drawn", radius: 0.3, width: 0.2, wantPts: 0},
		{name: "a round outline is a band between two outlines", radius: 6, width: 2, wantPts: 2 * 4 * (cornerSegments(7) + 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m mesh
			m.strokeRound(Rect{X: 10, Y: 10, W: 40, H: 20}, tt.radius, tt.width, c)
			if len(m.pts) != tt.wantPts {
				t.Errorf("got %d points, want %d", len(m.pts), tt.wantPts)
			}
		})
	}
}

// The four bars of a square outline cover its band and nothing inside.
func TestMeshSquareStrokeBars(t *testing.T) {
	var m mesh
	m.strokeRound(Rect{X: 10, Y: 10, W: 40, H: 20}, 0, 0.5, [4]float32{1, 1, 1, 1})
	want := [][2]float32{
		{9.75, 9.75}, {50.25, 9.75}, {50.25, 10.25}, {9.75, 10.25}, // top
		{9.75, 29.75}, {50.25, 29.75}, {50.25, 30.25}, {9.75, 30.25}, // bottom
		{9.75, 10.25}, {10.25, 10.25}, {10.25, 29.75}, {9.75, 29.75}, // left
		{49.75, 10.25}, {50.25, 10.25}, {50.25, 29.75}, {49.75, 29.75}, // right
	}
	if diff := cmp.Diff(want, m.pts); diff != "" {
		t.Errorf("bars (-want +got):\n%s", diff)
	}
}

// A mesh filled to a draw call's limit allocates its arrays in a few steps
// and about its final size in all, not the five times append's 1.25x steps
// add up to: in a fresh page each new byte costs a page fault.
func TestMeshGrowsInFewSteps(t *testing.T) {
	var m mesh
	steps, allocated := 0, 0
	for {
		before := cap(m.pts)
		if !m.fillRound(Rect{X: 0.5, Y: 0.5, W: 10, H: 10}, 0, [4]float32{1, 1, 1, 1}) {
			break
		}
		if c := cap(m.pts); c != before {
			steps++
			allocated += c
		}
	}
	if steps > 10 {
		t.Errorf("the vertices grew in %d steps, want at most 10", steps)
	}
	if final := len(m.pts); allocated > 2*final {
		t.Errorf("%d vertices allocated on the way to %d, want at most twice as many", allocated, final)
	}
	if len(m.is) > cap(m.is) || cap(m.is) > 3*maxMeshVertices {
		t.Errorf("indices: %d of capacity %d", len(m.is), cap(m.is))
	}
}

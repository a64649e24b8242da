//go:build js || ebiten

package ui

import (
	"image"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
)

// painter fills and strokes shapes. It batches them into one draw call
// (a mesh of solid-coloured triangles) until flush, which Draw calls before
// text and at the end of the frame so that shapes and text keep their order.
type painter struct {
	white *ebiten.Image
	m     mesh
	dst   *ebiten.Image
	vs    []ebiten.Vertex
	calls int // draw calls issued, for performance probes
	// recording: shapes are not drawn, their boxes are appended to rec
	// (Draw learns what a frame will cover before restoring under it).
	recording bool
	rec       []Rect
}

func newPainter() *painter {
	img := ebiten.NewImage(3, 3)
	img.Fill(color.White)
	// The inner pixel only: sampling at the edge of an atlas image bleeds.
	return &painter{white: img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)}
}

// flush draws the shapes batched so far.
func (pt *painter) flush() {
	if pt.m.empty() {
		return
	}
	pt.vs = growTo(pt.vs[:0], len(pt.m.pts), maxMeshVertices)
	for i, p := range pt.m.pts {
		c := pt.m.cols[i]
		pt.vs = append(pt.vs, ebiten.Vertex{DstX: p[0], DstY: p[1], SrcX: 1, SrcY: 1, ColorR: c[0], ColorG: c[1], ColorB: c[2], ColorA: c[3]})
	}
	op := &ebiten.DrawTrianglesOptions{ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha}
	pt.dst.DrawTriangles(pt.vs, pt.m.is, pt.white, op)
	pt.calls++
	pt.m.reset()
}

// target flushes shapes batched for another image.
func (pt *painter) target(dst *ebiten.Image) {
	if pt.dst != dst {
		pt.flush()
		pt.dst = dst
	}
}

func rgba(clr color.Color) [4]float32 {
	r, g, b, a := clr.RGBA()
	return [4]float32{float32(r) / 0xffff, float32(g) / 0xffff, float32(b) / 0xffff, float32(a) / 0xffff}
}

// fillRound fills a rounded rectangle given in screen pixels.
func (pt *painter) fillRound(dst *ebiten.Image, r Rect, radius float64, clr color.Color) {
	if pt.recording {
		pt.rec = append(pt.rec, r)
		return
	}
	pt.target(dst)
	c := rgba(clr)
	if !pt.m.fillRound(r, radius, c) {
		pt.flush()
		pt.m.fillRound(r, radius, c)
	}
}

// strokeRound outlines a rounded rectangle given in screen pixels.
func (pt *painter) strokeRound(dst *ebiten.Image, r Rect, radius, width float64, clr color.Color) {
	if pt.recording {
		pt.rec = append(pt.rec, Rect{X: r.X - width, Y: r.Y - width, W: r.W + 2*width, H: r.H + 2*width})
		return
	}
	pt.target(dst)
	c := rgba(clr)
	if !pt.m.strokeRound(r, radius, width, c) {
		pt.flush()
		pt.m.strokeRound(r, radius, width, c)
	}
}

// fillPoly fills a convex polygon given in screen pixels.
func (pt *painter) fillPoly(dst *ebiten.Image, pts [][2]float32, clr color.Color) {
	if len(pts) == 0 {
		return
	}
	if pt.recording {
		r := Rect{X: float64(pts[0][0]), Y: float64(pts[0][1])}
		for _, p := range pts[1:] {
			r = r.Union(Rect{X: float64(p[0]), Y: float64(p[1])})
		}
		pt.rec = append(pt.rec, Rect{X: r.X - 1, Y: r.Y - 1, W: r.W + 2, H: r.H + 2})
		return
	}
	pt.target(dst)
	c := rgba(clr)
	if !pt.m.poly(pts, c) {
		pt.flush()
		pt.m.poly(pts, c)
	}
}

// Icons the canvas draws instead of symbols its font (Go) lacks: ⚠, ✓
// and ✗ came out as empty boxes. s is the icon's height in pixels; (x, y)
// its left edge and vertical middle, as text is placed.

// warningIcon is a filled triangle with an exclamation mark cut out in ink.
func (pt *painter) warningIcon(dst *ebiten.Image, x, y, s float64, clr, ink color.Color) {
	h := s * 0.9
	top, bottom := y-h/2, y+h/2
	pt.fillPoly(dst, [][2]float32{{float32(x + s/2), float32(top)}, {float32(x + s), float32(bottom)}, {float32(x), float32(bottom)}}, clr)
	bar := max(1, s*0.12)
	pt.fillRound(dst, Rect{X: x + s/2 - bar/2, Y: top + h*0.32, W: bar, H: h * 0.36}, 0, ink)
	pt.fillRound(dst, Rect{X: x + s/2 - bar/2, Y: top + h*0.76, W: bar, H: bar}, 0, ink)
}

// checkIcon is a tick; crossIcon an x.
func (pt *painter) checkIcon(dst *ebiten.Image, x, y, s float64, clr color.Color) {
	w := max(1.2, s*0.16)
	pt.fillPoly(dst, segment(x, y, x+s*0.35, y+s*0.32, w), clr)
	pt.fillPoly(dst, segment(x+s*0.35, y+s*0.32, x+s*0.9, y-s*0.38, w), clr)
}

func (pt *painter) crossIcon(dst *ebiten.Image, x, y, s float64, clr color.Color) {
	w := max(1.2, s*0.16)
	pt.fillPoly(dst, segment(x+s*0.1, y-s*0.35, x+s*0.8, y+s*0.35, w), clr)
	pt.fillPoly(dst, segment(x+s*0.8, y-s*0.35, x+s*0.1, y+s*0.35, w), clr)
}

// withAlpha scales a colour's opacity by a (0 to 1), premultiplied.
func withAlpha(c color.RGBA, a float64) color.RGBA {
	if a >= 1 {
		return c
	}
	return color.RGBA{R: uint8(float64(c.R) * a), G: uint8(float64(c.G) * a), B: uint8(float64(c.B) * a), A: uint8(float64(c.A) * a)}
}

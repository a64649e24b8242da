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
	pt.vs = pt.vs[:0]
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

// withAlpha scales a colour's opacity by a (0 to 1), premultiplied.
func withAlpha(c color.RGBA, a float64) color.RGBA {
	if a >= 1 {
		return c
	}
	return color.RGBA{R: uint8(float64(c.R) * a), G: uint8(float64(c.G) * a), B: uint8(float64(c.B) * a), A: uint8(float64(c.A) * a)}
}

// mix blends a towards b by p (0 to 1).
func mix(a, b color.RGBA, p float64) color.RGBA {
	m := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*p) }
	return color.RGBA{R: m(a.R, b.R), G: m(a.G, b.G), B: m(a.B, b.B), A: m(a.A, b.A)}
}

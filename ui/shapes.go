//go:build js || ebiten

package ui

import (
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// painter fills and strokes shapes, reusing its vertex buffers between calls.
type painter struct {
	white *ebiten.Image
	vs    []ebiten.Vertex
	is    []uint16
}

func newPainter() *painter {
	img := ebiten.NewImage(3, 3)
	img.Fill(color.White)
	// The inner pixel only: sampling at the edge of an atlas image bleeds.
	return &painter{white: img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)}
}

func roundRectPath(r Rect, radius float64) *vector.Path {
	x, y, w, h := float32(r.X), float32(r.Y), float32(r.W), float32(r.H)
	rad := float32(math.Min(radius, math.Min(r.W, r.H)/2))
	p := &vector.Path{}
	if rad <= 0.5 {
		p.MoveTo(x, y)
		p.LineTo(x+w, y)
		p.LineTo(x+w, y+h)
		p.LineTo(x, y+h)
		p.Close()
		return p
	}
	const q = math.Pi / 2
	p.MoveTo(x+rad, y)
	p.LineTo(x+w-rad, y)
	p.Arc(x+w-rad, y+rad, rad, -q, 0, vector.Clockwise)
	p.LineTo(x+w, y+h-rad)
	p.Arc(x+w-rad, y+h-rad, rad, 0, q, vector.Clockwise)
	p.LineTo(x+rad, y+h)
	p.Arc(x+rad, y+h-rad, rad, q, 2*q, vector.Clockwise)
	p.LineTo(x, y+rad)
	p.Arc(x+rad, y+rad, rad, 2*q, 3*q, vector.Clockwise)
	p.Close()
	return p
}

func (pt *painter) draw(dst *ebiten.Image, clr color.Color) {
	r, g, b, a := clr.RGBA()
	for i := range pt.vs {
		pt.vs[i].SrcX, pt.vs[i].SrcY = 1, 1
		pt.vs[i].ColorR = float32(r) / 0xffff
		pt.vs[i].ColorG = float32(g) / 0xffff
		pt.vs[i].ColorB = float32(b) / 0xffff
		pt.vs[i].ColorA = float32(a) / 0xffff
	}
	op := &ebiten.DrawTrianglesOptions{ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha}
	dst.DrawTriangles(pt.vs, pt.is, pt.white, op)
}

// fillRound fills a rounded rectangle given in screen pixels.
func (pt *painter) fillRound(dst *ebiten.Image, r Rect, radius float64, clr color.Color) {
	pt.vs, pt.is = roundRectPath(r, radius).AppendVerticesAndIndicesForFilling(pt.vs[:0], pt.is[:0])
	pt.draw(dst, clr)
}

// strokeRound outlines a rounded rectangle given in screen pixels.
func (pt *painter) strokeRound(dst *ebiten.Image, r Rect, radius, width float64, clr color.Color) {
	op := &vector.StrokeOptions{Width: float32(width), LineJoin: vector.LineJoinRound}
	pt.vs, pt.is = roundRectPath(r, radius).AppendVerticesAndIndicesForStroke(pt.vs[:0], pt.is[:0], op)
	pt.draw(dst, clr)
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

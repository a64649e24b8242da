//go:build js || ebiten

package ui

import (
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
)

// painter fills and strokes shapes, reusing its vertex buffers between calls.
type painter struct {
	white *ebiten.Image
	vs    []ebiten.Vertex
	is    []uint16
	pts   [][2]float32
}

func newPainter() *painter {
	img := ebiten.NewImage(3, 3)
	img.Fill(color.White)
	// The inner pixel only: sampling at the edge of an atlas image bleeds.
	return &painter{white: img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)}
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

// fillRound fills a rounded rectangle given in screen pixels: a fan of
// triangles from its centre (it is convex).
func (pt *painter) fillRound(dst *ebiten.Image, r Rect, radius float64, clr color.Color) {
	pt.pts = roundRectOutline(pt.pts[:0], r, radius, cornerSegments(radius))
	pt.vs = append(pt.vs[:0], ebiten.Vertex{DstX: float32(r.X + r.W/2), DstY: float32(r.Y + r.H/2)})
	pt.is = pt.is[:0]
	n := uint16(len(pt.pts))
	for i, p := range pt.pts {
		pt.vs = append(pt.vs, ebiten.Vertex{DstX: p[0], DstY: p[1]})
		pt.is = append(pt.is, 0, uint16(i)+1, (uint16(i)+1)%n+1)
	}
	pt.draw(dst, clr)
}

// strokeRound outlines a rounded rectangle given in screen pixels: a band
// of quads between the outlines width/2 outside and inside it.
func (pt *painter) strokeRound(dst *ebiten.Image, r Rect, radius, width float64, clr color.Color) {
	h := width / 2
	radius = max(0, math.Min(radius, math.Min(r.W, r.H)/2))
	segs := cornerSegments(radius + h)
	out := Rect{X: r.X - h, Y: r.Y - h, W: r.W + width, H: r.H + width}
	in := Rect{X: r.X + h, Y: r.Y + h, W: max(0, r.W-width), H: max(0, r.H-width)}
	pt.pts = roundRectOutline(pt.pts[:0], out, radius+h, segs)
	n := len(pt.pts)
	pt.pts = roundRectOutline(pt.pts, in, radius-h, segs)
	pt.vs, pt.is = pt.vs[:0], pt.is[:0]
	for _, p := range pt.pts {
		pt.vs = append(pt.vs, ebiten.Vertex{DstX: p[0], DstY: p[1]})
	}
	for i := range n {
		j := (i + 1) % n
		a, b, c, d := uint16(i), uint16(j), uint16(n+i), uint16(n+j)
		pt.is = append(pt.is, a, b, c, b, d, c)
	}
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

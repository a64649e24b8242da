package ui

import "math"

// maxMeshVertices is how many vertices one draw call can index (uint16
// indices).
const maxMeshVertices = math.MaxUint16

// mesh collects solid-coloured shapes, in screen pixels, for one draw call:
// a 5,000-pod scene is tens of thousands of small shapes, and one call per
// shape cost more than drawing them. Shapes keep their order (later ones on
// top); text is drawn between flushes, so the painter flushes before it.
type mesh struct {
	pts  [][2]float32
	cols [][4]float32 // premultiplied RGBA, 0 to 1, per vertex
	is   []uint16
	tmp  [][2]float32
}

func (m *mesh) reset() {
	m.pts, m.cols, m.is = m.pts[:0], m.cols[:0], m.is[:0]
}

func (m *mesh) empty() bool { return len(m.is) == 0 }

// room reports whether n more vertices fit in this call.
func (m *mesh) room(n int) bool { return len(m.pts)+n <= maxMeshVertices }

// growTo returns s with room for need elements. Past 256 elements append
// grows a slice 1.25x at a time, so a 5,000-pod frame allocated about five
// times the mesh's final size, and in a fresh page every new byte is a
// page fault on first write: capacity doubles instead, and past a quarter
// of limit (the most one draw call holds) jumps to limit, the one large
// allocation a large scene needs.
func growTo[T any](s []T, need, limit int) []T {
	if need <= cap(s) {
		return s
	}
	c := max(need, 2*cap(s), 256)
	if c > limit/4 {
		c = max(need, limit)
	}
	return append(make([]T, 0, c), s...)
}

// grow makes room for nv more vertices and ni more indices.
func (m *mesh) grow(nv, ni int) {
	m.pts = growTo(m.pts, len(m.pts)+nv, maxMeshVertices)
	m.cols = growTo(m.cols, len(m.cols)+nv, maxMeshVertices)
	m.is = growTo(m.is, len(m.is)+ni, 3*maxMeshVertices)
}

func (m *mesh) add(p [2]float32, c [4]float32) {
	m.pts = append(m.pts, p)
	m.cols = append(m.cols, c)
}

// squareBelow is the corner radius, in pixels, under which a rounded
// rectangle is drawn square: rasterised without antialiasing, a corner cut
// under a pixel hardly shows, and a software rasteriser (SwiftShader) pays
// per triangle.
const squareBelow = 1.0

// thinnestStroke is the narrowest outline drawn, in pixels. Rasterised
// without antialiasing, a band of width w lights a pixel only where it
// crosses the pixel's centre, for a fraction w of the places it could lie:
// a quarter-pixel outline shows as scattered lines and dots, not as an
// outline (500 nodes' 5,000 pending chips, 0.1 pixel each, striped their
// queue), while its bars were most of the frame's triangles.
const thinnestStroke = 0.25

// fillRound adds a filled rounded rectangle: a plain quad when the corners
// are too small to see, else a fan of triangles from its centre (it is
// convex). It reports false, adding nothing, when the call is full.
func (m *mesh) fillRound(r Rect, radius float64, c [4]float32) bool {
	if r.W <= 0 || r.H <= 0 {
		return true
	}
	if radius < squareBelow || r.W <= 2 || r.H <= 2 {
		if !m.room(4) {
			return false
		}
		m.quad(r, c)
		return true
	}
	m.tmp = roundRectOutline(m.tmp[:0], r, radius, cornerSegments(radius))
	n := len(m.tmp)
	if !m.room(n + 1) {
		return false
	}
	m.grow(n+1, 3*n)
	b := uint16(len(m.pts))
	m.add([2]float32{float32(r.X + r.W/2), float32(r.Y + r.H/2)}, c)
	for i, p := range m.tmp {
		m.add(p, c)
		m.is = append(m.is, b, b+1+uint16(i), b+1+uint16((i+1)%n))
	}
	return true
}

func (m *mesh) quad(r Rect, c [4]float32) {
	m.grow(4, 6)
	b := uint16(len(m.pts))
	x0, y0, x1, y1 := float32(r.X), float32(r.Y), float32(r.X+r.W), float32(r.Y+r.H)
	m.add([2]float32{x0, y0}, c)
	m.add([2]float32{x1, y0}, c)
	m.add([2]float32{x1, y1}, c)
	m.add([2]float32{x0, y1}, c)
	m.is = append(m.is, b, b+1, b+2, b, b+2, b+3)
}

// strokeRound adds the outline of a rounded rectangle: a band of quads
// between the outlines width/2 outside and inside it (nothing when it is
// thinner than thinnestStroke). It reports false, adding nothing, when the
// call is full.
func (m *mesh) strokeRound(r Rect, radius, width float64, c [4]float32) bool {
	if width < thinnestStroke {
		return true
	}
	h := width / 2
	radius = max(0, math.Min(radius, math.Min(r.W, r.H)/2))
	if radius+h < squareBelow {
		// Square corners: four bars (top, bottom, left, right).
		if !m.room(16) {
			return false
		}
		in := max(0, r.H-width)
		m.quad(Rect{X: r.X - h, Y: r.Y - h, W: r.W + width, H: width}, c)
		m.quad(Rect{X: r.X - h, Y: r.Y + r.H - h, W: r.W + width, H: width}, c)
		m.quad(Rect{X: r.X - h, Y: r.Y + h, W: width, H: in}, c)
		m.quad(Rect{X: r.X + r.W - h, Y: r.Y + h, W: width, H: in}, c)
		return true
	}
	segs := cornerSegments(radius + h)
	out := Rect{X: r.X - h, Y: r.Y - h, W: r.W + width, H: r.H + width}
	in := Rect{X: r.X + h, Y: r.Y + h, W: max(0, r.W-width), H: max(0, r.H-width)}
	m.tmp = roundRectOutline(m.tmp[:0], out, radius+h, segs)
	n := len(m.tmp)
	m.tmp = roundRectOutline(m.tmp, in, radius-h, segs)
	if !m.room(2 * n) {
		return false
	}
	m.grow(2*n, 6*n)
	b := uint16(len(m.pts))
	for _, p := range m.tmp {
		m.add(p, c)
	}
	for i := range n {
		j := (i + 1) % n
		o0, o1, i0, i1 := b+uint16(i), b+uint16(j), b+uint16(n+i), b+uint16(n+j)
		m.is = append(m.is, o0, o1, i0, o1, i1, i0)
	}
	return true
}

// poly adds a filled convex polygon (a fan from its first point). It
// reports false, adding nothing, when the call is full.
func (m *mesh) poly(pts [][2]float32, c [4]float32) bool {
	if len(pts) < 3 {
		return true
	}
	if !m.room(len(pts)) {
		return false
	}
	m.grow(len(pts), 3*(len(pts)-2))
	b := uint16(len(m.pts))
	for _, p := range pts {
		m.add(p, c)
	}
	for i := 1; i+1 < len(pts); i++ {
		m.is = append(m.is, b, b+uint16(i), b+uint16(i+1))
	}
	return true
}

// segment is the quad of a line from (x0, y0) to (x1, y1) of the given
// width, as polygon points.
func segment(x0, y0, x1, y1, width float64) [][2]float32 {
	dx, dy := x1-x0, y1-y0
	l := math.Hypot(dx, dy)
	if l == 0 {
		return nil
	}
	nx, ny := -dy/l*width/2, dx/l*width/2
	return [][2]float32{
		{float32(x0 + nx), float32(y0 + ny)}, {float32(x1 + nx), float32(y1 + ny)},
		{float32(x1 - nx), float32(y1 - ny)}, {float32(x0 - nx), float32(y0 - ny)},
	}
}

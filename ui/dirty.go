package ui

import (
	"image"
	"math"
)

// dirtyPad widens every drawn box by this many pixels: antialiased edges
// and glyphs reach a little past the shapes' geometry.
const dirtyPad = 3

// maxDirtyRects is how many separate areas a frame restores one by one
// before copying the whole world picture is simpler.
const maxDirtyRects = 64

// Absorb replaces the boxes that lie inside area by area itself, once, in
// place: the chips gliding along the queue lane as it moves up (hundreds
// when a pod leaves a long lane) become one area to restore instead of
// hundreds, which DirtyRects would give up on and copy the whole picture.
func Absorb(boxes []Rect, area Rect) []Rect {
	n, inside := 0, false
	for _, b := range boxes {
		if b.X >= area.X && b.Y >= area.Y && b.X+b.W <= area.X+area.W && b.Y+b.H <= area.Y+area.H {
			inside = true
			continue
		}
		boxes[n] = b
		n++
	}
	if inside {
		return append(boxes[:n], area)
	}
	return boxes[:n]
}

// DirtyRects returns the screen areas a frame must restore from the world
// picture when the screen kept last frame's pixels: everything drawn over
// the picture last frame (prev) and everything to be drawn this frame
// (cur), in pixels, padded, clipped to the w x h screen, overlapping areas
// merged. full is true when restoring area by area would not pay (more
// than half the screen, or too many areas): then the whole picture is
// copied.
func DirtyRects(prev, cur []Rect, w, h int) (rs []image.Rectangle, full bool) {
	// Merging is quadratic in the boxes: hundreds of chips gliding at once
	// (a lane rearranged) would cost more than the copy they could save.
	if len(prev)+len(cur) > 4*maxDirtyRects {
		return nil, true
	}
	screen := image.Rect(0, 0, w, h)
	area := 0
	add := func(r Rect) {
		px := image.Rect(int(math.Floor(r.X))-dirtyPad, int(math.Floor(r.Y))-dirtyPad,
			int(math.Ceil(r.X+r.W))+dirtyPad, int(math.Ceil(r.Y+r.H))+dirtyPad).Intersect(screen)
		if px.Empty() {
			return
		}
		// Merge with every area it touches, until it touches none: copies
		// of overlapping areas would pay twice for the same pixels.
		for merged := true; merged; {
			merged = false
			for i := 0; i < len(rs); i++ {
				if rs[i].Overlaps(px) {
					px = px.Union(rs[i])
					rs[i] = rs[len(rs)-1]
					rs = rs[:len(rs)-1]
					merged = true
					break
				}
			}
		}
		rs = append(rs, px)
	}
	for _, r := range prev {
		add(r)
	}
	for _, r := range cur {
		add(r)
	}
	for _, r := range rs {
		area += r.Dx() * r.Dy()
	}
	if len(rs) > maxDirtyRects || 2*area > w*h {
		return nil, true
	}
	return rs, false
}

//go:build js || ebiten

package ui

import "github.com/hajimehoshi/ebiten/v2"

// warmPx is the side of the picture the warm-up draws into: the shapes and
// text go through all of the drawing code (this package's and ebiten's),
// while the rasteriser, clipping them to it, fills almost no pixels.
const warmPx = 8

// warmPicture is a scene the warm-up asked to have drawn (WarmDraw).
type warmPicture struct {
	scene  *Scene
	layout *Layout
}

// WarmDraw has a coming frame draw s, laid out as l, as this canvas would
// draw it, into a picture nothing shows: a browser runs a page's
// WebAssembly in baseline code until a function has run often, and a
// fresh page's first large scenario drew its first frame in that code
// (ui/session's Warm says why it warms up). One picture a frame.
func (g *Game) WarmDraw(s *Scene, l *Layout) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.warmQueue = append(g.warmQueue, warmPicture{s, l})
}

// WarmDrawn is how many pictures WarmDraw asked for were drawn: for the
// tests.
func (g *Game) WarmDrawn() int { return g.warmDrawn }

// drawWarm draws the next picture WarmDraw asked for, if any, with a game
// of its own that shares this one's fonts and painter.
func (g *Game) drawWarm() {
	g.mu.Lock()
	// Drawn at the canvas's size, as a scene would be: not before it has one.
	if len(g.warmQueue) == 0 || g.w == 0 || g.h == 0 {
		g.mu.Unlock()
		return
	}
	p := g.warmQueue[0]
	g.warmQueue = g.warmQueue[1:]
	g.mu.Unlock()
	g.warmDrawn++
	w := &Game{fonts: g.fonts, paint: g.paint, motion: NewMotion(), theme: g.theme, words: g.words, cordonW: g.cordonW,
		view: view{autoFit: true, w: g.w, h: g.h, scale: g.scale, presenter: g.presenter}}
	w.prepared.scene, w.prepared.aspect, w.prepared.layout = p.scene, w.aspect(), p.layout
	w.apply(p.scene, 0)
	img := ebiten.NewImage(warmPx, warmPx)
	defer img.Deallocate()
	w.paint.m.reset()
	w.paint.recording = false
	w.drawWorld(img)
	w.drawOver(img, w.cam.Zoom)
	w.paint.flush()
	w.paint.target(nil)
	for _, c := range []*cachedPicture{&w.captionImg, &w.legendImg} {
		if c.img != nil {
			c.img.Deallocate()
		}
	}
}

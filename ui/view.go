package ui

import "math"

// Intent is one thing the person asked the canvas for, read off the mouse
// and keyboard once per tick (the ebiten part, input.go); the view model
// (view.Apply) decides what it does. Screen positions are device pixels.
type Intent struct {
	Kind IntentKind
	X, Y float64
	// Factor is a zoom's scale (wheel, the keys + and -, a pinch).
	Factor float64
	// DX, DY is how far a pinch's midpoint moved (device pixels).
	DX, DY float64
}

// IntentKind says what an Intent asks.
type IntentKind int

// Intents, in the order one tick reads them: a press or release takes
// effect before the cursor's move (a release pans no further, a press
// starts where the cursor is).
const (
	// IntentZoomAt: the wheel zooms by Factor around X, Y.
	IntentZoomAt IntentKind = iota
	// IntentPress: the left button went down at X, Y.
	IntentPress
	// IntentRelease: the left button is up at X, Y (every tick it is).
	IntentRelease
	// IntentCursor: the cursor is at X, Y (every tick); with the button
	// down beyond dragSlop it pans.
	IntentCursor
	// IntentFit: frame the whole cluster again (F or 0).
	IntentFit
	// IntentZoomCenter: zoom by Factor around the screen's centre (+, -).
	IntentZoomCenter
	// IntentUnselect: clear the selection (Escape); with nothing
	// selected, the keyboard focus.
	IntentUnselect
	// IntentFocusNext and IntentFocusPrev move the keyboard focus to the
	// next or previous node or pod in layout order (arrow right and left).
	IntentFocusNext
	IntentFocusPrev
	// IntentFocusNextNode and IntentFocusPrevNode move it to the next or
	// previous node card (arrow down and up).
	IntentFocusNextNode
	IntentFocusPrevNode
	// IntentOpen selects what has the keyboard focus (Enter): the host
	// opens its details.
	IntentOpen
	// IntentPinch: two fingers moved; their midpoint, now at X, Y, moved
	// by DX, DY and their spread grew by Factor. It pans and zooms, and
	// the touch that began as a tap is no longer one.
	IntentPinch
)

// FocusItem is one stop of the keyboard focus: a pod chip or node card
// and where the layout puts it (world units).
type FocusItem struct {
	Hit  Hit
	Rect Rect
}

// WheelFactor is the zoom of a wheel turn of dy (ebiten's Wheel: CSS
// pixels in a browser, where one mouse notch is about notch = 100; notches
// natively, notch = 1): 1.2× a notch, so a trackpad's small deltas zoom
// smoothly, and at most 2× (or ½×) whatever one event says.
func WheelFactor(dy, notch float64) float64 {
	return min(2, max(0.5, math.Pow(1.2, dy/notch)))
}

// dragSlop is how far (CSS pixels) the cursor moves with the button down
// before the press is a drag rather than a click.
const dragSlop = 4

// view is the canvas's view model: the camera, the selection, the hover
// and the state of a press. It applies intents and holds no picture, so it
// is tested natively; Game embeds it.
type view struct {
	cam     Camera
	autoFit bool
	// follow: each scene's camera frames what its event involves
	// (follow.go) instead of the whole cluster. Only the host turns it
	// on or off (its toggle shows the state); a pan or zoom by hand lasts
	// until the next event.
	follow   bool
	selected Hit
	hover    Hit
	// focus is what the arrow keys point at (drawn as a ring while the
	// canvas has the keyboard focus, focused).
	focus    Hit
	focused  bool
	cursorX  float64
	cursorY  float64
	pressed  bool
	dragging bool
	pressX   float64
	pressY   float64
	w, h     int
	scale    float64
	// presenter: large labels and a closer fit (presenter.go).
	presenter bool
	// legendExtra is how much taller than one row the legend is (device
	// pixels) on a canvas too narrow for its classes in one row: fitting
	// keeps clear of it as of the rest of the legend.
	legendExtra float64
}

// fitH is the canvas height fitting works with: the legend's extra rows
// sit at the bottom, so a band that much shorter leaves room for them.
func (v *view) fitH() float64 { return float64(v.h) - v.legendExtra }

// apply carries out one tick's intents in order, then finds what the
// cursor hovers. hit tells what is drawn at a world point; bounds is the
// layout's, for fitting; order lists the keyboard's stops in layout order
// (called only when a key moves the focus). It reports whether the person
// changed the selection (a click, Escape, Enter), which the host is told
// of.
func (v *view) apply(in []Intent, hit func(wx, wy float64) Hit, bounds Rect, order func() []FocusItem) (selectionChanged bool) {
	for _, it := range in {
		switch it.Kind {
		case IntentCursor:
			px, py := v.cursorX, v.cursorY
			v.cursorX, v.cursorY = it.X, it.Y
			if v.pressed && !v.dragging && math.Hypot(it.X-v.pressX, it.Y-v.pressY) > dragSlop*v.scale {
				v.dragging = true
			}
			if v.dragging && (it.X != px || it.Y != py) {
				v.cam = v.cam.Pan(it.X-px, it.Y-py)
				v.autoFit = false
			}
		case IntentZoomAt:
			v.zoom(it.X, it.Y, it.Factor)
		case IntentZoomCenter:
			v.zoom(float64(v.w)/2, float64(v.h)/2, it.Factor)
		case IntentPress:
			v.pressed, v.dragging, v.pressX, v.pressY = true, false, it.X, it.Y
		case IntentRelease:
			if !v.pressed {
				continue
			}
			v.pressed = false
			if !v.dragging {
				v.selected = hit(v.cam.ToWorld(it.X, it.Y))
				selectionChanged = true
				if v.selected.Kind != HitNone {
					v.focus = v.selected // the arrow keys go on from here
				}
			}
			v.dragging = false
		case IntentFit:
			v.autoFit = true
			v.fit(bounds)
		case IntentUnselect:
			if v.selected.Kind != HitNone {
				v.selected = Hit{}
				selectionChanged = true
			} else {
				v.focus = Hit{}
			}
		case IntentFocusNext, IntentFocusPrev, IntentFocusNextNode, IntentFocusPrevNode:
			if order != nil {
				v.moveFocus(order(), it.Kind)
			}
		case IntentPinch:
			v.pressed, v.dragging = false, false
			v.cam = v.cam.Pan(it.DX, it.DY)
			v.zoom(it.X, it.Y, it.Factor)
		case IntentOpen:
			if v.focus.Kind != HitNone && v.focus != v.selected {
				v.selected = v.focus
				selectionChanged = true
			}
		}
	}
	v.hover = hit(v.cam.ToWorld(v.cursorX, v.cursorY))
	return selectionChanged
}

// moveFocus steps the keyboard focus through items (layout order): to the
// next or previous stop, or to the next or previous node card. Without a
// focus it starts at the selection, else at the first stop (or the last,
// going back). The camera pans to show the stop if it is off screen.
func (v *view) moveFocus(items []FocusItem, k IntentKind) {
	if len(items) == 0 {
		return
	}
	cur := -1
	from := v.focus
	if from.Kind == HitNone {
		from = v.selected
	}
	for i := range items {
		if items[i].Hit == from {
			cur = i
			break
		}
	}
	next := cur
	back := k == IntentFocusPrev || k == IntentFocusPrevNode
	nodes := k == IntentFocusNextNode || k == IntentFocusPrevNode
	switch {
	case cur < 0 && back:
		next = len(items) - 1
	case cur < 0:
		next = 0
	default:
		step := 1
		if back {
			step = -1
		}
		for i := cur + step; i >= 0 && i < len(items); i += step {
			if !nodes || items[i].Hit.Kind == HitNode {
				next = i
				break
			}
		}
	}
	if cur < 0 && nodes {
		for next >= 0 && next < len(items) && items[next].Hit.Kind != HitNode {
			if back {
				next--
			} else {
				next++
			}
		}
		if next < 0 || next >= len(items) {
			return
		}
	}
	v.focus = items[next].Hit
	v.reveal(items[next].Rect)
}

// reveal pans the camera, keeping its zoom, to centre r when r is not
// wholly on screen (between the caption band and the legend).
func (v *view) reveal(r Rect) {
	if v.w == 0 || v.h == 0 {
		return
	}
	x0, y0 := v.cam.ToScreen(r.X, r.Y)
	x1, y1 := v.cam.ToScreen(r.X+r.W, r.Y+r.H)
	top, bottom := CaptionBandH*v.scale, v.fitH()-(LegendH+10)*v.scale
	if x0 >= 0 && y0 >= top && x1 <= float64(v.w) && y1 <= bottom {
		return
	}
	cx, cy := r.X+r.W/2, r.Y+r.H/2
	v.cam.X = cx - float64(v.w)/2/v.cam.Zoom
	v.cam.Y = cy - (top+bottom)/2/v.cam.Zoom
	v.autoFit = false
}

func (v *view) zoom(x, y, factor float64) {
	v.cam = v.cam.ZoomAt(x, y, factor, MinZoom*v.scale, MaxZoom*v.scale)
	v.autoFit = false
}

// fit frames bounds between the caption bar and the legend.
func (v *view) fit(bounds Rect) {
	if v.w == 0 || v.h == 0 {
		return
	}
	if v.presenter {
		v.cam = FitPresenter(bounds, float64(v.w), v.fitH(), v.scale)
		return
	}
	v.cam = FitCanvas(bounds, float64(v.w), v.fitH(), v.scale)
}

// viewKey is everything that changes the picture.
type viewKey struct {
	gen              int
	words            int
	theme            string
	cam              Camera
	selected, hover  Hit
	focus            Hit
	focused          bool
	cursorX, cursorY float64
	w, h             int
	scale            float64
	failure          string
	dragging         bool
	now              float64
	presenter        bool
}

// worldKeyOf is the part of a view key the world picture depends on: not
// the clock (chips that show it are live), the cursor or the banner.
func worldKeyOf(k viewKey) viewKey {
	k.now, k.cursorX, k.cursorY, k.failure, k.dragging = 0, 0, 0, "", false
	k.focus, k.focused = Hit{}, false // the focus ring is drawn over the picture
	return k
}

// key is the view's part of the picture's key, with the scene generation,
// theme, banner and clock. The clock counts only when it shows: in timed
// chips (timed) or a pod's tooltip; otherwise time passing repaints
// nothing (and the canvas is not read back).
func (v *view) key(gen int, theme, failure string, now float64, timed bool) viewKey {
	k := viewKey{gen: gen, theme: theme, cam: v.cam, selected: v.selected, hover: v.hover,
		focus: v.focus, focused: v.focused,
		w: v.w, h: v.h, scale: v.scale, dragging: v.dragging, failure: failure, presenter: v.presenter}
	if timed || v.hover.Kind == HitPod {
		k.now = now
	}
	if v.hover.Kind != HitNone {
		k.cursorX, k.cursorY = v.cursorX, v.cursorY // the tooltip follows the cursor
	}
	return k
}

// framePlan is what one frame repaints.
type framePlan struct {
	// paint is false when the screen already shows this view.
	paint bool
	// world: the world picture is out of date (the view changed, or
	// motion just ended and the chips it moved go into the picture);
	// worldKey is what it is to show, prevWorld what it shows (hadWorld
	// false: nothing yet), for updating it card by card.
	world               bool
	worldKey, prevWorld viewKey
	hadWorld            bool
	// settled: this is the paint after motion ended.
	settled bool
}

// frames remembers what the screen shows, to plan the next frame.
type frames struct {
	drawn     viewKey
	painted   bool
	animating bool
	world     viewKey
	worldSet  bool
}

// plan decides what the frame for view key repaints: nothing when the
// screen shows key, no chip moves and none did last frame; one more
// paint after motion ends with chips drawn live (it puts them into the
// world picture); the world picture when its part of the key changed.
func (f *frames) plan(key viewKey, busy bool, live int) framePlan {
	if f.painted && key == f.drawn && !busy && !f.animating {
		return framePlan{}
	}
	p := framePlan{paint: true, settled: f.animating && !busy && live > 0}
	f.drawn, f.painted, f.animating = key, true, busy
	p.worldKey, p.prevWorld, p.hadWorld = worldKeyOf(key), f.world, f.worldSet
	if !f.worldSet || p.worldKey != f.world || p.settled {
		p.world = true
		f.world, f.worldSet = p.worldKey, true
	}
	return p
}

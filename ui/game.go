//go:build js || ebiten

package ui

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// Callbacks are how the game reports to its host (the wasm bridge). They run
// on the game loop and must not block.
type Callbacks struct {
	// Select reports a click: a pod, a node, or nothing (HitNone).
	Select func(Hit)
	// Panic reports a recovered panic in Update or Draw with its stack.
	Panic func(msg string)
	// Drawn reports that scene generation gen is on screen, once per generation.
	Drawn func(gen int)
	// Focus reports that the arrow keys moved the keyboard focus to a pod
	// or node (HitNone: nothing), for the host to announce.
	Focus func(Hit)
}

// Game is the ebiten game: it shows the latest Scene given to SetScene.
type Game struct {
	cb Callbacks

	// mu guards the hand-over from the host, which calls SetScene and
	// SetTheme from JavaScript callbacks, to the game loop.
	mu          sync.Mutex
	nextScene   *Scene
	nextGen     int
	nextTheme   *Theme
	nextWords   *Words
	nextSelect  *Hit
	nextFollow  *bool
	nextNow     float64
	nextInstant *bool
	nextFit     bool
	failureText string

	// nextPresenter is a presenter-mode switch, also under mu (presenter.go).
	nextPresenter *bool
	// warmQueue are the warm-up's pictures still to draw (WarmDraw), and
	// warmDrawn counts those drawn.
	warmQueue []warmPicture
	warmDrawn int

	scene *Scene
	// now is the simulated time shown, in seconds: countdowns and backoffs
	// are read against it, so playback moves them without a new scene.
	now      float64
	gen      int
	drawnGen int
	layout   *Layout
	legend   []LegendEntry
	motion   *Motion
	theme    Theme
	// words are the fixed words drawn, in the reader's language; wordsGen
	// counts their changes, for the pictures drawn with them.
	words    Words
	wordsGen int
	fonts    *fonts
	paint    *painter
	// view is the camera, selection, hover and press (view.go): input
	// becomes intents it applies.
	view
	intents   []Intent
	touch     touches
	lastPanic string
	// frames plans each frame's repaint (view.go): Draw repaints only when
	// the view changes, which keeps an idle page from burning a CPU core.
	frames frames
	paints int
	// world is the picture of the queue lane, the regions, the cards and
	// the chips that hold still (see Draw), kept while the plan keeps it; live
	// are the chips left out of it (indices into layout.Chips), drawn over
	// it every frame.
	world    *ebiten.Image
	live     []int
	liveMask []bool // by chip index: in live
	// worldScene, worldLayout and worldLive are what the world picture
	// shows, for updating it card by card (updateWorld).
	worldScene  *Scene
	worldLayout *Layout
	// worldEventCard is eventCard when the picture was drawn.
	worldEventCard int
	worldLive      map[string]bool
	// onScreen: the screen holds the world picture with overPrev (the
	// boxes of what the last frame drew over it) on top, so the next frame
	// need restore only under those (see restore).
	onScreen              bool
	overPrev              []Rect
	overlayMemo           overlayText
	captionImg, legendImg cachedPicture
	// liveTimed: some chip shows the clock at this zoom (see liveChips).
	liveTimed bool
	// moving is scratch space for hitTest.
	moving []int
	// worldDirty are the areas of the world picture this frame's
	// card-by-card update redrew (screen pixels).
	worldDirty []Rect
	// clip is the part of the screen being redrawn (zero: all of it).
	clip Rect
	// cordonW is the width of the cordon label at size 11, for the mark at
	// zooms too small to draw the label.
	cordonW float64
	// prepared is a layout worked out ahead, while the page was idle, for
	// a scene expected next (see Prepare).
	prepared struct {
		scene  *Scene
		aspect float64
		layout *Layout
	}
}

// Paints returns how many frames Draw has repainted, for performance probes.
func (g *Game) Paints() int { return g.paints }

// Live is how many chips the last painted frame drew over the world
// picture (moving or showing the clock) instead of from it: for the tests.
func (g *Game) Live() int { return len(g.live) }

func (g *Game) viewKey() viewKey {
	g.mu.Lock()
	failure := g.failureText
	g.mu.Unlock()
	k := g.view.key(g.gen, g.theme.Name, failure, g.now, g.liveTimed)
	k.words = g.wordsGen
	return k
}

// NewGame returns a game with an empty scene.
func NewGame(cb Callbacks) (*Game, error) {
	f, err := loadFonts()
	if err != nil {
		return nil, fmt.Errorf("creating game: %w", err)
	}
	g := &Game{cb: cb, fonts: f, paint: newPainter(), motion: NewMotion(), theme: Light, words: English, view: view{autoFit: true, scale: 1}}
	g.cordonW = f.width(g.words.Cordoned, true, 11)
	g.apply(&Scene{}, 0)
	return g, nil
}

// SetScene replaces what the canvas shows; gen numbers the scene so that the
// host learns (through Callbacks.Drawn) when it is on screen.
func (g *Game) SetScene(s *Scene, gen int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.nextScene, g.nextGen = s, gen
}

// Prepare lays out a scene the host expects to show next, so that showing
// it (SetScene with the same *Scene) skips Arrange: playback calls it
// between frames for the next event, in slices (yield, see ArrangeYield;
// nil: at once). It reports false, preparing nothing, when yield said
// stop. Only the last prepared scene is kept.
func (g *Game) Prepare(s *Scene, yield func() bool) bool {
	aspect := g.aspect()
	l := ArrangeYield(s, aspect, yield)
	if l == nil {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.prepared.scene, g.prepared.aspect, g.prepared.layout = s, aspect, l
	return true
}

// SetClock sets the simulated time shown, in seconds.
func (g *Game) SetClock(now float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.nextNow = now
}

// SetTheme switches between the light and dark palettes.
func (g *Game) SetTheme(t Theme) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.nextTheme = &t
}

// SetWords sets the fixed words the canvas draws (the reader's language).
func (g *Game) SetWords(w Words) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.nextWords = &w
}

// Zoom is the camera's zoom in CSS pixels per world unit (the host
// calls it between frames, as Locate).
func (g *Game) Zoom() float64 {
	if g.scale <= 0 {
		return g.cam.Zoom
	}
	return g.cam.Zoom / g.scale
}

// SetFollow turns following the action on or off: on, each scene's camera
// frames what its event involves (FollowCamera); off, the whole cluster.
func (g *Game) SetFollow(on bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.nextFollow = &on
}

// followEvent frames the scene's event when following the action, and
// reports whether it did (false: following is off or the event involves
// nothing drawn, such as the t=0 view).
func (g *Game) followEvent() bool {
	if !g.follow || g.w == 0 || g.h == 0 || g.scene == nil {
		return false
	}
	nodes, pods := FollowRects(g.layout, g.scene.Event)
	g.planLegend()
	c, ok := FollowCamera(nodes, pods, float64(g.w), g.fitH(), g.scale)
	if ok {
		g.cam = c
	}
	return ok
}

// Fit frames the whole cluster again (a newly loaded scenario), whatever
// the person's zoom and pan were.
func (g *Game) Fit() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.nextFit = true
}

// SetReducedMotion makes state changes cut instead of glide and fade (the
// page's reduced-motion setting).
func (g *Game) SetReducedMotion(on bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.nextInstant = &on
}

// Select selects a pod or node from outside (for example the details panel).
func (g *Game) Select(h Hit) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.nextSelect = &h
}

// Locate returns where a pod chip or node card is on screen, in CSS pixels
// of the canvas. The host calls it between frames (wasm runs one goroutine
// at a time and the game loop only yields between Update and Draw).
func (g *Game) Locate(h Hit) (Rect, bool) {
	var r Rect
	found := false
	switch h.Kind {
	case HitPod:
		r, found = g.motion.Rect(h.Key)
		if !found {
			r, found = g.motion.Rect("ghost:" + h.Key)
		}
	case HitNode:
		for _, nb := range g.layout.Nodes {
			if nb.Node.Name == h.Key {
				r, found = nb.Rect, true
			}
		}
	}
	if !found {
		return Rect{}, false
	}
	sr := g.screenRect(r)
	return Rect{X: sr.X / g.scale, Y: sr.Y / g.scale, W: sr.W / g.scale, H: sr.H / g.scale}, true
}

// SetFailure shows (or, with "", hides) a banner over the canvas, for host
// errors the canvas should not hide.
func (g *Game) SetFailure(msg string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.failureText = msg
}

func (g *Game) apply(s *Scene, gen int) {
	g.scene, g.gen = s, gen
	g.legend = Legend(s.Classes)
	g.mu.Lock()
	pre := g.prepared
	g.prepared.scene, g.prepared.layout = nil, nil // a layout is used once: Motion keeps it
	g.mu.Unlock()
	if aspect := g.aspect(); pre.scene == s && pre.aspect == aspect {
		g.layout = pre.layout
	} else {
		g.layout = Arrange(s, aspect)
	}
	g.motion.Retarget(g.layout)
	if !g.followEvent() && g.autoFit {
		g.fit()
	}
	if !g.exists(g.selected) {
		g.selected = Hit{}
	}
	if !g.exists(g.hover) {
		g.hover = Hit{}
	}
	if !g.exists(g.focus) {
		g.focus = Hit{}
	}
}

func (g *Game) exists(h Hit) bool {
	switch h.Kind {
	case HitPod:
		_, ok := g.scene.FindPod(h.Key)
		return ok
	case HitNode:
		_, ok := g.scene.FindNode(h.Key)
		return ok
	}
	return true
}

// aspect is the shape the layout is arranged to: the band a fit fills.
func (g *Game) aspect() float64 {
	if g.w == 0 || g.h == 0 {
		return 16.0 / 9
	}
	return bandAspect(float64(g.w), float64(g.h), g.scale, g.view.presenter)
}

// fit frames the whole layout between the caption bar and the legend.
func (g *Game) fit() {
	g.planLegend()
	g.view.fit(g.layout.Bounds)
}

// planLegend tells the view how many rows the legend takes on this canvas,
// before it fits anything.
func (g *Game) planLegend() {
	if g.scene == nil || g.w == 0 {
		return
	}
	g.legendExtra = g.overlay().legend.extra(g.scale)
}

// recovered turns a panic in the game loop into a report and a banner, so a
// bug leaves a visible message instead of a dead tab.
func (g *Game) recovered(where string) {
	if r := recover(); r != nil {
		msg := fmt.Sprintf("panic in %s: %v\n%s", where, r, debug.Stack())
		if msg != g.lastPanic && g.cb.Panic != nil {
			g.cb.Panic(msg)
		}
		g.lastPanic = msg
		g.mu.Lock()
		g.failureText = fmt.Sprintf("internal error in %s: %v", where, r)
		g.mu.Unlock()
	}
}

// Update takes the host's hand-overs, handles input and advances animation.
func (g *Game) Update() error {
	defer g.recovered("Update")
	g.mu.Lock()
	next, gen, theme, sel, follow := g.nextScene, g.nextGen, g.nextTheme, g.nextSelect, g.nextFollow
	words := g.nextWords
	g.nextWords = nil
	presenter := g.nextPresenter
	g.now = g.nextNow
	if g.nextInstant != nil {
		g.motion.Instant = *g.nextInstant
	}
	fit := g.nextFit
	g.nextScene, g.nextTheme, g.nextSelect, g.nextFollow, g.nextPresenter, g.nextInstant, g.nextFit = nil, nil, nil, nil, nil, nil, false
	g.mu.Unlock()
	g.applyPresenter(presenter)
	if follow != nil {
		g.follow = *follow
		if !g.followEvent() && !g.follow {
			g.autoFit = true // the whole cluster, one click away
			g.fit()
		}
	}
	if theme != nil {
		g.theme = *theme
	}
	if words != nil {
		g.words, g.wordsGen = *words, g.wordsGen+1
		if err := g.fonts.cover(g.words); err != nil {
			g.SetFailure(err.Error())
		}
		g.cordonW = g.fonts.width(g.words.Cordoned, true, 11)
	}
	if next != nil {
		g.apply(next, gen)
	}
	if fit {
		g.autoFit = true
		g.fit()
	}
	if sel != nil && g.exists(*sel) {
		g.selected = *sel
		if sel.Kind != HitNone {
			g.focus = *sel
		}
	}
	g.input()
	g.motion.Step()
	return nil
}

// input turns this tick's mouse and keyboard into intents (readIntents)
// and has the view model apply them.
func (g *Game) input() {
	g.intents = g.touch.read(g.intents[:0])
	if len(g.intents) == 0 {
		g.intents = readIntents(g.intents)
	} else {
		g.intents = readKeys(g.intents)
	}
	g.focused = ebiten.IsFocused()
	focus := g.focus
	g.planLegend()
	if g.view.apply(g.intents, g.hitTest, g.layout.Bounds, g.layout.FocusOrder) {
		g.report()
	}
	if g.focus != focus && g.cb.Focus != nil {
		g.cb.Focus(g.focus)
	}
}

// readIntents reads what the person asks this tick, in Intent order.
func readIntents(in []Intent) []Intent {
	cx, cy := ebiten.CursorPosition()
	x, y := float64(cx), float64(cy)
	if _, dy := ebiten.Wheel(); dy != 0 {
		in = append(in, Intent{Kind: IntentZoomAt, X: x, Y: y, Factor: WheelFactor(dy, wheelNotch)})
	}
	switch {
	case inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft):
		in = append(in, Intent{Kind: IntentPress, X: x, Y: y})
	case !ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft):
		in = append(in, Intent{Kind: IntentRelease, X: x, Y: y})
	}
	in = append(in, Intent{Kind: IntentCursor, X: x, Y: y})
	return readKeys(in)
}

// readKeys reads this tick's keys.
func readKeys(in []Intent) []Intent {
	if inpututil.IsKeyJustPressed(ebiten.KeyF) || inpututil.IsKeyJustPressed(ebiten.Key0) {
		in = append(in, Intent{Kind: IntentFit})
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyEqual) || inpututil.IsKeyJustPressed(ebiten.KeyNumpadAdd) {
		in = append(in, Intent{Kind: IntentZoomCenter, Factor: 1.25})
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyMinus) || inpututil.IsKeyJustPressed(ebiten.KeyNumpadSubtract) {
		in = append(in, Intent{Kind: IntentZoomCenter, Factor: 0.8})
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyEscape) {
		in = append(in, Intent{Kind: IntentUnselect})
	}
	for _, k := range focusKeys {
		if inpututil.IsKeyJustPressed(k.key) {
			in = append(in, Intent{Kind: k.kind})
		}
	}
	return in
}

// touches turns fingers into intents: one finger taps (a press and a
// release in place selects) and drags (pans, past the drag threshold) as
// the mouse does; two pinch (zoom around their midpoint and pan with it).
// ebiten does not turn touches into mouse events.
type touches struct {
	ids, prev []ebiten.TouchID
	// last is where the last finger was, for the release.
	lastX, lastY float64
	// mid and spread are the two fingers' midpoint and distance last tick.
	midX, midY, spread float64
	pinching           bool
}

// read returns this tick's touch intents (none when no finger is down or
// just lifted: the mouse then speaks).
func (t *touches) read(in []Intent) []Intent {
	t.prev = append(t.prev[:0], t.ids...)
	t.ids = ebiten.AppendTouchIDs(t.ids[:0])
	switch len(t.ids) {
	case 0:
		if len(t.prev) == 0 {
			return in
		}
		// Lifted: a tap releases where the finger was (a pinch released
		// nothing: its press was dropped).
		t.pinching = false
		return append(in, Intent{Kind: IntentRelease, X: t.lastX, Y: t.lastY}, Intent{Kind: IntentCursor, X: t.lastX, Y: t.lastY})
	case 1:
		x, y := ebiten.TouchPosition(t.ids[0])
		t.lastX, t.lastY = float64(x), float64(y)
		if len(t.prev) == 0 {
			in = append(in, Intent{Kind: IntentPress, X: t.lastX, Y: t.lastY})
		}
		t.pinching = false
		return append(in, Intent{Kind: IntentCursor, X: t.lastX, Y: t.lastY})
	}
	ax, ay := ebiten.TouchPosition(t.ids[0])
	bx, by := ebiten.TouchPosition(t.ids[1])
	mx, my := float64(ax+bx)/2, float64(ay+by)/2
	spread := math.Hypot(float64(ax-bx), float64(ay-by))
	if t.pinching && t.spread > 0 && spread > 0 {
		in = append(in, Intent{Kind: IntentPinch, X: mx, Y: my, DX: mx - t.midX, DY: my - t.midY, Factor: spread / t.spread})
	} else {
		in = append(in, Intent{Kind: IntentPinch, X: mx, Y: my, Factor: 1})
	}
	t.pinching, t.midX, t.midY, t.spread = true, mx, my, spread
	t.lastX, t.lastY = mx, my
	return in
}

// wheelNotch is ebiten.Wheel's delta for one mouse notch: CSS pixels in a
// browser (stage.ts turns line and page deltas into pixels), notches
// natively.
var wheelNotch = map[bool]float64{true: 100, false: 1}[runtime.GOOS == "js"]

// focusKeys move the keyboard focus over the cards and chips.
var focusKeys = []struct {
	key  ebiten.Key
	kind IntentKind
}{
	{ebiten.KeyArrowRight, IntentFocusNext}, {ebiten.KeyArrowLeft, IntentFocusPrev},
	{ebiten.KeyArrowDown, IntentFocusNextNode}, {ebiten.KeyArrowUp, IntentFocusPrevNode},
	{ebiten.KeyEnter, IntentOpen}, {ebiten.KeyNumpadEnter, IntentOpen},
}

// hitTest is Layout.HitTest at the chips' drawn places.
func (g *Game) hitTest(wx, wy float64) Hit {
	var ok bool
	if g.moving, ok = g.motion.Moving(g.layout, g.moving[:0]); ok {
		return g.layout.HitTestMoving(wx, wy, g.moving, g.drawnChip)
	}
	return g.layout.HitTest(wx, wy, g.drawnChip)
}

// drawnChip is where chip i of the layout is drawn now.
func (g *Game) drawnChip(i int) Rect {
	r, _ := g.motion.ChipAt(g.layout, i)
	return r
}

func (g *Game) report() {
	if g.cb.Select != nil {
		g.cb.Select(g.selected)
	}
}

// Layout makes the canvas as many device pixels as the page has, so text is
// sharp on high-DPI screens and projectors.
func (g *Game) Layout(outsideW, outsideH int) (int, int) {
	s := ebiten.Monitor().DeviceScaleFactor()
	if s <= 0 {
		s = 1
	}
	w, h := int(math.Ceil(float64(outsideW)*s)), int(math.Ceil(float64(outsideH)*s))
	if w != g.w || h != g.h || s != g.scale {
		g.w, g.h, g.scale = w, h, s
		if g.layout != nil {
			g.layout = Arrange(g.scene, g.aspect())
			g.motion.Retarget(g.layout)
		}
		if g.layout != nil && !g.followEvent() && g.autoFit {
			g.fit()
		}
	}
	return w, h
}

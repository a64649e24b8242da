//go:build js || ebiten

package ui

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// Draw paints the current layout; it decides nothing.
func (g *Game) Draw(screen *ebiten.Image) {
	defer g.recovered("Draw")
	g.drawWarm()
	// The plan (view.go) skips a frame the screen already shows (it is
	// kept between frames: SetScreenClearedEveryFrame(false)), and paints
	// once more after motion ends: that shows the settled positions and
	// puts the chips that moved into the world picture (drawn live over
	// it every frame until then, after a seek that moved thousands of them
	// the next event's frame had to redraw the whole picture).
	plan := g.frames.plan(g.viewKey(), g.motion.Busy(), len(g.live))
	if !plan.paint {
		return
	}
	g.paints++
	z := g.cam.Zoom
	g.paint.m.reset() // nothing left over from a frame that panicked
	g.paint.recording = false

	// Most frames only move a few chips (playback glides each placed pod for
	// MoveTicks): everything else is redrawn only when the view changes,
	// into the world picture, which each frame copies (one textured quad;
	// a software rasteriser pays for every shape and pixel drawn).
	if g.world == nil || g.world.Bounds().Dx() != g.w || g.world.Bounds().Dy() != g.h {
		if g.world != nil {
			g.world.Deallocate()
		}
		g.world = ebiten.NewImage(max(g.w, 1), max(g.h, 1))
		plan.world, plan.hadWorld = true, false
	}
	fresh := !g.onScreen
	g.worldDirty = g.worldDirty[:0]
	if plan.world {
		// Updated card by card, the picture changed only in worldDirty,
		// which restore copies with the rest.
		if !plan.hadWorld || !g.updateWorld(plan.worldKey, plan.prevWorld) {
			g.drawWorld(g.world)
			fresh = true
		}
		g.worldScene, g.worldLayout = g.scene, g.layout
		g.worldEventCard = g.eventCard()
	}
	g.restore(screen, fresh)
	g.drawOver(screen, z)
	g.paint.flush()

	if g.drawnGen != g.gen {
		g.drawnGen = g.gen
		if g.cb.Drawn != nil {
			g.cb.Drawn(g.gen)
		}
	}
}

// drawOver draws what moves or changes from frame to frame over the world
// picture: the live chips, the fading ones and the overlays.
func (g *Game) drawOver(dst *ebiten.Image, z float64) {
	for _, i := range g.live {
		g.drawChip(dst, i, z)
	}
	for _, lv := range g.motion.Leaving() {
		g.drawLeaving(dst, lv, z)
	}
	g.drawSpread(dst)
	g.drawClearedNomination(dst)
	g.drawCaption(dst)
	g.drawLegend(dst)
	g.drawKeyFocus(dst)
	g.drawTooltip(dst)
	g.drawBanner(dst)
}

// drawKeyFocus rings what the arrow keys point at while the canvas has the
// keyboard focus (a ring in the text colour around one in the selection
// colour, visible on every chip colour), or the canvas's edge when they
// point at nothing yet.
func (g *Game) drawKeyFocus(dst *ebiten.Image) {
	if !g.focused {
		return
	}
	t, z, s := g.theme, g.cam.Zoom, g.scale
	var r Rect
	found := false
	switch g.focus.Kind {
	case HitPod:
		r, found = g.motion.Rect(g.focus.Key)
	case HitNode:
		for _, nb := range g.layout.Nodes {
			if nb.Node.Name == g.focus.Key {
				r, found = nb.Rect, true
				break
			}
		}
	}
	if !found {
		edge := Rect{X: 2 * s, Y: 2 * s, W: float64(g.w) - 4*s, H: float64(g.h) - 4*s}
		g.paint.strokeRound(dst, edge, 6*s, 3*s, t.Selection)
		return
	}
	sr := g.screenRect(r)
	pad := max(3*s, 3*z)
	ring := Rect{X: sr.X - pad, Y: sr.Y - pad, W: sr.W + 2*pad, H: sr.H + 2*pad}
	g.paint.strokeRound(dst, Rect{X: ring.X - 2*s, Y: ring.Y - 2*s, W: ring.W + 4*s, H: ring.H + 4*s}, 10*z, 2*s, t.Text)
	g.paint.strokeRound(dst, ring, 9*z, 3*s, t.Selection)
}

// restore puts the world picture back on the screen under what last frame
// drew over it and what this frame will draw: only those areas when the
// screen still holds the same picture (fresh false; the screen is kept
// between frames), else all of it. A software rasteriser pays for every
// pixel copied.
func (g *Game) restore(screen *ebiten.Image, fresh bool) {
	if len(g.live) > 8*maxDirtyRects {
		// Hundreds of chips moving over the cards (a seek): DirtyRects
		// would give up on their boxes anyway, so no dry pass to learn
		// them; the next frame copies the whole picture too.
		g.overPrev, g.onScreen = g.overPrev[:0], false
		screen.DrawImage(g.world, &ebiten.DrawImageOptions{Blend: ebiten.BlendCopy})
		return
	}
	g.paint.recording, g.paint.rec = true, g.paint.rec[:0]
	g.drawOver(screen, g.cam.Zoom)
	g.paint.recording = false
	cur := Absorb(g.paint.rec, g.screenRect(g.layout.Queue))
	g.paint.rec = cur
	rs, full := DirtyRects(g.overPrev, append(cur, g.worldDirty...), g.w, g.h)
	g.overPrev = append(g.overPrev[:0], cur...)
	g.onScreen = true
	if fresh || full {
		screen.DrawImage(g.world, &ebiten.DrawImageOptions{Blend: ebiten.BlendCopy})
		return
	}
	for _, r := range rs {
		op := &ebiten.DrawImageOptions{Blend: ebiten.BlendCopy}
		op.GeoM.Translate(float64(r.Min.X), float64(r.Min.Y))
		screen.DrawImage(g.world.SubImage(r).(*ebiten.Image), op)
	}
}

// text draws s over the shapes painted so far (see fonts.draw).
func (g *Game) text(dst *ebiten.Image, s string, bold bool, size, x, y float64, clr color.Color, align text.Align) {
	if size < minTextPx || s == "" {
		return
	}
	if g.paint.recording {
		g.paint.rec = append(g.paint.rec, textBox(x, y, size, g.fonts.width(s, bold, size), align))
		return
	}
	g.paint.flush()
	g.fonts.draw(dst, s, bold, size, x, y, clr, align)
}

// drawWorld draws the queue lane, the regions, the cards and the chips
// that are settled and not timed; the others are left to every frame's
// live list.
func (g *Game) drawWorld(dst *ebiten.Image) {
	dst.Fill(g.theme.Background)
	g.worldLive = g.liveChips()
	g.drawWorldLayers(dst)
}

// drawWorldLayers draws the world picture's content over its background:
// what reaches into the clip (all of the screen unless redrawWorldIn set
// one), leaving out the live chips.
func (g *Game) drawWorldLayers(dst *ebiten.Image) {
	z := g.cam.Zoom
	if g.visible(g.screenRect(g.layout.Queue)) {
		g.drawQueue(dst)
	}
	for _, zb := range g.layout.Zones {
		g.drawZone(dst, zb)
	}
	for _, nb := range g.layout.Nodes {
		g.drawNode(dst, nb)
	}
	// Chips lie inside the lane or their card: only the chips of those
	// that reach into the clip are looked at (a card-by-card update
	// redraws dozens of cards of hundreds).
	g.drawStillChips(dst, 0, g.layout.QueueChips, z)
	for _, nb := range g.layout.Nodes {
		if nb.EndChip > nb.FirstChip && g.visible(g.screenRect(nb.Rect)) {
			g.drawStillChips(dst, nb.FirstChip, nb.EndChip, z)
		}
	}
	g.paint.flush()
}

// drawStillChips draws chips lo to hi-1 but the live ones.
func (g *Game) drawStillChips(dst *ebiten.Image, lo, hi int, z float64) {
	for i := lo; i < hi; i++ {
		if !g.liveMask[i] {
			g.drawChip(dst, i, z)
		}
	}
}

// liveChips lists the chips to leave out of the world picture (indices
// into layout.Chips) and returns their keys.
func (g *Game) liveChips() map[string]bool {
	g.live = g.live[:0]
	g.liveMask = append(g.liveMask[:0], make([]bool, len(g.layout.Chips))...)
	keys := map[string]bool{}
	// At this zoom, does chip text show (ChipSideText, see drawChip)?
	text := 10.5*g.cam.Zoom >= minTextPx
	g.liveTimed = false
	for i, c := range g.layout.Chips {
		timed := c.TimedAt(text)
		if timed || !g.motion.SettledAt(g.layout, i) {
			g.live = append(g.live, i)
			g.liveMask[i] = true
			keys[c.Key] = true
		}
		g.liveTimed = g.liveTimed || timed
	}
	return keys
}

// maxDirtyCards is how many changed cards are redrawn one by one into the
// world picture before redrawing it whole is cheaper.
const maxDirtyCards = 48

// updateWorld redraws into the world picture only what changed since it
// was drawn, when only the scene did and its layout kept its geometry: the
// queue lane and the cards whose look changed (content, outline, the
// event's chip, chips starting or ending a move). It reports false when
// the picture must be redrawn whole.
func (g *Game) updateWorld(wk, prev viewKey) bool {
	prev.gen = wk.gen
	if g.worldScene == nil || prev != wk || !SameGeometry(g.worldLayout, g.layout) {
		return false
	}
	if g.worldScene.Search != g.scene.Search {
		return false // the search's veils change cards all over
	}
	wasLive := g.worldLive
	nowLive := g.liveChips()
	// The chips that joined or left the live ones (a few of thousands):
	// only cards holding one of them need looking up chip by chip.
	flipped := map[string]bool{}
	for k := range wasLive {
		if !nowLive[k] {
			flipped[k] = true
		}
	}
	for k := range nowLive {
		if !wasLive[k] {
			flipped[k] = true
		}
	}
	z := g.cam.Zoom
	oldEv, newEv := g.worldEventCard, g.eventCard()
	dirty := []Rect{g.screenRect(g.layout.Queue)}
	for i, nb := range g.layout.Nodes {
		old := g.worldLayout.Nodes[i].Node
		ob, ow := g.cardBorder(g.worldScene, old)
		nb2, nw := g.cardBorder(g.scene, nb.Node)
		if SameCard(old, nb.Node) && ob == nb2 && ow == nw &&
			(i == oldEv) == (i == newEv) && !liveChanged(g.layout, nb, flipped) {
			continue
		}
		if len(dirty) > maxDirtyCards {
			g.worldLive = nowLive
			return false
		}
		// The outline is drawn centred on the edge, at most 3 units wide.
		r := g.screenRect(nb.Rect)
		m := 1.5*z + 1
		dirty = append(dirty, Rect{X: r.X - m, Y: r.Y - m, W: r.W + 2*m, H: r.H + 2*m})
	}
	for _, r := range dirty {
		g.redrawWorldIn(r)
	}
	g.worldLive = nowLive
	return true
}

// eventCard is the index in layout.Nodes of the card showing the chip of
// the scene's event pod (drawn with the focus ring), -1 if none: the chip
// found through its tween, the card by its chip range.
func (g *Game) eventCard() int {
	e := g.scene.Event
	if e == nil || e.Pod == "" {
		return -1
	}
	i, ok := g.motion.Index(g.layout, e.Pod)
	if !ok || i < g.layout.QueueChips {
		return -1
	}
	n := sort.Search(len(g.layout.Nodes), func(n int) bool { return g.layout.Nodes[n].EndChip > i })
	if n == len(g.layout.Nodes) || g.layout.Nodes[n].FirstChip > i {
		return -1
	}
	return n
}

// liveChanged reports whether any chip of the card (its pods' and ghosts'
// chips in l, keyed as liveChips keys them) joined or left the live chips
// (flipped).
func liveChanged(l *Layout, nb NodeBox, flipped map[string]bool) bool {
	if len(flipped) == 0 {
		return false
	}
	for i := nb.FirstChip; i < nb.EndChip; i++ {
		if flipped[l.Chips[i].Key] {
			return true
		}
	}
	return false
}

// redrawWorldIn redraws the world picture inside r (screen pixels): the
// background, then every region, card and still chip that reaches into
// it, in the usual order, clipped to it.
func (g *Game) redrawWorldIn(r Rect) {
	px := image.Rect(int(math.Floor(r.X)), int(math.Floor(r.Y)), int(math.Ceil(r.X+r.W)), int(math.Ceil(r.Y+r.H))).Intersect(g.world.Bounds())
	if px.Empty() {
		return
	}
	dst := g.world.SubImage(px).(*ebiten.Image)
	g.clip = Rect{X: float64(px.Min.X), Y: float64(px.Min.Y), W: float64(px.Dx()), H: float64(px.Dy())}
	g.worldDirty = append(g.worldDirty, g.clip)
	defer func() { g.clip = Rect{} }()
	dst.Fill(g.theme.Background)
	g.drawWorldLayers(dst)
}

func (g *Game) screenRect(r Rect) Rect {
	x, y := g.cam.ToScreen(r.X, r.Y)
	return Rect{X: x, Y: y, W: r.W * g.cam.Zoom, H: r.H * g.cam.Zoom}
}

func (g *Game) drawQueue(dst *ebiten.Image) {
	t, z := g.theme, g.cam.Zoom
	r := g.screenRect(g.layout.Queue)
	g.paint.fillRound(dst, r, 10*z, t.Queue)
	g.paint.strokeRound(dst, r, 10*z, 1*z, t.ZoneBorder)
	title := QueueTitle(&g.words, len(g.scene.Pending))
	g.text(dst, title, true, 14*z, r.X+12*z, r.Y+QueueTitleH*z/2, t.ZoneText, text.AlignStart)
	for i, sec := range g.layout.Sections {
		sr := g.screenRect(sec.Rect)
		if i > 0 {
			g.paint.fillRound(dst, Rect{X: sr.X + 10*z, Y: sr.Y, W: sr.W - 20*z, H: 1 * z}, 0, t.ZoneBorder)
		}
		label := QueueLabel(sec.Queue)
		g.text(dst, label, true, 12.5*z, sr.X+12*z, sr.Y+(ChipGap/2+ChipH/2)*z, t.Text, text.AlignStart)
		g.text(dst, fmt.Sprint(sec.Count), false, 11.5*z, sr.X+12*z, sr.Y+(ChipGap/2+ChipH/2+15)*z, t.Muted, text.AlignStart)
	}
}

func (g *Game) drawZone(dst *ebiten.Image, zb ZoneBox) {
	t, z := g.theme, g.cam.Zoom
	r := g.screenRect(zb.Rect)
	if !g.visible(r) {
		return
	}
	g.paint.fillRound(dst, r, 12*z, t.Zone)
	g.paint.strokeRound(dst, r, 12*z, 1*z, t.ZoneBorder)
	name := ZoneTitle(&g.words, zb.Name, g.scene.ZoneKey)
	g.text(dst, g.fonts.fit(name, true, 15*z, r.W-24*z), true, 15*z, r.X+ZonePad*z, r.Y+ZoneTitleH*z/2+2*z, t.ZoneText, text.AlignStart)
}

func (g *Game) drawNode(dst *ebiten.Image, nb NodeBox) {
	t, z := g.theme, g.cam.Zoom
	n := nb.Node
	r := g.screenRect(nb.Rect)
	if !g.visible(r) {
		return
	}
	g.paint.fillRound(dst, r, 8*z, t.Card)
	border, width := g.cardBorder(g.scene, n)
	g.paint.strokeRound(dst, r, 8*z, width*z, border)

	x0 := r.X + CardPad*z
	inner := (CardW - 2*CardPad) * z
	y := r.Y + CardPad*z + CardHeaderH*z/2
	ns := g.nodeFont(z)
	g.text(dst, g.fonts.fit(n.Name, true, ns, inner), true, ns, x0, y, t.Text, text.AlignStart)

	if nb.TaintLine() {
		y = r.Y + (CardPad+CardHeaderH+CardTaintH/2)*z
		x := x0
		if n.Unschedulable {
			// The mark shows at any zoom; its width is the label's, measured
			// once at size 11 when the label is too small to draw.
			label := g.words.Cordoned
			w := g.cordonW * z
			if 11*z >= minTextPx {
				w = g.fonts.width(label, true, 11*z)
			}
			w += 10 * z
			g.paint.fillRound(dst, Rect{X: x, Y: y - 8*z, W: w, H: 16 * z}, 4*z, t.Cordon)
			g.text(dst, label, true, 11*z, x+5*z, y, TextOn(t.Cordon), text.AlignStart)
			x += w + 6*z
		}
		if len(n.Taints) > 0 && 12*z >= minTextPx {
			parts := make([]string, len(n.Taints))
			for i, tn := range n.Taints {
				parts[i] = tn.String()
			}
			icon := 11 * z
			g.paint.warningIcon(dst, x, y, icon, t.Taint, t.Card)
			x += icon + 4*z
			s := strings.Join(parts, ", ")
			g.text(dst, g.fonts.fit(s, false, 12*z, x0+inner-x), false, 12*z, x, y, t.Taint, text.AlignStart)
		}
	}

	g.drawBars(dst, nb, r, x0, 11.5*z >= minTextPx)
	g.searchVeil(dst, r, n)
}

// cardBorder is the colour and width of a card's outline in scene s.
func (g *Game) cardBorder(s *Scene, n *Node) (color.RGBA, float64) {
	t := g.theme
	switch {
	case g.selected.Kind == HitNode && g.selected.Key == n.Name:
		return t.Selection, 3
	case g.hover.Kind == HitNode && g.hover.Key == n.Name:
		return t.Selection, 1.5
	case s.Event != nil && s.Event.Node == n.Name:
		return t.Focus, 2.5
	case len(n.Ghosts) > 0:
		return t.Nominated, 2
	case n.Unschedulable:
		return t.Cordon, 1.5
	}
	return t.CardBorder, 1
}

// drawBars draws a card's three resource bars, with their labels and
// figures when withText.
func (g *Game) drawBars(dst *ebiten.Image, nb NodeBox, r Rect, x0 float64, withText bool) {
	t, z, n := g.theme, g.cam.Zoom, nb.Node
	req := n.Requested()
	used := [barRows]int64{req.MilliCPU, req.Memory, req.Pods}
	capacity := [barRows]int64{n.Allocatable.MilliCPU, n.Allocatable.Memory, n.Allocatable.Pods}
	for i := range barRows {
		br := g.screenRect(nb.BarRect(i))
		cy := br.Y + br.H/2
		g.paint.fillRound(dst, br, br.H/2, t.BarTrack)
		f := Fraction(used[i], capacity[i])
		fill := t.BarFill
		if f > 1 {
			fill, f = t.BarOver, 1
		}
		if f > 0 {
			w := br.W * f
			if w < br.H {
				w = br.H // a sliver still reads as a rounded bar
			}
			g.paint.fillRound(dst, Rect{X: br.X, Y: br.Y, W: w, H: br.H}, br.H/2, fill)
		}
		if withText {
			label, figures := barText(i, used[i], capacity[i])
			g.text(dst, label, false, 11.5*z, x0, cy, t.Muted, text.AlignStart)
			g.text(dst, figures, false, 11.5*z, r.X+r.W-CardPad*z, cy, t.Text, text.AlignEnd)
		}
	}
}

func (g *Game) drawChip(dst *ebiten.Image, i int, z float64) {
	t := g.theme
	c := g.layout.Chips[i]
	key := strings.TrimPrefix(c.Key, "ghost:") // the pod's key, without building it per chip and frame
	wr, a := g.motion.ChipAt(g.layout, i)
	r := g.screenRect(wr)
	if !g.visible(r) {
		return
	}
	bg := PodColor(g.legend, c.Pod)
	term := c.Pod.Termination
	state := ChipRunning
	switch {
	case c.Pod.Ghost:
		state = ChipGhost
	case c.Pending:
		state = ChipPending
	case c.Pod.Finished():
		state = ChipFinished
	case term != nil:
		state = ChipTerminating
	}
	fill := ChipFill(t, bg, state)
	g.paint.fillRound(dst, r, 6*z, withAlpha(fill, a))
	switch state {
	case ChipGhost:
		// The place preemption reserves: an outline in the nominated colour.
		g.paint.strokeRound(dst, r, 6*z, 1.5*z, withAlpha(t.Nominated, a))
	case ChipPending:
		// Pending pods are drawn as outlined chips: not running anywhere yet.
		g.paint.strokeRound(dst, r, 6*z, 2*z, withAlpha(bg, a))
	case ChipFinished:
		// Finished: still listed on the node, holding nothing.
		g.paint.strokeRound(dst, r, 6*z, 1*z, withAlpha(mix(t.Card, t.Muted, 0.5), a))
	case ChipTerminating:
		g.paint.strokeRound(dst, r, 6*z, 2*z, withAlpha(t.Victim, a))
		// The grace period runs out along the bottom edge.
		f := term.Remaining(g.now)
		g.paint.fillRound(dst, Rect{X: r.X + 3*z, Y: r.Y + r.H - 5*z, W: (r.W - 6*z) * f, H: 3 * z}, 1.5*z, t.Victim)
	}
	switch {
	case g.selected.Kind == HitPod && g.selected.Key == key:
		g.paint.strokeRound(dst, Rect{X: r.X - 2*z, Y: r.Y - 2*z, W: r.W + 4*z, H: r.H + 4*z}, 8*z, 2.5*z, t.Selection)
	case g.hover.Kind == HitPod && g.hover.Key == key:
		g.paint.strokeRound(dst, r, 6*z, 1.5*z, t.Selection)
	case g.scene.Event != nil && g.scene.Event.Pod == key && !c.Pod.Ghost:
		g.paint.strokeRound(dst, Rect{X: r.X - 2*z, Y: r.Y - 2*z, W: r.W + 4*z, H: r.H + 4*z}, 8*z, 2*z, t.Focus)
	}
	if 12*z < minTextPx {
		return // no text is readable on a chip this small
	}
	fg, secondary, alarm := ChipText(t, fill, state)
	lineY := r.Y + ChipH*z/2
	side := ChipSideText(c.Pod, c.Pending, g.now, &g.words)
	sideW := 0.0
	if side != "" && 10.5*z >= minTextPx { // too small to draw: not measured either
		sideW = g.fonts.width(side, false, 10.5*z) + 6*z
		clr := secondary
		if term != nil {
			clr = alarm
		}
		g.text(dst, side, false, 10.5*z, r.X+r.W-5*z, lineY, withAlpha(clr, a), text.AlignEnd)
	}
	ps := g.podFont(z)
	name := g.fonts.fit(c.Pod.Name, false, ps, r.W-12*z-sideW)
	g.text(dst, name, false, ps, r.X+6*z, lineY, withAlpha(fg, a), text.AlignStart)
	if c.Pending && c.Pod.Reason != "" && r.H > (ChipH+4)*z {
		reason := g.fonts.fit(c.Pod.Reason, false, 10*z, r.W-12*z)
		g.text(dst, reason, false, 10*z, r.X+6*z, r.Y+(ChipH+ReasonH/2-4)*z, withAlpha(secondary, a), text.AlignStart)
	}
}

// drawLeaving draws a chip fading out where its pod was.
func (g *Game) drawLeaving(dst *ebiten.Image, lv Leaving, z float64) {
	t := g.theme
	r := g.screenRect(lv.Rect)
	if !g.visible(r) {
		return
	}
	clr := t.Victim
	if lv.Pod.Ghost || lv.Pending {
		clr = t.Muted
	}
	g.paint.fillRound(dst, r, 6*z, withAlpha(mix(t.Card, clr, 0.25), lv.Alpha))
	g.paint.strokeRound(dst, r, 6*z, 1.5*z, withAlpha(clr, lv.Alpha))
	ps := g.podFont(z)
	name := g.fonts.fit(lv.Pod.Name, false, ps, r.W-12*z)
	g.text(dst, name, false, ps, r.X+6*z, r.Y+r.H/2, withAlpha(t.Muted, lv.Alpha), text.AlignStart)
}

// visible reports whether a screen rectangle is on screen at all: large
// clusters draw only what the camera shows.
func (g *Game) visible(r Rect) bool {
	c := g.clip
	if c.W == 0 && c.H == 0 {
		c = Rect{W: float64(g.w), H: float64(g.h)}
	}
	return r.X+r.W >= c.X && r.Y+r.H >= c.Y && r.X <= c.X+c.W && r.Y <= c.Y+c.H
}

// drawSpread writes the selected pod's topology spread counts on the
// regions (constraints on the grouping key) or on the cards (others).
func (g *Game) drawSpread(dst *ebiten.Image) {
	t, z := g.theme, g.cam.Zoom
	for ci, c := range g.scene.Spread {
		badge := func(x, y float64, d SpreadDomain) {
			label := d.Label(&g.words)
			icon := 10 * z
			w := g.fonts.width(label, true, 11.5*z) + icon + 17*z
			clr := t.Nominated
			if !d.Within(c.MaxSkew) {
				clr = t.Victim
			}
			g.paint.fillRound(dst, Rect{X: x - w, Y: y - 9*z, W: w, H: 18 * z}, 9*z, clr)
			g.text(dst, label, true, 11.5*z, x-icon-11*z, y, TextOn(clr), text.AlignEnd)
			if d.Within(c.MaxSkew) {
				g.paint.checkIcon(dst, x-icon-6*z, y, icon, TextOn(clr))
			} else {
				g.paint.crossIcon(dst, x-icon-6*z, y, icon, TextOn(clr))
			}
		}
		if c.Key == g.scene.ZoneKey {
			for _, zb := range g.layout.Zones {
				if d, ok := c.Domain(zb.Name); ok && zb.Name != "" {
					r := g.screenRect(zb.Rect)
					badge(r.X+r.W-10*z, r.Y+(ZoneTitleH/2+2)*z+float64(ci)*20*z, d)
				}
			}
			continue
		}
		for _, nb := range g.layout.Nodes {
			name, ok := c.NodeDomain[nb.Node.Name]
			if !ok {
				continue
			}
			if d, ok := c.Domain(name); ok {
				r := g.screenRect(nb.Rect)
				badge(r.X+r.W-8*z, r.Y-2*z+float64(ci)*20*z, d)
			}
		}
	}
}

// drawCaption tells the event just played, on top of the canvas.
func (g *Game) drawCaption(dst *ebiten.Image) {
	s := g.scale
	box := Rect{X: 12 * s, Y: 8 * s, W: float64(g.w) - 24*s, H: 26 * s}
	g.drawCached(dst, &g.captionImg, box, func(img *ebiten.Image, b Rect) {
		t := g.theme
		g.paint.fillRound(img, b, 6*s, withAlpha(t.Card, 0.94))
		g.paint.strokeRound(img, b, 6*s, 1*s, t.Focus)
		g.text(img, g.overlay().caption, false, 12.5*s, b.X+10*s, b.Y+b.H/2, t.Text, text.AlignStart)
	})
}

// cachedPicture is an overlay drawn once into an image of its own and
// copied each frame: the caption and the legend change with the scene,
// while their text costs more to draw than the rest of a moving frame.
type cachedPicture struct {
	img *ebiten.Image
	key overlayKey
}

// overlayKey is what a cached overlay's picture depends on.
type overlayKey struct {
	gen   int
	words int
	theme string
	box   Rect
	scale float64
}

// drawCached draws box's content (draw, given the image and where box lies
// in it) into c's image when the scene, theme or size changed, then copies
// the image to dst; pixels land where drawing straight into dst puts them
// (the image keeps box's position within a pixel).
func (g *Game) drawCached(dst *ebiten.Image, c *cachedPicture, box Rect, draw func(img *ebiten.Image, b Rect)) {
	if g.paint.recording {
		g.paint.rec = append(g.paint.rec, box)
		return
	}
	const pad = 2 // strokes reach past the box
	ox, oy := math.Floor(box.X)-pad, math.Floor(box.Y)-pad
	w, h := int(math.Ceil(box.X+box.W))+pad-int(ox), int(math.Ceil(box.Y+box.H))+pad-int(oy)
	key := overlayKey{gen: g.gen, words: g.wordsGen, theme: g.theme.Name, box: box, scale: g.scale}
	if c.img == nil || c.key != key {
		if c.img == nil || c.img.Bounds().Dx() != w || c.img.Bounds().Dy() != h {
			if c.img != nil {
				c.img.Deallocate()
			}
			c.img = ebiten.NewImage(max(w, 1), max(h, 1))
		} else {
			c.img.Clear()
		}
		draw(c.img, Rect{X: box.X - ox, Y: box.Y - oy, W: box.W, H: box.H})
		g.paint.flush()
		c.key = key
	}
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(ox, oy)
	g.paint.flush() // keep the order: shapes batched so far go first
	dst.DrawImage(c.img, op)
}

// overlayText is the caption and legend text as drawn, with its widths:
// it changes with the scene and the canvas size, not from frame to frame,
// and fitting and measuring text is most of what drawing them costs.
type overlayText struct {
	gen     int
	words   int
	w, s    float64
	caption string
	titleW  float64
	labels  []string
	widths  []float64
	colors  []color.Color
	legend  legendPlan
}

const legendText = 12.5

func (g *Game) overlay() *overlayText {
	o, s := &g.overlayMemo, g.scale
	if o.gen == g.gen && o.words == g.wordsGen && o.w == float64(g.w) && o.s == s && o.labels != nil {
		return o
	}
	*o = overlayText{gen: g.gen, words: g.wordsGen, w: float64(g.w), s: s}
	o.caption = g.fonts.fit(CaptionAt(g.scene, g.gen, &g.words), false, 12.5*s, float64(g.w)-44*s)
	o.titleW = g.fonts.width(g.words.Legend, true, legendText*s)
	o.labels = LegendLabels(&g.words, g.legend)
	for _, e := range g.legend {
		o.colors = append(o.colors, e.Color)
	}
	o.colors = append(o.colors, NoClassColor)
	maxW := float64(g.w) - 24*s
	for i, l := range o.labels {
		// A class name can be 253 characters: no entry is wider than a row.
		o.labels[i] = g.fonts.fit(l, false, legendText*s, maxW-40*s)
		o.widths = append(o.widths, g.fonts.width(o.labels[i], false, legendText*s))
	}
	o.legend = planLegend(o.titleW, o.widths, maxW, s)
	return o
}

// drawLegend draws the PriorityClass colours along the bottom edge, in
// screen space so it stays put while panning; fit leaves room for it
// (legendExtra: the rows past the first when the canvas is too narrow for
// one).
func (g *Game) drawLegend(dst *ebiten.Image) {
	s, o := g.scale, g.overlay()
	title, plan := g.words.Legend, &o.legend
	extra := plan.extra(s)
	box := Rect{X: 12 * s, Y: float64(g.h) - (LegendH+10)*s - extra, W: plan.w, H: LegendH*s + extra}
	g.drawCached(dst, &g.legendImg, box, func(img *ebiten.Image, b Rect) {
		t := g.theme
		g.paint.fillRound(img, b, 8*s, withAlpha(t.Card, 0.94))
		g.paint.strokeRound(img, b, 8*s, 1*s, t.CardBorder)
		y0 := b.Y + LegendH*s/2
		g.text(img, title, true, legendText*s, b.X+12*s, y0, t.Muted, text.AlignStart)
		for i, l := range o.labels {
			x, y := b.X+plan.at[i].x, y0+float64(plan.at[i].row)*legendRowH*s
			g.paint.fillRound(img, Rect{X: x, Y: y - 6*s, W: 14 * s, H: 12 * s}, 3*s, o.colors[i])
			g.text(img, l, false, legendText*s, x+20*s, y, t.Text, text.AlignStart)
		}
	})
}

func (g *Game) tooltipLines() []string {
	switch g.hover.Kind {
	case HitPod:
		p, ok := g.scene.FindPod(g.hover.Key)
		if !ok {
			return nil
		}
		return PodTooltip(p, g.now, &g.words)
	case HitNode:
		n, ok := g.scene.FindNode(g.hover.Key)
		if !ok {
			return nil
		}
		return NodeTooltip(n, &g.words)
	}
	return nil
}

func (g *Game) drawTooltip(dst *ebiten.Image) {
	if g.dragging {
		return
	}
	lines := g.tooltipLines()
	if len(lines) == 0 {
		return
	}
	t, s := g.theme, g.scale
	const size, row = 12.5, 18.0
	w := 0.0
	for i, l := range lines {
		lines[i] = Ellipsize(l, 60)
		w = max(w, g.fonts.width(lines[i], i == 0, size*s))
	}
	bw, bh := w+20*s, (float64(len(lines))*row+12)*s
	x, y := g.cursorX+16*s, g.cursorY+16*s
	if x+bw > float64(g.w) {
		x = g.cursorX - bw - 8*s
	}
	if y+bh > float64(g.h) {
		y = g.cursorY - bh - 8*s
	}
	box := Rect{X: x, Y: y, W: bw, H: bh}
	g.paint.fillRound(dst, box, 6*s, withAlpha(t.Tooltip, 0.96))
	for i, l := range lines {
		g.text(dst, l, i == 0, size*s, x+10*s, y+(6+float64(i)*row+row/2)*s, t.TooltipFg, text.AlignStart)
	}
}

func (g *Game) drawBanner(dst *ebiten.Image) {
	g.mu.Lock()
	msg := g.failureText
	g.mu.Unlock()
	if msg == "" {
		return
	}
	s := g.scale
	red := color.RGBA{R: 0xb9, G: 0x1c, B: 0x1c, A: 0xff}
	box := Rect{X: 12 * s, Y: 12 * s, W: float64(g.w) - 24*s, H: 32 * s}
	g.paint.fillRound(dst, box, 6*s, red)
	g.text(dst, g.fonts.fit(msg, true, 13*s, box.W-20*s), true, 13*s, box.X+10*s, box.Y+16*s, color.White, text.AlignStart)
}

// drawClearedNomination marks the node whose reserved place a lower-priority
// pod just lost (its ghost is gone from the scene) with a badge naming it.
func (g *Game) drawClearedNomination(dst *ebiten.Image) {
	node, label, ok := ClearedNomination(g.scene.Event, &g.words)
	if !ok {
		return
	}
	for _, nb := range g.layout.Nodes {
		if nb.Node.Name != node {
			continue
		}
		t, z := g.theme, g.cam.Zoom
		r := g.screenRect(nb.Rect)
		size := 11 * z
		w := g.fonts.width(label, true, size) + 14*z
		badge := Rect{X: r.X + r.W - w - 6*z, Y: r.Y + 6*z, W: w, H: 20 * z}
		g.paint.fillRound(dst, badge, 5*z, t.Victim)
		g.text(dst, label, true, size, badge.X+7*z, badge.Y+badge.H/2, TextOn(t.Victim), text.AlignStart)
		// The card outlined in the victim colour while the event is shown.
		g.paint.strokeRound(dst, r, 8*z, 2.5*z, withAlpha(t.Victim, 0.8))
	}
}

// textBox is the box text drawn at (x, y) may cover (see fonts.draw: y is
// its vertical middle, x its start, centre or end per align), with room for
// ascenders, descenders and glyphs overhanging their advance.
func textBox(x, y, size, width float64, align text.Align) Rect {
	switch align {
	case text.AlignCenter:
		x -= width / 2
	case text.AlignEnd:
		x -= width
	}
	return Rect{X: x - size/2, Y: y - size, W: width + size, H: 2 * size}
}

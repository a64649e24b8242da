//go:build js || ebiten

package ui

import (
	"fmt"
	"image/color"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// Draw paints the current layout; it decides nothing.
func (g *Game) Draw(screen *ebiten.Image) {
	defer g.recovered("Draw")
	key, busy := g.viewKey(), g.motion.Busy()
	if g.painted && key == g.drawn && !busy && !g.animating {
		return // the screen is kept between frames (SetScreenClearedEveryFrame(false))
	}
	// One more paint after motion ends shows the settled positions.
	g.drawn, g.painted, g.animating = key, true, busy
	g.paints++
	t := g.theme
	screen.Fill(t.Background)
	z := g.cam.Zoom

	g.drawQueue(screen)
	for _, zb := range g.layout.Zones {
		g.drawZone(screen, zb)
	}
	for _, nb := range g.layout.Nodes {
		g.drawNode(screen, nb)
	}
	for _, c := range g.layout.Chips {
		g.drawChip(screen, c, z)
	}
	g.drawLegend(screen)
	g.drawTooltip(screen)
	g.drawBanner(screen)

	if g.drawnGen != g.gen {
		g.drawnGen = g.gen
		if g.cb.Drawn != nil {
			g.cb.Drawn(g.gen)
		}
	}
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
	title := "Pending"
	if n := len(g.scene.Pending); n > 0 {
		title = fmt.Sprintf("Pending · %d", n)
	} else {
		title = "Pending · none"
	}
	g.fonts.draw(dst, title, true, 14*z, r.X+12*z, r.Y+QueueTitleH*z/2, t.ZoneText, text.AlignStart)
}

func (g *Game) drawZone(dst *ebiten.Image, zb ZoneBox) {
	t, z := g.theme, g.cam.Zoom
	r := g.screenRect(zb.Rect)
	g.paint.fillRound(dst, r, 12*z, t.Zone)
	g.paint.strokeRound(dst, r, 12*z, 1*z, t.ZoneBorder)
	name := zb.Name
	if name == "" {
		name = "no " + g.scene.ZoneKey + " label"
	}
	g.fonts.draw(dst, g.fonts.fit(name, true, 15*z, r.W-24*z), true, 15*z, r.X+ZonePad*z, r.Y+ZoneTitleH*z/2+2*z, t.ZoneText, text.AlignStart)
}

func (g *Game) drawNode(dst *ebiten.Image, nb NodeBox) {
	t, z := g.theme, g.cam.Zoom
	n := nb.Node
	r := g.screenRect(nb.Rect)
	g.paint.fillRound(dst, r, 8*z, t.Card)
	border, width := t.CardBorder, 1.0
	switch {
	case g.selected.Kind == HitNode && g.selected.Key == n.Name:
		border, width = t.Selection, 3
	case g.hover.Kind == HitNode && g.hover.Key == n.Name:
		border, width = t.Selection, 1.5
	case n.Unschedulable:
		border, width = t.Cordon, 1.5
	}
	g.paint.strokeRound(dst, r, 8*z, width*z, border)

	x0 := r.X + CardPad*z
	inner := (CardW - 2*CardPad) * z
	y := r.Y + CardPad*z + CardHeaderH*z/2
	g.fonts.draw(dst, g.fonts.fit(n.Name, true, 15*z, inner), true, 15*z, x0, y, t.Text, text.AlignStart)

	if nb.TaintLine() {
		y = r.Y + (CardPad+CardHeaderH+CardTaintH/2)*z
		x := x0
		if n.Unschedulable {
			label := "cordoned"
			w := g.fonts.width(label, true, 11*z) + 10*z
			g.paint.fillRound(dst, Rect{X: x, Y: y - 8*z, W: w, H: 16 * z}, 4*z, t.Cordon)
			g.fonts.draw(dst, label, true, 11*z, x+5*z, y, TextOn(t.Cordon), text.AlignStart)
			x += w + 6*z
		}
		if len(n.Taints) > 0 {
			parts := make([]string, len(n.Taints))
			for i, tn := range n.Taints {
				parts[i] = tn.String()
			}
			s := "⚠ " + strings.Join(parts, ", ")
			g.fonts.draw(dst, g.fonts.fit(s, false, 12*z, x0+inner-x), false, 12*z, x, y, t.Taint, text.AlignStart)
		}
	}

	req := n.Requested()
	bars := []struct {
		label      string
		used, cap  int64
		usedS, cpS string
	}{
		{"cpu", req.MilliCPU, n.Allocatable.MilliCPU, FormatCPU(req.MilliCPU), FormatCPU(n.Allocatable.MilliCPU)},
		{"memory", req.Memory, n.Allocatable.Memory, FormatMemory(req.Memory), FormatMemory(n.Allocatable.Memory)},
		{"pods", req.Pods, n.Allocatable.Pods, fmt.Sprint(req.Pods), fmt.Sprint(n.Allocatable.Pods)},
	}
	for i, b := range bars {
		br := g.screenRect(nb.BarRect(i))
		cy := br.Y + br.H/2
		g.fonts.draw(dst, b.label, false, 11.5*z, x0, cy, t.Muted, text.AlignStart)
		g.paint.fillRound(dst, br, br.H/2, t.BarTrack)
		f := Fraction(b.used, b.cap)
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
		g.fonts.draw(dst, b.usedS+" / "+b.cpS, false, 11.5*z, r.X+r.W-CardPad*z, cy, t.Text, text.AlignEnd)
	}
}

func (g *Game) drawChip(dst *ebiten.Image, c ChipBox, z float64) {
	t := g.theme
	key := c.Pod.Key()
	wr, ok := g.motion.Rect(key)
	if !ok {
		wr = c.Rect
	}
	r := g.screenRect(wr)
	a := g.motion.Alpha(key)
	bg := PodColor(g.legend, c.Pod)
	if c.Pending {
		// Pending pods are drawn as outlined chips: not running anywhere yet.
		g.paint.fillRound(dst, r, 6*z, withAlpha(mix(t.Card, bg, 0.22), a))
		g.paint.strokeRound(dst, r, 6*z, 2*z, withAlpha(bg, a))
	} else {
		g.paint.fillRound(dst, r, 6*z, withAlpha(bg, a))
	}
	switch {
	case g.selected.Kind == HitPod && g.selected.Key == key:
		g.paint.strokeRound(dst, Rect{X: r.X - 2*z, Y: r.Y - 2*z, W: r.W + 4*z, H: r.H + 4*z}, 8*z, 2.5*z, t.Selection)
	case g.hover.Kind == HitPod && g.hover.Key == key:
		g.paint.strokeRound(dst, r, 6*z, 1.5*z, t.Selection)
	}
	fg := TextOn(bg)
	if c.Pending {
		fg = t.Text
	}
	name := g.fonts.fit(c.Pod.Name, false, 12*z, r.W-12*z)
	g.fonts.draw(dst, name, false, 12*z, r.X+6*z, r.Y+r.H/2, withAlpha(fg, a), text.AlignStart)
}

// drawLegend draws the PriorityClass colours along the bottom edge, in
// screen space so it stays put while panning; fit leaves room for it.
func (g *Game) drawLegend(dst *ebiten.Image) {
	t, s := g.theme, g.scale
	entries := append([]LegendEntry(nil), g.legend...)
	entries = append(entries, LegendEntry{Class: PriorityClass{Name: "no class"}, Color: NoClassColor})
	const size = 12.5
	labels := make([]string, len(entries))
	title := "PriorityClass"
	w := g.fonts.width(title, true, size*s) + 16*s
	for i, e := range entries {
		labels[i] = e.Class.Name
		if i < len(entries)-1 {
			labels[i] = fmt.Sprintf("%s %d", e.Class.Name, e.Class.Value)
		}
		w += 20*s + g.fonts.width(labels[i], false, size*s) + 14*s
	}
	box := Rect{X: 12 * s, Y: float64(g.h) - (LegendH+10)*s, W: w + 6*s, H: LegendH * s}
	g.paint.fillRound(dst, box, 8*s, withAlpha(t.Card, 0.94))
	g.paint.strokeRound(dst, box, 8*s, 1*s, t.CardBorder)
	y := box.Y + box.H/2
	x := box.X + 12*s
	g.fonts.draw(dst, title, true, size*s, x, y, t.Muted, text.AlignStart)
	x += g.fonts.width(title, true, size*s) + 16*s
	for i, e := range entries {
		g.paint.fillRound(dst, Rect{X: x, Y: y - 6*s, W: 14 * s, H: 12 * s}, 3*s, e.Color)
		x += 20 * s
		g.fonts.draw(dst, labels[i], false, size*s, x, y, t.Text, text.AlignStart)
		x += g.fonts.width(labels[i], false, size*s) + 14*s
	}
}

func (g *Game) tooltipLines() []string {
	switch g.hover.Kind {
	case HitPod:
		p, ok := g.scene.FindPod(g.hover.Key)
		if !ok {
			return nil
		}
		class := p.PriorityClass
		if class == "" {
			class = "no class"
		}
		lines := []string{p.Key(), fmt.Sprintf("priority %d (%s)", p.Priority, class),
			fmt.Sprintf("requests cpu %s, memory %s", FormatCPU(p.Requests.MilliCPU), FormatMemory(p.Requests.Memory))}
		if p.Node != "" {
			lines = append(lines, "on "+p.Node)
		} else {
			lines = append(lines, "pending")
		}
		if p.NominatedNode != "" {
			lines = append(lines, "nominated to "+p.NominatedNode)
		}
		if p.Reason != "" {
			lines = append(lines, p.Reason)
		}
		return lines
	case HitNode:
		n, ok := g.scene.FindNode(g.hover.Key)
		if !ok {
			return nil
		}
		req := n.Requested()
		lines := []string{n.Name}
		if n.Zone != "" {
			lines = append(lines, "zone "+n.Zone)
		}
		lines = append(lines,
			fmt.Sprintf("cpu %s / %s", FormatCPU(req.MilliCPU), FormatCPU(n.Allocatable.MilliCPU)),
			fmt.Sprintf("memory %s / %s", FormatMemory(req.Memory), FormatMemory(n.Allocatable.Memory)),
			fmt.Sprintf("pods %d / %d", req.Pods, n.Allocatable.Pods))
		if n.Unschedulable {
			lines = append(lines, "cordoned (spec.unschedulable)")
		}
		for _, tn := range n.Taints {
			lines = append(lines, "taint "+tn.String())
		}
		return lines
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
		g.fonts.draw(dst, l, i == 0, size*s, x+10*s, y+(6+float64(i)*row+row/2)*s, t.TooltipFg, text.AlignStart)
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
	g.fonts.draw(dst, g.fonts.fit(msg, true, 13*s, box.W-20*s), true, 13*s, box.X+10*s, box.Y+16*s, color.White, text.AlignStart)
}

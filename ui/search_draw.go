//go:build js || ebiten

package ui

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// searchVeil dims a card the selected pod's search never looked at, and
// marks the cards where it started and stopped.
func (g *Game) searchVeil(dst *ebiten.Image, r Rect, n *Node) {
	sv := g.scene.Search
	if sv == nil {
		return
	}
	t, z := g.theme, g.cam.Zoom
	if sv.NotEvaluated[n.Name] {
		g.paint.fillRound(dst, r, 8*z, withAlpha(t.Background, 0.72))
		return
	}
	label := SearchLabel(&g.words, sv, n.Name)
	if label == "" || 11*z < minTextPx {
		return
	}
	w := g.fonts.width(label, true, 11*z) + 10*z
	box := Rect{X: r.X + r.W - w - 6*z, Y: r.Y - 8*z, W: w, H: 16 * z}
	g.paint.fillRound(dst, box, 8*z, t.Focus)
	g.text(dst, label, true, 11*z, box.X+5*z, box.Y+8*z, TextOn(t.Focus), text.AlignStart)
}

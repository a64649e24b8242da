//go:build js || ebiten

package ui

// SetPresenter turns presenter mode on or off; the game loop applies it
// and frames the cluster again.
func (g *Game) SetPresenter(on bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.nextPresenter = &on
}

// applyPresenter takes a presenter switch asked from the host (Update).
func (g *Game) applyPresenter(on *bool) {
	if on == nil || *on == g.presenter {
		return
	}
	g.presenter = *on
	g.autoFit = true
	if g.layout != nil {
		// The band a presenter fit fills has another shape (bandAspect).
		g.layout = Arrange(g.scene, g.aspect())
		g.motion.Retarget(g.layout)
		g.fit()
	}
}

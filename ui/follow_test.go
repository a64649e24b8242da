package ui

import (
	"math"
	"testing"
)

// Following the action frames what an event involves with pod names at
// FollowLabelPx CSS pixels or more, on a small embed (400x300) as on a
// large screen, and falls back to the first node when all of it does not
// fit readably.
func TestFollowCamera(t *testing.T) {
	card := func(i int) Rect { return Rect{X: float64(i) * (CardW + 20), Y: 100, W: CardW, H: 200} }
	chip := Rect{X: 10, Y: 400, W: QueueChipW, H: ChipH}
	for _, tc := range []struct {
		name      string
		nodes     []Rect
		pods      []Rect
		w, h, dpr float64
		ok        bool
		shows     []Rect // must lie on screen
		centreOn  *Rect  // the fallback centres this
	}{
		{name: "nothing involved", w: 400, h: 300, dpr: 1},
		{name: "one card at 400x300", nodes: []Rect{card(3)}, w: 400, h: 300, dpr: 1, ok: true, shows: []Rect{card(3)}},
		{name: "one card at 400x300, 2x display", nodes: []Rect{card(3)}, w: 800, h: 600, dpr: 2, ok: true, shows: []Rect{card(3)}},
		{name: "a card and a chip far away: the card alone", nodes: []Rect{card(9)}, pods: []Rect{chip}, w: 400, h: 300, dpr: 1, ok: true, shows: []Rect{card(9)}},
		{name: "a card and a queued chip at 1280x720", nodes: []Rect{card(2)}, pods: []Rect{chip}, w: 1280, h: 720, dpr: 1, ok: true, shows: []Rect{card(2), chip}},
		{name: "two cards far apart: the first, centred", nodes: []Rect{card(0), card(30)}, w: 400, h: 300, dpr: 1, ok: true, centreOn: &Rect{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := FollowCamera(tc.nodes, tc.pods, tc.w, tc.h, tc.dpr)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			if px := PodNameSize * c.Zoom / tc.dpr; px < FollowLabelPx-1e-9 {
				t.Errorf("pod names at %.2f CSS px, want >= %v", px, FollowLabelPx)
			}
			for _, r := range tc.shows {
				x0, y0 := c.ToScreen(r.X, r.Y)
				x1, y1 := c.ToScreen(r.X+r.W, r.Y+r.H)
				if x0 < 0 || y0 < CaptionBandH*tc.dpr-1e-9 || x1 > tc.w || y1 > tc.h-(LegendH+10)*tc.dpr+1e-9 {
					t.Errorf("%+v is drawn at (%.0f,%.0f)-(%.0f,%.0f), not inside the %vx%v canvas between caption and legend", r, x0, y0, x1, y1, tc.w, tc.h)
				}
			}
			if tc.centreOn != nil {
				first := tc.nodes[0]
				cx, _ := c.ToScreen(first.X+first.W/2, first.Y)
				if math.Abs(cx-tc.w/2) > 1e-6 {
					t.Errorf("first card centred at x=%.1f, want %.1f", cx, tc.w/2)
				}
			}
		})
	}
}

// FollowRects finds the cards and chips an event names.
func TestFollowRects(t *testing.T) {
	s := &Scene{Nodes: []Node{{Name: "a", Pods: []Pod{{Name: "p", Namespace: "default"}}}, {Name: "b"}},
		Pending: []Pod{{Name: "q", Namespace: "default"}}}
	l := Arrange(s, 16.0/9)
	nodes, pods := FollowRects(l, &SceneEvent{FocusNodes: []string{"b"}, FocusPods: []string{"default/p", "default/q", "default/gone"}})
	if len(nodes) != 1 || nodes[0] != l.Nodes[1].Rect || len(pods) != 2 {
		t.Fatalf("FollowRects = %v, %v; want card b and chips p, q", nodes, pods)
	}
	if n, p := FollowRects(l, nil); n != nil || p != nil {
		t.Error("no event: want nothing")
	}
}
